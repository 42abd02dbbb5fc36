from typing import Iterator, Optional

import libcst as cst

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._arguments import instance_class
from jitlint.rules._context import calling_context, loop_targets, names_assigned_in
from jitlint.rules._jitted import name_loads
from jitlint.rules._counter_fields import counter_uses, describe
from jitlint.rules._module_fields import changing_static_fields
from jitlint.rules._static import changing_scalar, class_verdict, forwarded_static_uses, fresh_value, static_uses
from jitlint.rules._traced import needs_python_value
from jitlint.values import Varying, assigned, loop_elements, value_flow


class LoopVariableStaticArg(Rule):
    """
    ## What it does
    Flags a `range`/`enumerate` loop counter (also over a progress bar, `tqdm(range(n))`,
    `for i in (pbar := tqdm.trange(n))`: vbjax, 5 compiles in 5 steps; or arithmetic of it,
    `float(i)`, `i * 0.1`) passed at a static position (also of the jitted function a factory
    of the module returns, `train_step = create_train_step_fn(ddp)` returning `jax.pmap(...) if
    ddp else jax.jit(...)` with the same static positions: Polynomial-Expansion, 5 compiles in
    5 epochs) of a jitted function inside that loop, also through names
    assigned in the loop (`lr = 0.1 * 0.97 ** t`), a value updated from itself on every
    iteration (`lr *= 0.9`, `lr = lr * decay`, also an attribute: `cfg.lr *= 0.9`), a value
    returned by a helper of this module from the counter (`anneal(step)`, also one that names
    parts first and clamps, `slope = (end - start) / n; return max(slope * t + start, end)`:
    a DQN's epsilon schedule, 5 compiles in 5 steps, 1 traced), a number drawn at
    random in the loop (`int(jax.random.randint(key, (), 1, 50))`, `np.random.randint(1, 10)`:
    jaxfacts.HOST_RANDOM_DRAWS, JAX_RANDOM_NUMBER_DRAWS; a draw of at most three values is a
    flag and stays silent),
    `len(history)` of a list appended to in the
    loop, or the loop variable of a sweep over different float literals
    (`for lr in [1e-3, 1e-2, 1e-1]`; ints and strings are often structural and stay silent).
    Names are followed to the definitions that reach the call, so reusing the counter's
    name elsewhere in the scope changes nothing. A wrapper of this module that passes its
    parameter on to the static position counts as the jitted call (`solve(y, method=
    Tsit5(rtol=rtol))` of `def solve(y, *, method): return _solve(y, method)`: dynamiqs PR
    951; measured 5 compiles for 5 tolerances, 1 with the tolerance traced). The callee may be
    defined in this module or imported from another linted module. Values that take few
    values stay silent: `i % 2`, `i > 0` (but `i % k` over a `range(n)` loop with `n <= k`
    takes a new value every iteration, also inside a helper: `step % 3 + 1`), a bool flag toggling between train and eval (two
    compiles, by design), and a sweep of distinct programs: a value the body needs as a Python
    value (a scan length, a pad width) in a loop that carries no state from one iteration to the
    next (`for n in range(1, 9): _ = sample(key, n)`, timing one program per length: jax#2777),
    and a counter passed beside the loop's item at another static position (`for i, env in
    enumerate(envs): train(params, env, i)`): every item is a program of its own
    (`fixtures/changing_statics/ok_index_beside_static_item_per_iteration.py`).
    A loop over a literal list of three or more different ints (also an element of listed
    tuples, `kx = K[0]` of `for K in [(0, 1), (1, 0), ...]`) is flagged only when the body
    could take the value traced (it only indexes arrays with it): jax-spectral-dns's
    wavenumber indices, `fixtures/static_values/wavenumber_index_static_per_mode.py`, 5
    compiles for 5 modes; a mode count that sizes the operator is a program per resolution
    and stays silent.
    Also a pytree field marked static (`struct.field(pytree_node=False)`,
    `eqx.field(static=True)`, `field(metadata={"static": True})`) that the code steps from itself
    (`Sampler(key=k, draws=s.draws + 1)`) while a loop feeds the jitted function's result back
    into it (`jitlint/rules/_counter_fields.py`), or that a loop builds anew per iteration from
    a changing value (`RobotModel(contact=ContactParams.build(stiffness=k))` over a sweep of
    stiffnesses with `contact` in `meta_fields`: jaxsim 5dc21ee, 4 compiles in 4 episodes, 1
    with the parameters among the data fields; `SamplerConfig(temperature=temperature)` with
    `struct.field(pytree_node=False)` and `temperature *= 0.9`: 5 in 5). A counter of an inner loop that counts over
    the same values on every pass of an outer loop compiles once per value on the first pass
    and hits the cache after that; the message says so (evojax's MAP-Elites example:
    `fixtures/static/jit401_inner_counter_repeated_per_step.py`, 5 compiles in 50 calls).
    A loop over a literal `range` whose every value earlier loops of the same body already
    passed at that argument compiles nothing and stays silent (qdpy's notebook: `range(3, 10)`,
    then `range(4, 8)`; `fixtures/static/jit401_loop_counter_static_then_loop_over_compiled_values.py`).

    ## Why is this bad?
    Each distinct static value is a new cache key, so every iteration compiles again.
    Measured on jax 0.10.2 (CPU): a loop index passed as a static argument compiles 5 times
    in 5 calls; a changing float passed through `static_argnames` compiles 5 times in 5
    calls; `lr = 0.1 * 0.97 ** t` passed by `static_argnames` compiles 10 times in 10 steps;
    `lr *= 0.9` 5 times in 5; a static value alternating between 0 and 1 compiles twice. A
    static `draws` field stepped per call, 5 times in 5 under jax.jit; the same field not
    marked static is a traced leaf there, once (`fixtures/changing_statics/`). A step count
    drawn with `int(jax.random.randint(key, (), 1, 50))` for each of 5 episodes and passed
    static compiles 5 times; passed traced to `lax.fori_loop`, once.

    ## Fix safety
    Pass the value as an ordinary (traced) argument: drop it from `static_argnums` /
    `static_argnames`. This breaks the function when the body uses the value where JAX needs a
    concrete Python value (a shape, a loop bound, a Python `if`): measured, `for _ in range(n)`
    with `n` no longer static raises `TracerIntegerConversionError`. The message checks the
    body (and the module functions it calls) and, in that case, advises keeping it static and
    bucketing the value, or rewriting with `lax.fori_loop` / `lax.dynamic_slice` / `jnp.where`.
    """

    code = "JIT401"
    calling_context = True
    name = "loop-variable-static-arg"
    summary = "a loop counter at a static argument position recompiles on every iteration"

    INVALID = [
        """
        from functools import partial

        import jax
        import jax.numpy as jnp

        @partial(jax.jit, static_argnums=1)
        def scale(x, factor):
            return x * factor

        x = jnp.ones(3)
        for i in range(5):
            y = scale(x, i)
        """,
    ]
    VALID = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def scale(x, factor):
            return x * factor

        x = jnp.ones(3)
        for i in range(5):
            y = scale(x, i)  # traced: one compile
        """,
        """
        from functools import partial

        import jax
        import jax.numpy as jnp

        @partial(jax.jit, static_argnames="train")
        def forward(x, train):
            return x * 0.5 if train else x

        x = jnp.ones(3)
        for i in range(5):
            y = forward(x, train=i % 2 == 0)  # two values: two compiles, by design
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        context = calling_context(ctx)
        forwarded = [use for use in forwarded_static_uses(ctx) if not context.runs_traced(use.site.frame)]
        uses = (*static_uses(ctx), *forwarded)
        for use in uses:
            if use.spec.filtering:
                continue
            fresh = fresh_value(ctx, use)
            if fresh is not None and fresh.kind != "jit":
                continue  # a new object equal only to itself: JIT402's finding, and its fix
            varying = changing_scalar(ctx, use.value, use.site)
            listed = _listed_index(ctx, use) if varying is None else None
            varying = varying or listed
            if varying is None:
                continue
            counter = varying.counter
            per_outer_pass = _changes_in_outer_loop(use, varying)
            if per_outer_pass and needs_python_value(ctx, use.callee, use.param):
                continue  # ``for tau in taus: for i in range(n): T(q, tau=tau)`` with ``if tau == 0``: a program per tau
            if _sweep_of_programs(ctx, use) or (
                    counter is not None and varying.how.startswith("the loop counter")
                    and _is_name(use.value, counter) and (_beside_another_program_per_item(ctx, use, counter)
                                                          or _compiled_by_earlier_loops(ctx, use, counter, uses))):
                continue
            if counter is not None and varying.how.startswith("the loop counter"):
                of = "" if _is_name(use.value, counter) else " (an expression of it)"
                cost = (f"`{use.callee}` compiles once per value on the first pass of the outer "
                        f"loop (later passes reuse them)" if _repeats_per_outer_pass(use.site, counter)
                        else f"`{use.callee}` recompiles on every call")
                yield Violation(use.arg, (
                    f"{use.where()} is the loop counter `{counter}`{of}, a new value on every "
                    f"iteration: {cost}; {_advice(ctx, use.callee, use.param)}"))
            else:
                cls = _object_class(ctx, use)
                advice = (f"keep `{cls}` static for the settings that stay the same and pass the "
                          f"changing value as a traced argument of its own (or make `{cls}` a "
                          f"pytree whose field holding it is a leaf)" if cls is not None
                          else _advice(ctx, use.callee, use.param))
                cost = (f"a new value on every pass of an outer loop: `{use.callee}` compiles again on each "
                        f"pass (the inner loop's calls reuse it)" if per_outer_pass
                        else f"one program per value: `{use.callee}` compiles for each, where one traced "
                             f"argument would serve them all" if listed is not None
                        else f"a new value on every iteration: `{use.callee}` recompiles on every call")
                yield Violation(use.arg, f"{use.where()} is {varying.how}, {cost}; {advice}")
        for use in changing_static_fields(ctx):
            fix = use.fix or f"drop the static marking of `{use.field}`"
            yield Violation(use.value, (
                f"`{use.field}`, a static field of `{use.cls}`, is given {use.varying.how}, a new value on "
                f"every iteration: static fields are part of the cache key of every jit, so "
                f"`{use.callee}` recompiles on every call; {fix} (a leaf is traced) unless "
                f"`{use.callee}` needs it as a Python value (a shape, a bound)"),
                related=((use.site.node, f"passed to `{use.callee}` here"),))
        for counter in counter_uses(ctx):
            if not counter.filtering:
                field = counter.counter.field
                yield Violation(counter.flagged, (
                    f"{describe(counter)}, and `{field}` is marked static: a static field is part "
                    f"of the cache key of every jit, so `{counter.callee}` recompiles on every "
                    f"call; drop the static marking (a Python `{counter.counter.annotation}` leaf "
                    f"is traced under jax.jit), or keep the changing value out of the pytree"),
                    related=counter.related)


def _changes_in_outer_loop(use, varying) -> bool:
    """The value changes with a loop around the call's innermost loop, and the inner loop
    calls again with the same value (``for tau in taus: for i in range(20): T(q, tau=tau)``)."""
    loops = use.site.frame.loops_in_scope()  # innermost first
    return any(loop is varying.loop for loop in loops[1:])


def _compiled_by_earlier_loops(ctx: FileContext, use, counter: str, uses) -> bool:
    """``for ell in range(4, 8): f(ell)`` after loops of the same body that already called
    ``f`` with every one of those values at that argument (``range(3, 10)``, ``range(5, 12)``):
    each program is in the cache, so this loop compiles nothing (qdpy's pytrees notebook)."""
    values = _counted_values(ctx, use, counter)
    if not values:
        return False
    here = ctx.model.order(use.site.node)
    seen: set[int] = set()
    for other in uses:
        if other is use or other.callee != use.callee or other.param != use.param \
                or other.site.frame.scope is not use.site.frame.scope or ctx.model.order(other.site.node) >= here \
                or not isinstance(other.value, cst.Name):
            continue
        seen |= _counted_values(ctx, other, other.value.value) or set()
    return values <= seen


def _counted_values(ctx: FileContext, use, counter: str) -> Optional[set[int]]:
    """The ints ``counter`` takes in the loop around the call: ``for counter in range(3, 10)``
    with literal bounds (None for any other loop)."""
    loop = next((loop for loop in use.site.frame.loops_in_scope() if counter in loop_targets(loop)), None)
    if not (isinstance(loop, cst.For) and isinstance(loop.target, cst.Name) and isinstance(loop.iter, cst.Call)
            and isinstance(loop.iter.func, cst.Name) and loop.iter.func.value == "range"
            and not ctx.model.lookup("range", use.site.frame.scope)
            and 1 <= len(loop.iter.args) <= 3
            and all(isinstance(a.value, cst.Integer) and a.keyword is None for a in loop.iter.args)):
        return None
    return set(range(*(int(a.value.value) for a in loop.iter.args)))


def _repeats_per_outer_pass(site, counter: str) -> bool:
    """The counter's loop sits in an outer loop and counts over the same values on every pass
    (its iterable reads nothing the outer loop assigns): `for step in ...: for i in range(n):`."""
    loops = site.frame.loops_in_scope()  # innermost first
    inner = next((i for i, loop in enumerate(loops) if counter in loop_targets(loop)), None)
    if inner is None or inner + 1 >= len(loops) or not isinstance(loops[inner], cst.For):
        return False
    outer = loops[inner + 1]
    changed = names_assigned_in(outer.body) | loop_targets(outer)
    return not {name.value for name in name_loads(loops[inner].iter)} & changed


def _listed_index(ctx: FileContext, use) -> Optional[Varying]:
    """``for kx in [0, 1, 2]`` (or ``kx = K[0]`` of ``for K in [(0, 1), (1, 0), ...]``) handing
    a static parameter that the body could take traced (it only indexes arrays with it: not a
    shape, a bound, a condition): three or more different ints are as many programs that one
    traced argument would serve (jax-spectral-dns's wavenumbers, 4 compiles for 4 modes).  Ints
    a body needs as Python values are a sweep of programs, left alone."""
    if not isinstance(use.value, cst.Name):
        return None
    flow = value_flow(ctx)
    binding = flow.single(use.value, use.site.frame.scope)
    loops = use.site.frame.loops_in_scope()
    if binding is None or not loops:
        return None
    picked = None  # ``kx = K[0]``: the element of each listed tuple
    value = assigned(binding).value if binding.kind == "assign" else None
    if isinstance(value, cst.Subscript) and isinstance(value.value, cst.Name) and len(value.slice) == 1 \
            and isinstance(value.slice[0].slice, cst.Index) and isinstance(value.slice[0].slice.value, cst.Integer):
        picked = int(value.slice[0].slice.value.value)
        binding = flow.single(value.value, binding.scope)
    elements = loop_elements(binding, flow) if binding is not None and binding.node is loops[0] else None
    if elements is None:
        return None
    if picked is not None:
        elements = [e.elements[picked].value if isinstance(e, (cst.Tuple, cst.List)) and picked < len(e.elements)
                    else e for e in elements]
    ints = [e.value for e in elements if isinstance(e, cst.Integer)]
    if len(ints) != len(elements) or len(set(ints)) < 3 or needs_python_value(ctx, use.callee, use.param) is not False:
        return None
    return Varying(loops[0], None, f"`{use.value.value}`, taken from a list of {len(set(ints))} different ints")


def _sweep_of_programs(ctx: FileContext, use) -> bool:
    """The body needs the value as a Python value (a shape, a bound), and no iteration feeds the
    next (no name the loop body rebinds is read there: ``for n in range(1, 9): _ = sample(key,
    n)``, timing one program per size): each value is a different program, every compile is
    needed, and nothing is to be changed."""
    loops = use.site.frame.loops_in_scope()
    if not loops or not needs_python_value(ctx, use.callee, use.param):
        return False
    loop = loops[0]
    rebound = names_assigned_in(loop.body)
    read = {name.value for name in name_loads(loop.body)}
    return not (read - loop_targets(loop)) & rebound  # no state carried from one iteration on


def _beside_another_program_per_item(ctx: FileContext, use, counter: Optional[str]) -> bool:
    """The loop counter is passed beside, at another static position, the item the loop
    iterates over (``for i, env in enumerate(envs): train(rng, state, env, i)`` with ``env``
    static too): every iteration is a program of its own anyway, and the counter adds no
    compile."""
    loops = use.site.frame.loops_in_scope()
    if not loops:
        return False
    items = loop_targets(loops[0]) - {counter}
    return any(other is not use and other.site is use.site and isinstance(other.value, cst.Name)
               and other.value.value in items for other in static_uses(ctx))


def _object_class(ctx: FileContext, use) -> Optional[str]:
    """The class when the static value is an instance of a project class (a config object): it
    cannot simply be passed traced, a plain object being no valid JAX type."""
    scope = use.site.frame.scope
    if isinstance(use.value, cst.Call):
        verdict = class_verdict(ctx, use.value.func, scope)
        return verdict[0] if verdict is not None else None
    found = instance_class(ctx, use.value, scope, 0)
    return found[0].name.value if found is not None else None


def _advice(ctx: FileContext, callee: str, param: str) -> str:
    """Dropping the static marking is right only if the body can take a tracer there."""
    needs_value = needs_python_value(ctx, callee, param)
    if needs_value:
        return (f"the body needs `{param}` as a Python value (a shape, a bound, a condition), so "
                f"it must stay static: bucket it into a few values, or rewrite the body with "
                f"lax.fori_loop / lax.dynamic_slice / jnp.where and then pass it traced")
    if needs_value is None:
        return ("pass it as a traced argument (drop it from static_argnums/static_argnames) "
                "unless the body needs it as a Python value (a shape, a loop bound)")
    return "pass it as a traced argument (drop it from static_argnums/static_argnames)"


def _is_name(expr, name: str) -> bool:
    return getattr(expr, "value", None) == name
