from typing import Iterator, Optional

import libcst as cst

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._static import PYTREE_PARTIALS, jitted_callee, jitted_reference, specs
from jitlint.semantic import CallSite, Scope
from jitlint.staticargs import StaticArgSpec
from jitlint.values import origin, value_flow


class StaticArgBoundInTracedPartial(Rule):
    """
    ## What it does
    Flags a `jax.tree_util.Partial(g, p)` passed at a traced (non-static) position of a jitted
    function `f` that calls it, where `g` is itself jitted with `p`'s position (or keyword)
    static. The Partial may be built inline or bound to a name first; `f` and `g` may be
    defined in this module or imported from another linted module.

    ## Why is this bad?
    A `jax.tree_util.Partial` is a pytree whose bound arguments are leaves, so passing it
    traced makes `p` a tracer inside `f`; calling `g` there hands that tracer to a static
    parameter, which must be hashed. Measured on jax 0.10.2 (CPU): the call raises
    `ValueError: Non-hashable static arguments are not supported ... DynamicJaxprTracer`.
    The same Partial of a jitted function without static parameters works.

    ## Fix safety
    Mark the function parameter of `f` static (`static_argnames="fn"`) and pass
    `functools.partial(g, p)`: it hashes by `g` and `p`, so `f` compiles once per distinct
    function. Or pass `p` to `f` as a static argument itself. Safe: the computation is the same.
    """

    code = "JIT203"
    name = "static-arg-bound-in-traced-partial"
    summary = "a jitted function's static argument bound in a jax.tree_util.Partial passed traced to a jit raises ValueError"
    severity = "error"

    INVALID = [
        """
        from functools import partial

        import jax
        import jax.numpy as jnp
        import jax.tree_util as jtu

        @jax.jit
        def apply(x, fn):
            return fn(x)

        @partial(jax.jit, static_argnums=0)
        def tile(reps, x):
            return jnp.tile(x, reps)

        apply(jnp.arange(3), jtu.Partial(tile, 2))
        """,
    ]
    VALID = [
        """
        from functools import partial

        import jax
        import jax.numpy as jnp

        @partial(jax.jit, static_argnames="fn")
        def apply(x, fn):
            return fn(x)

        @partial(jax.jit, static_argnums=0)
        def tile(reps, x):
            return jnp.tile(x, reps)

        apply(jnp.arange(3), partial(tile, 2))
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        flow = value_flow(ctx)
        for site in ctx.model.calls:
            found = jitted_callee(ctx, site)
            if found is None:
                continue
            spec, shift = found
            if not spec.checkable or spec.filtering:
                continue
            static = spec.static_positions(len(site.node.args) + shift, exact=False)
            for index, arg in enumerate(site.node.args):
                if arg.star:
                    break
                position = index + shift if arg.keyword is None else None
                param = spec.param_at(position) if position is not None else arg.keyword.value
                if param is None or (position in static if position is not None
                                     else spec.static_keyword(param)):
                    continue
                made = origin(flow, arg.value, site.frame.scope, site.frame)
                if made is None or not isinstance(made[0], cst.Call):
                    continue
                bound = _bound_static(ctx, made[0], made[1], site)
                if bound is None or not _calls_parameter(ctx, spec, param):
                    continue
                inner, static_param = bound
                yield Violation(arg, (
                    f"`{spec.name}` takes `{param}` traced, so the jax.tree_util.Partial passed "
                    f"there has its bound arguments traced too; `{inner}` is jitted with "
                    f"`{static_param}` static, so calling it inside `{spec.name}` raises "
                    f"ValueError (non-hashable static argument: a tracer); mark `{param}` static "
                    f"in `{spec.name}` and pass functools.partial({inner}, ...), or pass "
                    f"`{static_param}` to `{spec.name}` as a static argument"),
                    related=((made[0], "the Partial binds the static argument here"),))


def _bound_static(ctx: FileContext, call: cst.Call, scope: Scope, site: CallSite) -> Optional[tuple[str, str]]:
    """(jitted function, its static parameter) when ``call`` is ``Partial(g, ...)`` binding
    a static parameter of the jitted ``g``."""
    if ctx.model.qualified_name(call.func, scope) not in PYTREE_PARTIALS or not call.args \
            or call.args[0].keyword is not None or any(a.star for a in call.args):
        return None
    inner = jitted_reference(ctx, call.args[0].value, site)
    if inner is None or not inner.checkable or inner.filtering:
        return None
    bound = [a for a in call.args[1:] if a.keyword is None]
    static = inner.static_positions(len(bound), exact=False)
    for position in range(len(bound)):
        if position in static and inner.param_at(position):
            return inner.name, inner.param_at(position)  # type: ignore[return-value]
    for arg in call.args[1:]:
        if arg.keyword is not None and arg.keyword.value in inner.effective_static()[1]:
            return inner.name, arg.keyword.value
    return None


def _calls_parameter(ctx: FileContext, jitted: StaticArgSpec, param: str) -> bool:
    """The jitted function's body calls its parameter ``param`` (only then is the bound static
    argument used); a body in another module counts as calling it."""
    for app, spec in specs(ctx):
        if spec is not jitted or not isinstance(app.target, cst.FunctionDef):
            continue
        for other in ctx.model.calls:
            if isinstance(other.node.func, cst.Name) and other.node.func.value == param \
                    and any(f.node is app.target for f in other.frame):
                return True
        return False
    return True
