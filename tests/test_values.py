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
