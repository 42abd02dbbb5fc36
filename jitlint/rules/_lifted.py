"""Shared analysis for the argument specs of transforms other than jax.jit (JIT702, JIT704,
JIT705): ``jax.checkpoint`` / ``jax.remat``, ``jax.pmap``, ``nnx.remat`` and flax.linen's lifted
``nn.remat`` / ``nn.checkpoint`` / ``nn.jit`` (``jaxfacts.STATIC_SPEC_TRANSFORMS``, where the positions and
whether a Module's ``self`` counts as argument 0 are data).

``lifted_specs(ctx)`` finds each such call with a literal ``static_argnums``, in the call form
(``MLP = nn.remat(MLP, static_argnums=(2,))``, ``jax.checkpoint(f, static_argnums=1)``) and the
decorator form (``@partial(nn.remat, static_argnums=(2,))`` over a method), and the function
whose parameters the positions count: the def, or a linen Module class's ``__call__`` with
``self`` first.  ``nondiff_specs(ctx)`` finds the ``jax.custom_vjp`` specs the same way
(``jaxfacts.NONDIFF_SPEC_TRANSFORMS``: positions whose arguments may not be tracers), with
``nondiff_argnames`` turned into positions.  ``axes_specs(ctx)`` finds the literal ``in_axes``
tuples of the transforms that return the wrapped function (``jax.vmap``, ``jax.pmap``,
``nnx.vmap``: JIT705); ``transformed_calls`` finds the calls of what such a transform returns.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import libcst as cst

from jitlint.jaxfacts import (NONDIFF_SPEC_TRANSFORMS, STATIC_SPEC_TRANSFORMS, TRACING_CALLS, NondiffSpecTransform,
                              StaticSpecTransform)
from jitlint.jitnames import JIT_FUNCTIONS
from jitlint.rule import FileContext
from jitlint.rules._context import class_methods
from jitlint.rules._jitted import positional_params
from jitlint.semantic import CallSite, Scope, SemanticModel
from jitlint.staticargs import literal
from jitlint.values import value_flow

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
        return f"{self.fact.keyword}={_show(self.nums)} of `{self.short}`{counted}"


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


# ---------------------------------------------------------------------------- in_axes of wrapping transforms
@dataclass(eq=False)
class AxesSpec:
    """A literal ``in_axes`` tuple given to a transform that returns the wrapped function
    (``jaxfacts.TRACING_CALLS`` entries with ``wraps`` and ``in_axes``: ``jax.vmap``,
    ``jax.pmap``, ``nnx.vmap``), and the calls of what it returns."""

    call: cst.Call  # the transform's call (in a decorator: the partial)
    qualname: str
    axes: cst.Tuple | cst.List  # the in_axes display
    keyword: cst.CSTNode  # the argument that gives in_axes (where a finding points)
    static: frozenset[int]  # pmap's static_broadcasted_argnums
    owner: str  # how messages name the function
    calls: list[CallSite]
    keywords_take_axes: bool  # jaxfacts.TracingCall.keywords_take_axes

    @property
    def short(self) -> str:
        return self.qualname.replace("flax.nnx.", "nnx.")


def axes_specs(ctx: FileContext) -> list[AxesSpec]:
    return ctx.shared("axes-specs", _axes_specs)


def _axes_specs(ctx: FileContext) -> list[AxesSpec]:
    model = ctx.model
    wrapping = {q: f for q, f in TRACING_CALLS.items() if f.wraps and f.in_axes is not None}
    last_names = {q.rpartition(".")[2] for q in wrapping}
    found = []
    for site in model.calls:
        call, scope = site.node, site.frame.scope
        func = call.func
        last = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", None)
        decorated, args = None, call.args
        if last == "partial" and model.qualified_name(func, scope) in PARTIALS and call.args \
                and call.args[0].keyword is None:
            decorated = _decorated_by(scope.node, call)  # @partial(jax.vmap, in_axes=(0, None))
            if decorated is None:
                continue
            qualname, args = model.qualified_name(call.args[0].value, scope), call.args[1:]
        elif last in last_names:
            qualname = model.qualified_name(func, scope)
        else:
            continue
        fact = wrapping.get(qualname or "")
        if fact is None or any(a.star for a in args):
            continue
        position, keyword = fact.in_axes
        positional = [a for a in args if a.keyword is None]
        given = next((a for a in args if a.keyword is not None and a.keyword.value == keyword), None) or (
            positional[position] if decorated is None and position < len(positional) else None)
        axes = _display(ctx, given.value, scope) if given is not None else None
        if axes is None:
            continue
        static: frozenset[int] = frozenset()
        spec = STATIC_SPEC_TRANSFORMS.get(qualname or "")
        if spec is not None:
            nums_arg = next((a for a in args if a.keyword is not None and a.keyword.value == spec.keyword), None)
            nums = literal(nums_arg.value, scope, model, ints=True) if nums_arg is not None else ()
            if nums is None:
                continue  # static positions not readable: which slots count is unknown
            static = frozenset(nums)
        if decorated is not None:
            owner = decorated.name.value
        else:
            fun = positional[0].value if positional else None
            owner = fun.value if isinstance(fun, cst.Name) else "the wrapped function"
        found.append(AxesSpec(call, qualname, axes, given, static, owner,  # type: ignore[arg-type]
                              transformed_calls(ctx, call, decorated), fact.keywords_take_axes))
    return found


def _display(ctx: FileContext, expr: cst.BaseExpression, scope: Scope) -> Optional[cst.Tuple | cst.List]:
    """A tuple or list display, written there or bound once to the name."""
    if isinstance(expr, cst.Name):
        binding = value_flow(ctx).single(expr, scope)
        expr = binding.value if binding is not None and binding.kind == "assign" else None
    if isinstance(expr, (cst.Tuple, cst.List)) and not any(isinstance(e, cst.StarredElement) for e in expr.elements):
        return expr
    return None


def transformed_calls(ctx: FileContext, call: cst.Call, decorated: Optional[cst.FunctionDef] = None
                      ) -> list[CallSite]:
    """The calls of the function a transform's ``call`` returns: called at once
    (``jax.vmap(f, ...)(x)``), through a name bound to it (``g = jax.vmap(f)``, also
    ``g = jax.jit(jax.vmap(f))``), or, for the decorator ``decorated``, through the def's name."""
    model = ctx.model
    flow = value_flow(ctx)
    outer: cst.BaseExpression = call
    for site in model.calls:  # a jit around it passes the arguments through: jax.jit(jax.vmap(f))
        if site.node.args and site.node.args[0].value is outer and site.node.args[0].keyword is None \
                and (model.qualified_name(site.node.func, site.frame.scope) or "") in JIT_FUNCTIONS:
            outer = site.node
    statement = model.parent_statement.get(outer)
    names = {t.target.value for t in getattr(statement, "targets", ()) if isinstance(t.target, cst.Name)}
    if decorated is not None:
        names = {decorated.name.value}
    found = [site for site in model.calls if site.node.func is outer]
    for site in (site for name in sorted(names) for site in model.calls_named(name)):
        if not isinstance(site.node.func, cst.Name):
            continue
        binding = flow.single(site.node.func, site.frame.scope)
        if binding is None:
            continue
        if decorated is not None and binding.node is decorated or decorated is None and binding.value is outer:
            found.append(site)
    return found
