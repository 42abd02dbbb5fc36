from __future__ import annotations

from typing import Iterator, Optional

import libcst as cst

from jitlint.jaxfacts import AXIS_BINDING_TRANSFORMS, AXIS_NAME_COLLECTIVES
from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._context import calling_context
from jitlint.walk import own_nodes
from jitlint.semantic import CallSite, Scope, argument_value

_ALL_TRANSFORMS = frozenset(AXIS_BINDING_TRANSFORMS)
# Wrappers that bind no axis name and trace what they wrap in place (``jax.jit(jax.pmap(f))``).
PASSING_WRAPPERS = frozenset({"jax.jit", "jax.grad", "jax.value_and_grad", "jax.checkpoint", "jax.remat"})


class UnboundAxisName(Rule):
    """
    ## What it does
    Flags a collective over a named axis (`lax.psum(x, "batch")`, `pmean`, `all_gather`,
    `axis_index`, ...: `jaxfacts.AXIS_NAME_COLLECTIVES`) in a function that `jax.pmap` or
    `jax.vmap` (also `eqx.filter_vmap` / `filter_pmap`, `nnx.vmap`:
    `jaxfacts.AXIS_BINDING_TRANSFORMS`) maps without binding that name: no `axis_name=`, or
    another one. The function is a def of the module or a lambda, given to the transform or
    decorated with it (`@partial(jax.pmap, axis_name="i")`), with its collectives in its own
    body or in a helper it calls. Only where the mapped function is called outside any other
    trace: an outer `pmap` (or `shard_map`) may bind the name, and is not guessed at.

    ## Why is this bad?
    A collective reduces over the mapped axis its name refers to; the name exists only inside a
    transform that binds it. Measured on jax 0.10.2 (CPU): `jax.pmap(f)(x)` for an `f` that
    calls `lax.psum(x, axis_name="batch")` raises `NameError: Found an unbound axis name:
    batch` while tracing (jax#3120), as does `jax.vmap(f, axis_name="i")` over it, for every
    collective of the table; `jax.pmap(f, axis_name="batch")` runs, and so does `jax.pmap(
    jax.vmap(f), axis_name="batch")`: the outer map binds it.

    ## Fix safety
    Passing `axis_name=` to the transform changes nothing else; make sure it is the axis the
    collective should reduce over (with nested maps, the outer or the inner one).
    """

    code = "JIT814"
    name = "unbound-axis-name"
    summary = "a collective over an axis name that the pmap or vmap mapping it does not bind raises NameError"
    prefilter_names = frozenset(AXIS_NAME_COLLECTIVES)
    severity = "error"

    INVALID = [
        """
        import jax
        import numpy as np

        def normalise(x):
            return x / jax.lax.psum(x, axis_name="batch")

        print(jax.pmap(normalise)(np.ones((1, 3))))
        """,
    ]
    VALID = [
        """
        import jax
        import numpy as np

        def normalise(x):
            return x / jax.lax.psum(x, axis_name="batch")

        print(jax.pmap(normalise, axis_name="batch")(np.ones((1, 3))))
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        for transform, function, bound, where in _mapped_functions(ctx):
            for collective, axis, names, owner in _collectives(ctx, function):
                unbound = [name for name in names if name not in bound]
                if not unbound:
                    continue
                given = f"binds `{sorted(bound)[0]}`" if bound else "binds no axis name (no `axis_name=`)"
                where_in = f"`{_name(owner)}`" if owner is function else \
                    f"`{_name(owner)}` (called from `{_name(function)}`)"
                yield Violation(axis, (
                    f"`{collective}` over axis `{unbound[0]}` in {where_in}, which `{transform}` maps "
                    f"but {given}: tracing raises NameError (unbound axis name: {unbound[0]}); pass "
                    f"`axis_name='{unbound[0]}'` to `{transform}`"), related=((where, f"`{transform}` maps it here"),))


def _mapped_functions(ctx: FileContext) -> Iterator[tuple[str, cst.CSTNode, frozenset[str], cst.CSTNode]]:
    """(transform, the def or lambda it maps, the axis names it binds, where) for each mapping
    whose result runs only outside other traces."""
    model, context = ctx.model, calling_context(ctx)
    wrapped_by = {site.node.args[0].value: site for site in model.calls
                  if site.node.args and isinstance(site.node.args[0].value, cst.Call)}
    for site in model.calls:
        qualname = model.qualified_name(site.node.func, site.frame.scope)
        if qualname not in AXIS_BINDING_TRANSFORMS or context.runs_traced(site.frame):
            continue
        bound = _bound_names(site.node, qualname, site.frame.scope)
        outer = wrapped_by.get(site.node)
        while bound is not None and outer is not None:  # ``jax.pmap(jax.vmap(f), axis_name="i")``
            wrapper = model.qualified_name(outer.node.func, outer.frame.scope)
            if wrapper in AXIS_BINDING_TRANSFORMS:
                more = _bound_names(outer.node, wrapper, outer.frame.scope)
                bound = bound | more if more is not None else None
            elif wrapper not in PASSING_WRAPPERS:
                bound = None  # a wrapper that may bind names, or run it under another trace
            outer = wrapped_by.get(outer.node)
        calls = context.result_calls(site, _ALL_TRANSFORMS)
        function = _mapped(ctx, argument_value(site.node, 0, "fun", "f"), site.frame.scope)
        if bound is None or function is None or not calls or any(context.runs_traced(c.frame) for c in calls):
            continue
        yield qualname.replace("equinox.", "eqx.").replace("flax.nnx.", "nnx."), function, bound, site.node
    for function, frame in model.functions.items():
        if len(function.decorators) != 1:
            continue
        decorator = function.decorators[0].decorator
        call = decorator if isinstance(decorator, cst.Call) else cst.Call(func=decorator)
        qualname = model.qualified_name(call.func, frame.scope)
        if qualname == "functools.partial" and call.args and call.args[0].keyword is None:
            # ``@partial(jax.pmap, axis_name="i")``: the transform with those keywords
            qualname = model.qualified_name(call.args[0].value, frame.scope)
            call = cst.Call(func=call.args[0].value, args=[cst.Arg(function.name), *call.args[1:]])
        elif isinstance(decorator, cst.Call):
            continue  # ``@jax.pmap(...)``? not a decorator form JAX has
        if qualname not in AXIS_BINDING_TRANSFORMS:
            continue
        bound = _bound_names(call, qualname, frame.scope)
        calls = context.call_sites(function)
        if bound is None or not calls or any(context.runs_traced(c.frame) for c in calls):
            continue
        yield qualname.replace("equinox.", "eqx.").replace("flax.nnx.", "nnx."), function, bound, decorator


def _bound_names(call: cst.Call, qualname: str, scope: Scope) -> Optional[frozenset[str]]:
    """The axis names ``call`` binds (empty: none); None when it names them by a value this
    file does not show."""
    value = argument_value(call, *AXIS_BINDING_TRANSFORMS[qualname])
    if value is None or isinstance(value, cst.Name) and value.value == "None":
        return frozenset()
    names = _literal_names(value)
    return frozenset(names) if names is not None else None


def _literal_names(value: cst.BaseExpression) -> Optional[list[str]]:
    """``"batch"`` or ``("i", "j")`` as written; None for anything else."""
    if isinstance(value, cst.SimpleString):
        return [value.evaluated_value] if isinstance(value.evaluated_value, str) else None
    if isinstance(value, cst.Tuple) and value.elements:
        names = [_literal_names(e.value) for e in value.elements]
        return [n for part in names for n in part] if all(part is not None for part in names) else None  # type: ignore[union-attr]
    return None


def _mapped(ctx: FileContext, value: Optional[cst.BaseExpression], scope: Scope) -> Optional[cst.CSTNode]:
    """The lambda, or the def of this module, that ``value`` names."""
    if isinstance(value, cst.Lambda):
        return value
    if isinstance(value, cst.Name):
        binding = ctx.model.single_binding(value.value, scope)
        if binding is not None and binding.kind == "def" and isinstance(binding.node, cst.FunctionDef) \
                and not binding.node.decorators:
            return binding.node
    return None


def _collectives(ctx: FileContext, function: cst.CSTNode, depth: int = 0
                 ) -> Iterator[tuple[str, cst.BaseExpression, list[str], cst.CSTNode]]:
    """(collective, its axis argument, the names it reduces over, the function it is in) in
    ``function``'s own body and in the module's defs it calls (not in functions it defines:
    another map may bind theirs)."""
    model = ctx.model
    body = function.body  # type: ignore[attr-defined]
    for node in (body, *own_nodes(body)):
        if not isinstance(node, cst.Call):
            continue
        site: Optional[CallSite] = model.call_site_of.get(node)
        if site is None:
            continue
        qualname = model.qualified_name(node.func, site.frame.scope)
        if qualname in AXIS_NAME_COLLECTIVES:
            axis = argument_value(node, *AXIS_NAME_COLLECTIVES[qualname])
            names = _literal_names(axis) if axis is not None else None
            if names:
                yield qualname.replace("jax.lax.", "lax."), axis, names, function  # type: ignore[misc]
        elif depth < 2:
            callee = calling_context(ctx).callee(node, site.frame.scope)
            if callee is not None and callee is not function and not callee.decorators:
                yield from _collectives(ctx, callee, depth + 1)


def _name(function: cst.CSTNode) -> str:
    return function.name.value if isinstance(function, cst.FunctionDef) else "<lambda>"
