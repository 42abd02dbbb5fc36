"""Shared analysis for the static specs of transforms other than jax.jit (JIT702, JIT704):
``jax.checkpoint`` / ``jax.remat``, ``nnx.remat`` and flax.linen's lifted ``nn.remat`` /
``nn.checkpoint`` / ``nn.jit`` (``jaxfacts.STATIC_SPEC_TRANSFORMS``, where the positions and
whether a Module's ``self`` counts as argument 0 are data).

``lifted_specs(ctx)`` finds each such call with a literal ``static_argnums``, in the call form
(``MLP = nn.remat(MLP, static_argnums=(2,))``, ``jax.checkpoint(f, static_argnums=1)``) and the
decorator form (``@partial(nn.remat, static_argnums=(2,))`` over a method), and the function
whose parameters the positions count: the def, or a linen Module class's ``__call__`` with
``self`` first.  ``nondiff_specs(ctx)`` finds the ``jax.custom_vjp`` specs the same way
(``jaxfacts.NONDIFF_SPEC_TRANSFORMS``: positions whose arguments may not be tracers), with
``nondiff_argnames`` turned into positions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import libcst as cst

from jitlint.jaxfacts import NONDIFF_SPEC_TRANSFORMS, STATIC_SPEC_TRANSFORMS, NondiffSpecTransform, StaticSpecTransform
from jitlint.rule import FileContext
from jitlint.rules._context import class_methods
from jitlint.rules._jitted import positional_params
from jitlint.semantic import Scope, SemanticModel
from jitlint.staticargs import literal

PARTIALS = frozenset({"functools.partial"})


@dataclass(eq=False)
class LiftedSpec:
    call: cst.Call  # the transform's call (in a decorator: the partial)
    qualname: str
    fact: StaticSpecTransform | NondiffSpecTransform
    keyword: cst.Arg  # static_argnums=... (nondiff_argnames=...: its names' positions are ``nums``)
    nums: tuple[int, ...]
    func: cst.FunctionDef  # whose parameters the positions count
    params: tuple[str, ...]  # positional, ``self`` included where it counts
    skipped: int  # leading parameters that are not arguments of the transformed call (self)
    owner: str  # how messages name the function: ``MLP.__call__``, ``f``

    @property
    def short(self) -> str:
        return self.qualname.replace("flax.linen.", "nn.").replace("flax.nnx.", "nnx.")

    def named(self) -> str:
        counted = " (it counts the Module, `self`, as argument 0)" if self.fact.self_counted else ""
        return f"static_argnums={_show(self.nums)} of `{self.short}`{counted}"


def _show(nums: tuple[int, ...]) -> str:
    return f"({nums[0]},)" if len(nums) == 1 else str(tuple(nums))


def lifted_specs(ctx: FileContext) -> list[LiftedSpec]:
    return ctx.shared("lifted-specs", lambda c: _compute(c, STATIC_SPEC_TRANSFORMS))


def nondiff_specs(ctx: FileContext) -> list[LiftedSpec]:
    return ctx.shared("nondiff-specs", lambda c: _compute(c, NONDIFF_SPEC_TRANSFORMS))


def nondiff_spec_of(ctx: FileContext, func: cst.BaseExpression, scope: Scope) -> Optional[LiftedSpec]:
    """The custom_vjp spec of the function ``func`` names: a def decorated with it, or a name
    assigned its call (``f = jax.custom_vjp(_f, nondiff_argnums=(0,))``)."""
    specs = nondiff_specs(ctx)
    if not specs or not isinstance(func, cst.Name):
        return None
    binding = ctx.model.single_binding(func.value, scope)
    if binding is None:
        return None
    for spec in specs:
        if binding.kind == "def" and binding.node is spec.func and any(
                d.decorator is spec.call for d in spec.func.decorators):
            return spec
        if binding.kind == "assign" and binding.value is spec.call:
            return spec
    return None


def static_positions(model: SemanticModel, call: cst.Call, scope: Scope) -> Optional[frozenset[int]]:
    """The static positions a STATIC_SPEC_TRANSFORMS call gives (empty: none; None: unreadable)."""
    qualname = model.qualified_name(call.func, scope)
    fact = STATIC_SPEC_TRANSFORMS.get(qualname or "")
    if fact is None:
        return frozenset()
    arg = next((a for a in call.args if a.keyword is not None and a.keyword.value == fact.keyword), None)
    if arg is None:
        return frozenset()
    nums = literal(arg.value, scope, model, ints=True)
    return frozenset(nums) if nums is not None else None


def _compute(ctx: FileContext, table: dict) -> list[LiftedSpec]:
    model = ctx.model
    last_names = {name.rpartition(".")[2] for name in table}
    found = []
    for site in model.calls:
        call, scope = site.node, site.frame.scope
        func = call.func
        last = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", None)
        decorated = None
        if last == "partial" and model.qualified_name(func, scope) in PARTIALS and call.args \
                and call.args[0].keyword is None:
            # @partial(nn.remat, static_argnums=(2,)) over a def
            transform = call.args[0].value
            decorated = _decorated_by(scope.node, call)
            if decorated is None:
                continue
            qualname = model.qualified_name(transform, scope)
        elif last in last_names:
            qualname = model.qualified_name(func, scope)
        else:
            continue
        fact = table.get(qualname or "")
        if fact is None or any(a.star for a in call.args):
            continue
        names_keyword = getattr(fact, "names_keyword", None)
        arg = next((a for a in call.args if a.keyword is not None
                    and a.keyword.value in (fact.keyword, names_keyword)), None)
        named = arg is not None and arg.keyword.value == names_keyword
        nums = literal(arg.value, scope, model, ints=not named) if arg is not None else None
        if not nums:
            continue
        target = _target(ctx, call, fact, scope, decorated)
        if target is None:
            continue
        function, owner, with_self = target
        params = tuple(p.name.value for p in positional_params(function))
        if named:  # nondiff_argnames: the positions of those parameters
            nums = [params.index(name) for name in nums if name in params]
            if not nums:
                continue
        if isinstance(function.params.star_arg, cst.Param):
            continue  # *args: any position may exist
        if with_self and not fact.self_counted:
            continue  # jax.checkpoint of a method: how self is bound is unknown here
        found.append(LiftedSpec(call, qualname, fact, arg, tuple(nums), function, params,  # type: ignore[arg-type]
                                1 if with_self else 0, owner))
    return found


def _decorated_by(holder: cst.CSTNode, call: cst.Call) -> Optional[cst.FunctionDef]:
    """The def in ``holder``'s body (a module, class or def) that ``call`` decorates."""
    body = getattr(getattr(holder, "body", None), "body", getattr(holder, "body", ()))
    for statement in body if isinstance(body, (list, tuple)) else ():
        if isinstance(statement, cst.FunctionDef) and any(d.decorator is call for d in statement.decorators):
            return statement
    return None


def _target(ctx: FileContext, call: cst.Call, fact: StaticSpecTransform | NondiffSpecTransform, scope: Scope,
            decorated: Optional[cst.FunctionDef]) -> Optional[tuple[cst.FunctionDef, str, bool]]:
    """(the def whose parameters count, its name, whether ``self`` is its first parameter)."""
    model = ctx.model
    if decorated is not None:
        frame = model.functions.get(decorated)
        in_class = frame is not None and frame.scope.kind == "class"
        owner = f"{frame.scope.node.name.value}.{decorated.name.value}" if in_class else decorated.name.value
        return decorated, owner, in_class and bool(positional_params(decorated))
    position, keyword = fact.fun
    positional = [a for a in call.args if a.keyword is None]
    value = positional[position].value if position < len(positional) else next(
        (a.value for a in call.args if a.keyword is not None and a.keyword.value == keyword), None)
    if not isinstance(value, cst.Name):
        return None
    binding = model.single_binding(value.value, scope) or next(
        (b for b in model.lookup(value.value, scope) if b.kind in ("def", "class")), None)
    if binding is None:
        return None
    if binding.kind == "def" and isinstance(binding.node, cst.FunctionDef) and binding.scope.kind != "class":
        return binding.node, binding.node.name.value, False
    if binding.kind == "class" and isinstance(binding.node, cst.ClassDef) and fact.self_counted:
        method = class_methods(binding.node).get("__call__")
        if method is not None and positional_params(method):
            return method, f"{binding.node.name.value}.__call__", True
    return None
