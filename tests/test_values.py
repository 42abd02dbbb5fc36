"""jitlint.values: which definitions reach a read (flow-sensitive), on small programs."""

from __future__ import annotations

import textwrap

import libcst as cst

from jitlint.semantic import build_model
from jitlint.values import ValueFlow


def _reaching(source: str, call_name: str) -> list[str]:
    """The source of each definition reaching the first argument of ``call_name(...)``."""
    module = cst.parse_module(textwrap.dedent(source))
    model = build_model(module)
    flow = ValueFlow(model)
    [site] = [s for s in model.calls if isinstance(s.node.func, cst.Name) and s.node.func.value == call_name]
    arg = site.node.args[0].value
    assert isinstance(arg, cst.Name)
    return [" ".join(module.code_for_node(b.node).split()) for b in flow.reaching(arg, site.frame.scope)]


def test_a_later_loop_reusing_the_name_does_not_reach_an_earlier_read():
    found = _reaching("""
        for i in range(5):
            use(i)
        for i in range(3):
            pass
        i = 0
    """, "use")
    assert len(found) == 1 and found[0].startswith("for i in range(5)")


def test_both_branches_of_an_if_reach_the_join():
    assert _reaching("""
        x = [0]
        if cond:
            x = [1]
        else:
            x = (1,)
        use(x)
    """, "use") == ["x = [1]", "x = (1,)"]


def test_a_value_assigned_late_in_a_loop_reaches_its_top():
    assert _reaching("""
        lr = 0.1
        for step in range(5):
            use(lr)
            lr = lr * 0.9
    """, "use") == ["lr = 0.1", "lr = lr * 0.9"]


def test_continue_and_break_end_their_path():
    assert _reaching("""
        while True:
            if cond:
                y = 1
                continue
            else:
                y = 2
            use(y)
            y = 3
            break
    """, "use") == ["y = 2"]


def test_an_except_handler_sees_every_state_of_the_try_body():
    assert _reaching("""
        z = 1
        try:
            z = 2
            risky()
            z = 3
        except ValueError:
            use(z)
    """, "use") == ["z = 1", "z = 2", "z = 3"]


def test_code_after_return_is_not_reached_and_a_closure_sees_every_binding():
    found = _reaching("""
        def outer():
            v = 1
            def inner():
                use(v)
            v = 2
            return inner
    """, "use")
    assert found == ["v = 1", "v = 2"]  # runs later: the flow-insensitive answer


def test_a_comprehension_reads_the_enclosing_state():
    assert _reaching("""
        k = 1
        k = 2
        out = [use(k) for _ in range(3)]
        k = 3
    """, "use") == ["k = 2"]


def _gains_keys(source: str) -> object:
    """``IterationValues.gains_keys`` for the first argument of ``use(...)``, in its innermost loop."""
    from jitlint.values import IterationValues

    module = cst.parse_module(textwrap.dedent(source))
    model = build_model(module)
    [site] = [s for s in model.calls if isinstance(s.node.func, cst.Name) and s.node.func.value == "use"]
    values = IterationValues(model, ValueFlow(model))
    return values.gains_keys(site.node.args[0].value, site.frame.scope, site.frame.loops_in_scope()[0])


def test_a_dict_gaining_a_key_per_iteration():
    assert _gains_keys("d = {}\nfor i in range(n):\n    d[f'k{i}'] = 1\n    use(d)\n") == "`d[f'k{i}'] = ...`"
    assert _gains_keys("d = {}\nfor i in range(n):\n    d.update({str(i): 1})\n    use(d)\n") == "`d.update(...)`"
    assert _gains_keys("d = {}\nfor k in names:\n    d = {**d, k: 1}\n    use(d)\n") == "`d = {**d, ...}`"


def test_a_dict_with_fixed_repeating_or_bounded_keys_does_not_gain_keys():
    for body in ("    d['w'] = i\n", "    d[i % 3] = 1\n", "    d.update(loss=i)\n",
                 "    d = {}\n    d[i] = 1\n", "    d[i] = 1\n    d.pop(0)\n"):
        assert _gains_keys(f"d = {{}}\nfor i in range(n):\n{body}    use(d)\n") is None, body
    assert _gains_keys("d = {}\nfor i in range(3):\n    d[i] = 1\n    use(d)\n") is None  # warm-up
    assert _gains_keys("d = {}\nfor i in ('a', 'b'):\n    d[i] = 1\n    use(d)\n") is None


def _loop_elements(source: str) -> object:
    """``values.loop_elements`` of the loop target that ``use(...)`` reads, as source."""
    from jitlint.values import loop_elements

    module = cst.parse_module(textwrap.dedent(source))
    model = build_model(module)
    flow = ValueFlow(model)
    [site] = [s for s in model.calls if isinstance(s.node.func, cst.Name) and s.node.func.value == "use"]
    [binding] = flow.reaching(site.node.args[0].value, site.frame.scope)
    found = loop_elements(binding, flow)
    return None if found is None else [module.code_for_node(e) for e in found]


def test_the_values_a_loop_target_takes_however_the_loop_is_spelt():
    for loop in ("for n in [5, 8, 10]:", "for i, n in enumerate((5, 8, 10)):",
                 "for n, m in zip([5, 8, 10], [1, 1, 1]):", "for m, n in zip(ms, [5, 8, 10]):",
                 "for label, n in [('a', 5), ('b', 8), ('c', 10)]:",
                 "for i, (n, m) in enumerate(zip([5, 8, 10], ms)):"):
        assert _loop_elements(f"{loop}\n    use(n)\n") == ["5", "8", "10"], loop
    assert _loop_elements("sizes = [5, 8, 10]\nfor i, n in enumerate(sizes):\n    use(n)\n") == ["5", "8", "10"]


def test_no_values_for_a_loop_over_unknown_or_starred_data():
    for loop in ("for n in sizes:", "for i, n in enumerate(sizes):", "for n in [*a, 3]:",
                 "for n, m in zip([5, 8, 10]):", "for i, n in my_enumerate([5, 8]):",
                 "for n, m in [(1, 2), 3]:", "for i, n in enumerate([5, 8], start=1):"):
        assert _loop_elements(f"{loop}\n    use(n)\n") is None, loop
    assert _loop_elements("def my_enumerate(x):\n    return x\nfor i, n in enumerate([5, 8]):\n    use(i)\n") is None


def _unpacked(source: str) -> object:
    """``values.unpacked_keywords`` of the ``**`` argument of ``use(...)``, as source."""
    from jitlint.values import unpacked_keywords

    module = cst.parse_module(textwrap.dedent(source))
    model = build_model(module)
    [site] = [s for s in model.calls if isinstance(s.node.func, cst.Name) and s.node.func.value == "use"]
    [star] = [a for a in site.node.args if a.star == "**"]
    found = unpacked_keywords(star.value, site.frame.scope, model)
    return None if found is None else [(k, module.code_for_node(v)) for k, v in found]


def test_the_keywords_a_double_star_argument_passes():
    assert _unpacked("use(x, **{'shape': [2, 3]})\n") == [("shape", "[2, 3]")]
    assert _unpacked("use(x, **dict(shape=[2, 3], n=1))\n") == [("shape", "[2, 3]"), ("n", "1")]
    assert _unpacked("opts = {'shape': [2, 3]}\nuse(x, **opts)\n") == [("shape", "[2, 3]")]


def test_no_keywords_known_for_a_written_rebound_or_computed_dict():
    for source in ("opts = {'shape': [2]}\nopts['shape'] = (2,)\nuse(x, **opts)\n",
                   "opts = {'shape': [2]}\nopts.update(shape=(2,))\nuse(x, **opts)\n",
                   "opts = {'shape': [2]}\nopts = {}\nuse(x, **opts)\n",
                   "use(x, **{key: [2]})\n", "use(x, **{'a': 1, **rest})\n", "use(x, **make())\n",
                   "def dict(**k):\n    return k\nuse(x, **dict(shape=[2]))\n"):
        assert _unpacked(source) is None, source


def _varies(source: str) -> object:
    """``IterationValues.varies_in`` for the first argument of ``use(...)``, in its innermost loop."""
    from jitlint.values import IterationValues

    module = cst.parse_module(textwrap.dedent(source))
    model = build_model(module)
    [site] = [s for s in model.calls if isinstance(s.node.func, cst.Name) and s.node.func.value == "use"]
    values = IterationValues(model, ValueFlow(model))
    return values.varies_in(site.node.args[0].value, site.frame.scope, site.frame.loops_in_scope()[0])


def test_a_conditional_expression_varies_when_its_taken_branch_does():
    assert _varies("for step in range(4):\n    use(step + 1 if step > 0 else 1)\n") is not None
    assert _varies("for step in range(4):\n    n = 1 if step == 0 else step * 2\n    use(n)\n") is not None
    assert _varies("for step in range(4):\n    use(step if flag else step + 1)\n") is not None


def test_a_conditional_expression_with_a_fixed_test_or_fixed_branches_does_not_vary():
    assert _varies("for step in range(4):\n    use(step + 1 if flag else 2)\n") is None
    assert _varies("for step in range(4):\n    use(1 if step == 0 else 2)\n") is None


def test_an_update_before_the_read_carries_the_value_from_before_the_loop():
    assert _varies("lr = 0.1\nfor _ in range(3):\n    lr *= 0.5\n    use(lr)\n") is not None
    assert _varies("i = 0\nwhile i < 3:\n    i += 1\n    use(i)\n") is not None
    assert _varies("for step in range(3):\n    use(n := step + 1)\n") is not None


def test_an_update_of_a_value_reset_in_the_loop_does_not_vary():
    assert _varies("lr = 0.1\nfor _ in range(3):\n    lr = 0.1\n    lr *= 0.5\n    use(lr)\n") is None


def test_a_range_bound_to_a_name_before_the_loop_counts():
    assert _varies("steps = range(1, 4)\nfor n in steps:\n    use(n)\n") is not None
    assert _varies("steps = make()\nfor n in steps:\n    use(n)\n") is None
