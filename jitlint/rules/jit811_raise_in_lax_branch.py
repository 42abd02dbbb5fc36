from __future__ import annotations

from typing import Iterator, Optional

import libcst as cst

from jitlint.jaxfacts import LAX_CONTROL_FLOW_FUNCTION_PARAMS
from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._context import PARTIAL_CONSTRUCTORS, bound_method_target
from jitlint.rules._traced import _src, function_value
from jitlint.semantic import Scope, SemanticModel, argument_value
MAX_HELPER_DEPTH = 3  # helpers followed from a branch: ``lambda _: raise_error()`` and its callees


class RaiseInLaxBranch(Rule):
    """
    ## What it does
    Flags a Python `raise` that a function given to `lax.cond`, `lax.switch`, `lax.while_loop`,
    `lax.fori_loop`, `lax.scan` or `lax.map` reaches unconditionally: at the top of its body, or
    in a helper it calls there (`true_fun=lambda _: raise_error()`); the functions are the
    parameters `jitlint/jaxfacts.py: LAX_CONTROL_FLOW_FUNCTION_PARAMS` names, given as lambdas,
    defs of the module or `functools.partial` of them. A `raise` under an `if` or inside a `try`
    is left alone (it may depend on a static value), and so is a bare `raise`.

    ## Why is this bad?
    lax control flow traces every function it is given, whatever the predicate, the index or
    the trip count, eagerly as well as under jit: a `raise` reached while tracing raises on every
    call. Measured on jax 0.10.2 (CPU): `lax.cond(False, raise_error, keep, x)`,
    `lax.switch(0, [keep, raise_error], x)`, a `lax.while_loop` whose condition is false at the
    start, and the same under `jax.jit` and `jax.vmap` all raise the branch's error (jax#4257;
    `fixtures/trace_errors/`). A branch cannot report a run-time condition by raising.

    ## Fix safety
    Check the condition at run time with `jax.experimental.checkify.check` (functionalize the
    jitted function with `checkify.checkify`) or `eqx.error_if(x, pred, msg)`, or raise outside
    the traced code on a concrete value. Returning a sentinel (NaN, -1) from the branch and
    testing it after the call also works.
    """

    code = "JIT811"
    name = "raise-in-lax-branch"
    summary = "a raise in a lax.cond/switch/loop function runs at trace time, whatever the predicate: it always raises"
    prefilter_names = frozenset(LAX_CONTROL_FLOW_FUNCTION_PARAMS)
    severity = "error"

    INVALID = [
        """
        import jax

        def check_positive(x):
            raise ValueError("x must be positive")

        @jax.jit
        def safe_log(x):
            return jax.lax.cond(x > 0, jax.numpy.log, check_positive, x)
        """,
    ]
    VALID = [
        """
        import jax
        from jax.experimental import checkify

        def safe_log(x):
            checkify.check(x > 0, "x must be positive, got {x}", x=x)
            return jax.numpy.log(x)

        checked_log = jax.jit(checkify.checkify(safe_log))
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        model = ctx.model
        reported: set[int] = set()  # a helper's raise reached from several lax calls: once
        for site in model.calls:
            scope = site.frame.scope
            qualname = model.qualified_name(site.node.func, scope) or ""
            params = LAX_CONTROL_FLOW_FUNCTION_PARAMS.get(qualname)
            if params is None:
                continue
            short = qualname.replace("jax.lax.", "lax.")
            for param in params:
                for function in _functions(ctx, argument_value(site.node, *param), scope):
                    found = _unconditional_raise(model, function)
                    if found is None or id(found[0]) in reported:
                        continue
                    reported.add(id(found[0]))
                    raise_node, helper = found
                    exc = raise_node.exc
                    error = _src(exc.func if isinstance(exc, cst.Call) else exc)
                    via = f" (in `{helper}`)" if helper else ""
                    yield Violation(raise_node, (
                        f"`{short}` traces its `{param[1]}` whatever the predicate, index or trip "
                        f"count, so this raise{via} runs at trace time and every `{short}` call "
                        f"raises {error}; check at run time with checkify.check or eqx.error_if, "
                        f"or raise outside on a concrete value"),
                        related=((site.node, f"the `{short}` call"),))


def _functions(ctx: FileContext, expr: Optional[cst.BaseExpression], scope: Scope) -> list:
    """The defs and lambdas of this module ``expr`` gives as functions: itself, the elements of
    a list or tuple (``lax.switch``'s branches), the function of a ``functools.partial``, a
    bound method of an instance of a class of this module (``self.unknown``)."""
    model = ctx.model
    if expr is None:
        return []
    if isinstance(expr, (cst.List, cst.Tuple)):
        return [f for element in expr.elements for f in _functions(ctx, element.value, scope)]
    if isinstance(expr, cst.Call) and expr.args and expr.args[0].keyword is None \
            and model.qualified_name(expr.func, scope) in PARTIAL_CONSTRUCTORS:
        expr = expr.args[0].value
    function = function_value(model, expr, scope) or bound_method_target(ctx, expr, scope)
    return [function] if function is not None else []


def _unconditional_raise(model: SemanticModel, function, depth: int = 0
                         ) -> Optional[tuple[cst.Raise, str]]:
    """(the raise, the helper it is in: "" when in ``function`` itself) that every run of
    ``function`` reaches: a raise at the top of its body (or of a ``with`` there), or in a
    helper of this module it calls there, before any branch, loop, ``try`` or return."""
    scope = model.scope_of.get(function) or model.module_scope
    if isinstance(function, cst.Lambda):
        return _raise_in_called(model, function.body, scope, depth)
    body = function.body
    lines = [body] if isinstance(body, cst.SimpleStatementSuite) else _straight_line(body.body)
    for statement in lines:
        for small in statement.body:
            if isinstance(small, cst.Raise):
                return (small, "") if small.exc is not None else None
            value = small.value if isinstance(small, (cst.Expr, cst.Return)) else None
            found = _raise_in_called(model, value, scope, depth) if value is not None else None
            if found is not None:
                return found
            if isinstance(small, cst.Return):
                return None
    return None


def _raise_in_called(model: SemanticModel, expr: Optional[cst.BaseExpression], scope: Scope, depth: int
                     ) -> Optional[tuple[cst.Raise, str]]:
    """The unconditional raise of the helper ``expr`` calls (``raise_error()``)."""
    if depth >= MAX_HELPER_DEPTH or not isinstance(expr, cst.Call):
        return None
    helper = function_value(model, expr.func, scope)
    if not isinstance(helper, cst.FunctionDef):
        return None
    found = _unconditional_raise(model, helper, depth + 1)
    if found is None:
        return None
    return found[0], found[1] or helper.name.value


def _straight_line(statements) -> Iterator[cst.SimpleStatementLine | cst.SimpleStatementSuite]:
    """The simple statements every run executes, in order, up to the first branch, loop or
    ``try`` (into ``with`` blocks; past nested defs and classes)."""
    for statement in statements:
        if isinstance(statement, cst.SimpleStatementLine):
            yield statement
        elif isinstance(statement, cst.With):
            yield from _straight_line(statement.body.body)
        elif not isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            return

