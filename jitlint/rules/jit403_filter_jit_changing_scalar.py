from typing import Iterator

import libcst as cst

from jitlint.jaxfacts import FILTER_JITTED_LIBRARY_FUNCTIONS
from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._counter_fields import counter_uses, describe
from jitlint.rules._static import changing_scalar, static_uses


class FilterJitChangingScalar(Rule):
    """
    ## What it does
    Flags a `range`/`enumerate` loop counter (or arithmetic of it) passed to a function wrapped
    in `equinox.filter_jit` inside that loop, and any Python scalar recomputed on every
    iteration the way JIT401 follows it (`lr = 0.1 * 0.97 ** t`, `lr *= 0.9`): through names,
    attributes updated in the loop (`cfg.lr *= 0.9`, for an attribute the module sets to a
    number) and values returned by a helper of this module (`learning_rate(0.1, step)`).
    Decorators under `eqx.filter_jit` do not hide the call (`@eqx.debug.assert_max_traces`):
    every argument is judged by its value. Also a Python `int` / `float` field of a pytree (an
    `equinox.Module`, a `flax.struct` dataclass) that the code steps from itself
    (`self.replace(step=self.step + 1)`, `dataclasses.replace(s, step=s.step + 1)`, in the
    jitted body or a method it calls on its parameter), when a loop feeds the jitted function's
    result back into it (`state = train_step(state, x)`; `jitlint/rules/_counter_fields.py`).
    Library functions that are `equinox.filter_jit` wrappers themselves (`diffrax.diffeqsolve`,
    `optimistix.minimise`, ...: `jaxfacts.FILTER_JITTED_LIBRARY_FUNCTIONS`) are judged the same
    way, also for a Python number read back from a result the loop computes
    (`t0 = float(solution.ts[-1])`).

    ## Why is this bad?
    `equinox.filter_jit` traces only arrays; every other argument, Python ints and floats
    included, is static and part of the cache key. Measured (equinox 0.13.8, jax 0.10.2, CPU):
    `eqx.filter_jit(f)(x, i)` with a changing Python int compiles on every new value (4 of 5
    calls; one value had been seen before), a changing tuple of floats 5 of 5, a decayed
    learning rate `0.1 * 0.97 ** t` 10 of 10; a rate returned by a schedule helper, an
    attribute decayed in the loop and a loop counter through a `functools.wraps` decorator,
    5 of 5 each. A TrainState whose `step: int` is stepped per call (equinox#792), 5 of 5; the
    same field annotated and built as an array, once (`fixtures/changing_statics/`).

    ## Fix safety
    Pass an array: `f(x, jnp.asarray(i))` is traced and compiles once. The body must then not
    use the value where a concrete Python number is required (a shape, a Python `if`).
    """

    code = "JIT403"
    calling_context = True
    name = "filter-jit-changing-scalar"
    summary = "a changing Python scalar passed to equinox.filter_jit is static and recompiles every call"
    prefilter_names = FILTER_JITTED_LIBRARY_FUNCTIONS  # library calls with filter_jit inside, no jit in the file

    INVALID = [
        """
        import equinox as eqx
        import jax.numpy as jnp

        @eqx.filter_jit
        def scale(x, factor):
            return x * factor

        x = jnp.ones(3)
        for i in range(5):
            y = scale(x, i)
        """,
    ]
    VALID = [
        """
        import equinox as eqx
        import jax.numpy as jnp

        @eqx.filter_jit
        def scale(x, factor):
            return x * factor

        x = jnp.ones(3)
        for i in range(5):
            y = scale(x, jnp.asarray(i))  # an array is traced: one compile
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        for use in static_uses(ctx):
            if not use.spec.filtering:
                continue
            varying = changing_scalar(ctx, use.value, use.site, objects=False)  # only scalars are static
            if varying is not None:
                where = (f"argument `{use.param}` (keyword)" if use.position is None
                         else f"argument `{use.param}` (position {use.position})")
                source = cst.Module([]).code_for_node(use.value)
                how = varying.how
                if how.startswith("the loop counter") and source != varying.counter:
                    how += " (an expression of it)"
                yield Violation(use.arg, (
                    f"{where} of `{use.callee}` is {how}, a Python scalar that "
                    f"equinox.filter_jit treats as static: it recompiles on every call; "
                    f"pass jnp.asarray({source}) so it is traced"))
        for site in ctx.model.calls:  # ``diffrax.diffeqsolve(..., t1=T)``: filter_jit inside
            qualname = ctx.model.qualified_name(site.node.func, site.frame.scope)
            if qualname not in FILTER_JITTED_LIBRARY_FUNCTIONS:
                continue
            for arg in site.node.args:
                if arg.star:
                    break
                varying = changing_scalar(ctx, arg.value, site, objects=False)
                if varying is not None:
                    source = cst.Module([]).code_for_node(arg.value)
                    where = f"argument `{arg.keyword.value}`" if arg.keyword is not None else f"argument `{source}`"
                    yield Violation(arg, (
                        f"{where} of `{qualname}` is {varying.how}: `{qualname}` is wrapped in "
                        f"equinox.filter_jit, which keeps a Python scalar static, so it recompiles on "
                        f"every call; pass jnp.asarray({source}) so it is traced"))
                    break
        for counter in counter_uses(ctx):
            if counter.filtering:
                field = counter.counter.field
                yield Violation(counter.flagged, (
                    f"{describe(counter)}: equinox.filter_jit makes every non-array leaf static, so "
                    f"each call sees a new `{field}` and recompiles; hold `{field}` as an array "
                    f"(`jnp.asarray(0)`, annotated `jax.Array`) so it is traced"),
                    related=counter.related)
