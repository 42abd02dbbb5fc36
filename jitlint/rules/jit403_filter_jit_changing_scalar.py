from typing import Iterator

import libcst as cst

from jitlint.jaxfacts import FILTER_JITTED_LIBRARY_FUNCTIONS
from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._counter_fields import counter_uses, describe
from jitlint.values import Varying
from jitlint.rules._static import changing_graph_attributes, changing_scalar, static_uses


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
    (`t0 = float(solution.ts[-1])`). And a plain attribute of an object passed to `nnx.jit`
    set to such a scalar in the loop around the call (`model.temperature = 1.0 / (epoch + 1)`):
    nnx.jit keeps attributes that are not Variables in the static graph definition
    (`jaxfacts.GRAPH_STATIC_JITS`). Likewise an item of a dict passed to an `equinox.filter_jit`
    function (or method) set to such a scalar before each call (`params["tau"] = tau` in a
    parameter scan): the float is a non-array leaf, so static.

    ## Why is this bad?
    `equinox.filter_jit` traces only arrays; every other argument, Python ints and floats
    included, is static and part of the cache key. Measured (equinox 0.13.8, jax 0.10.2, CPU):
    `eqx.filter_jit(f)(x, i)` with a changing Python int compiles on every new value (4 of 5
    calls; one value had been seen before), a changing tuple of floats 5 of 5, a decayed
    learning rate `0.1 * 0.97 ** t` 10 of 10; a rate returned by a schedule helper, an
    attribute decayed in the loop and a loop counter through a `functools.wraps` decorator,
    5 of 5 each. A TrainState whose `step: int` is stepped per call (equinox#792), 5 of 5; the
    same field annotated and built as an array, once (`fixtures/changing_statics/`). An
    `nnx.Module` attribute annealed each epoch before an `nnx.jit` call (flax 0.12.8): 3 of 3;
    held in an `nnx.Variable`, once. A parameter scan storing a Python float in the params dict
    of a filter_jit method (ABCMB#17), 5 of 5; storing `jnp.asarray(tau)`, once.

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
                how = _described(varying, source)
                jit = f"{use.spec.via} (like equinox.filter_jit)" if use.spec.via else "equinox.filter_jit"
                yield Violation(use.arg, (
                    f"{where} of `{use.callee}` is {how}, a Python scalar that "
                    f"{jit} treats as static: it recompiles on every call; "
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
        for changed in changing_graph_attributes(ctx):  # ``model.temperature = 1 / (epoch + 1)``
            written = cst.Module([]).code_for_node(changed.write)
            source = cst.Module([]).code_for_node(changed.value)
            how = _described(changed.varying, source)
            if isinstance(changed.write, cst.Subscript):  # ``params["tau"] = tau`` for filter_jit
                yield Violation(changed.write, (
                    f"`{written}` is set to {how}, a Python scalar, before each call of "
                    f"`{changed.spec.name}`: equinox.filter_jit keeps every non-array leaf static, "
                    f"so every new value recompiles; store jnp.asarray({source}) so it is traced"),
                    related=((changed.site.node, "the filter_jit call that receives it"),))
                continue
            yield Violation(changed.write, (
                f"`{written}` is set to {how} before each call of "
                f"`{changed.spec.name}`: nnx.jit keeps a Module's plain attributes static (in its "
                f"graph definition), so every new value recompiles; store it as a Variable "
                f"(`nnx.Variable(jnp.asarray(...))`, updated through `.value`) so it is traced"),
                related=((changed.site.node, "the nnx.jit call that receives it"),))
        for counter in counter_uses(ctx):
            if counter.filtering:
                field = counter.counter.field
                yield Violation(counter.flagged, (
                    f"{describe(counter)}: equinox.filter_jit makes every non-array leaf static, so "
                    f"each call sees a new `{field}` and recompiles; hold `{field}` as an array "
                    f"(`jnp.asarray(0)`, annotated `jax.Array`) so it is traced"),
                    related=counter.related)


def _described(varying: Varying, source: str) -> str:
    """How the value changes, for the message: ``i * 2`` is "the loop counter `i` (an expression
    of it)"."""
    if varying.how.startswith("the loop counter") and source != varying.counter:
        return varying.how + " (an expression of it)"
    return varying.how
