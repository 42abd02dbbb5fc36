from typing import Iterator, Optional

import libcst as cst

from jitlint.jaxfacts import LAX_BODY_ARITY, LAX_CONTROL_FLOW_FUNCTION_PARAMS, LAX_OPERANDS_FROM
from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._static import static_marking, specs
from jitlint.semantic import argument_value
from jitlint.staticargs import StaticArgSpec
from jitlint.walk import source_text


class StaticArgumentOfLaxBody(Rule):
    """
    ## What it does
    Flags a jitted function with static arguments (`static_argnums` / `static_argnames`) handed
    to lax control flow as the function it runs: the body of `lax.scan`, `lax.fori_loop`,
    `lax.while_loop` or `lax.map`, or a branch of `lax.cond` / `lax.switch`, when a static
    position is one lax fills (the carry and the slice, the index and the carry, the operands:
    JAX facts `LAX_BODY_ARITY`). Through a name bound to the jitted function or the jit written
    in the call. Reported where the argument is marked static; the lax call is the evidence.

    ## Why is this bad?
    lax traces the function with tracers at every argument it passes, so the static argument
    gets a tracer, which cannot be hashed. Measured on jax 0.10.2 (CPU): a scan body jitted with
    `static_argnums=1` (byol-offline 67553ff's window index), a `fori_loop` body with its index
    static, a `lax.map` function with `static_argnames`, `cond` branches and a `while_loop` body
    with their operand static all raise `ValueError: Non-hashable static arguments are not
    supported` while lax traces them (`fixtures/static/jit708_scan_body_index_static.py`).

    ## Fix safety
    Dropping the static marking lets the body take the traced value, which is what lax gives it
    anyway; if the body needs a Python value there (a slice bound, a shape), use
    `lax.dynamic_slice` or close over the value outside lax instead.
    """

    code = "JIT708"
    name = "static-argument-of-lax-body"
    summary = "a jitted function with static arguments, run by lax control flow, gets tracers there"
    severity = "error"

    INVALID = [
        """
        import functools

        import jax
        import jax.numpy as jnp


        @functools.partial(jax.jit, static_argnums=1)
        def body(total, i):
            return total + i, total

        print(jax.lax.scan(body, 0, jnp.arange(5)))
        """,
    ]
    VALID = [
        """
        import jax
        import jax.numpy as jnp


        @jax.jit
        def body(total, i):
            return total + i, total

        print(jax.lax.scan(body, 0, jnp.arange(5)))
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        applications = specs(ctx)
        by_target = {id(app.target): (app, spec) for app, spec in applications if app.target is not None}
        by_call = {id(app.call): (app, spec) for app, spec in applications if app.call is not None}
        reported: set[int] = set()
        for site in ctx.model.calls:
            qualname = ctx.model.qualified_name(site.node.func, site.frame.scope)
            if qualname not in LAX_BODY_ARITY:
                continue
            passed = _arguments_passed(site.node, qualname)
            if passed is None:
                continue
            for position, keyword in LAX_CONTROL_FLOW_FUNCTION_PARAMS[qualname]:
                value = argument_value(site.node, position, keyword)
                functions = value.elements if isinstance(value, (cst.List, cst.Tuple)) else [value] if value else []
                for function in (f.value if isinstance(f, cst.BaseElement) else f for f in functions):
                    found = _jitted(ctx, function, site.frame.scope, by_target, by_call)
                    if found is None:
                        continue
                    app, spec = found
                    static = sorted(p for p in spec.static_positions(passed, True) if 0 <= p < passed)
                    if not static or id(app) in reported:
                        continue
                    reported.add(id(app))
                    names = [spec.positional[p] if p < len(spec.positional) else str(p) for p in static]
                    lax = qualname.replace("jax.lax.", "lax.")
                    yield Violation(static_marking(app), (
                        f"`{spec.name}` marks {', '.join(f'`{n}`' for n in names)} static, but "
                        f"`{lax}` (`{source_text(site.node, 40)}`) runs it with tracers at every "
                        f"argument it passes: the static argument gets a tracer, and the trace raises "
                        f"ValueError (non-hashable static arguments); drop the static marking, or close "
                        f"over the Python value outside lax"),
                        related=((site.node, f"`{lax}` calls `{spec.name}` here"),),
                        repeated_at=site.node, runs_at_repeat=True)  # --confirm: it raises there


def _arguments_passed(call: cst.Call, qualname: str) -> Optional[int]:
    """How many arguments the lax call hands its functions (None: not known, a ``*`` spread)."""
    arity = LAX_BODY_ARITY[qualname]
    if arity is not None:
        return arity
    if any(a.star for a in call.args):
        return None
    return max(0, sum(1 for a in call.args if a.keyword is None) - LAX_OPERANDS_FROM[qualname])


def _jitted(ctx: FileContext, function: cst.BaseExpression, scope, by_target: dict,
            by_call: dict) -> Optional[tuple[object, StaticArgSpec]]:
    """The jit application (and its spec) that ``function`` is: a name bound once to a
    jitted def or to ``jax.jit(f, ...)``, or the jit written in place."""
    if isinstance(function, cst.Call):
        return by_call.get(id(function))
    if not isinstance(function, cst.Name):
        return None
    binding = ctx.model.single_binding(function.value, scope)
    if binding is None:
        return None
    if binding.kind == "def":
        return by_target.get(id(binding.node))
    value = binding.value if binding.kind == "assign" else None
    return by_call.get(id(value)) if isinstance(value, cst.Call) else None
