from __future__ import annotations

from typing import Iterator, Optional

import libcst as cst

from jitlint.jaxfacts import LAX_CONTROL_FLOW_FUNCTION_PARAMS
from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._feedback import dtype_category
from jitlint.rules._traced import _src, function_value
from jitlint.semantic import Scope, argument_value
from jitlint.walk import own_nodes

# the lax calls whose functions must all return the same types, and where they are given
BRANCHING_CALLS = ("jax.lax.cond", "jax.lax.switch")


class LaxBranchDtypeMismatch(Rule):
    """
    ## What it does
    Flags a `lax.cond` or `lax.switch` whose branches return values of different dtype
    categories (bool, int, float): each branch's returned value is a literal, a comparison, a
    value with an explicit dtype (`jnp.int32(r)`, `.astype(jnp.float32)`), arithmetic with a
    float or a true division (a float, whatever the operands), or a name bound once to one;
    the branches are lambdas and defs of the module (`lax.switch`'s given as a list). A value
    whose dtype is not known (an operand of the branch, a library call's result) is left alone.

    ## Why is this bad?
    `lax.cond` and `lax.switch` trace every branch and require their outputs to have the same
    types. Measured on jax 0.10.2 (CPU): a float32 branch against an int32 one (gymnax edaf650's
    discounted reward against `jnp.int32(normal_reward)`), a Python float or int against an
    array of the other category, and a bool against an int all raise `TypeError: true_fun and
    false_fun output must have identical types`, eagerly and under jit. Weak and strong values
    of one category (`0` against an int32) are promoted and work
    (`fixtures/trace_errors/lax_cond_branch_dtypes*.py`).

    ## Fix safety
    Give every branch the same dtype: cast the odd one (`jnp.float32(normal_reward)`), or compute
    both and select with `jnp.where(pred, a, b)`, which promotes. A cast changes the values'
    type downstream: check what reads the result.
    """

    code = "JIT815"
    name = "lax-branch-dtype-mismatch"
    summary = "lax.cond/switch branches that return different dtypes raise TypeError when traced"
    prefilter_names = frozenset(BRANCHING_CALLS)
    severity = "error"

    INVALID = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def reward(done, distance):
            return jax.lax.cond(done, lambda: distance / 10.0, lambda: jnp.int32(0))
        """,
    ]
    VALID = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def reward(done, distance):
            return jax.lax.cond(done, lambda: distance / 10.0, lambda: jnp.float32(0))
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        model = ctx.model
        for site in model.calls:
            scope = site.frame.scope
            qualname = model.qualified_name(site.node.func, scope) or ""
            if qualname not in BRANCHING_CALLS:
                continue
            branches = [b for param in LAX_CONTROL_FLOW_FUNCTION_PARAMS[qualname]
                        for b in _branches(argument_value(site.node, *param))]
            categories = [(branch, _returned_category(ctx, branch, scope)) for branch in branches]
            known = [(branch, category) for branch, category in categories if category is not None]
            if len({category for _, category in known}) < 2:
                continue
            (first, one), (other, two) = known[0], next(k for k in known if k[1] != known[0][1])
            short = qualname.replace("jax.lax.", "lax.")
            yield Violation(site.node, (
                f"`{short}`'s branches return different dtypes (`{_src(_shown(first))}` is {_a(one)}, "
                f"`{_src(_shown(other))}` {_a(two)}): lax requires identical output types, so tracing "
                f"raises TypeError; cast one branch to the other's dtype, or compute both and use "
                f"jnp.where"), related=((other, "the branch of the other dtype"),))


def _branches(expr: Optional[cst.BaseExpression]) -> list[cst.BaseExpression]:
    if isinstance(expr, (cst.List, cst.Tuple)):
        return [e.value for e in expr.elements if not isinstance(e, cst.StarredElement)]
    return [expr] if expr is not None else []


def _returned_category(ctx: FileContext, branch: cst.BaseExpression, scope: Scope) -> Optional[str]:
    """The dtype category every return of the branch function has, when known."""
    function = function_value(ctx.model, branch, scope)
    if isinstance(function, cst.Lambda):
        # a lambda without parameters closes over the caller's values: read them there
        inner = scope if not function.params.params else ctx.model.scope_of.get(function, scope)
        return dtype_category(ctx, function.body, inner)
    if isinstance(function, cst.FunctionDef):
        inner = ctx.model.scope_of.get(function)
        returned = [n.value for n in own_nodes(function.body) if isinstance(n, cst.Return)]
        if inner is None or not returned or any(v is None for v in returned):
            return None
        found = {dtype_category(ctx, value, inner) for value in returned}
        return found.pop() if len(found) == 1 else None
    return None


def _shown(branch: cst.BaseExpression) -> cst.BaseExpression:
    return branch.body if isinstance(branch, cst.Lambda) else branch


def _a(category: str) -> str:
    return {"bool": "a bool", "int": "an int", "float": "a float"}[category]
