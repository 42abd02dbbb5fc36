"""Shared for JIT503: one jitted function called with arguments of different pytree structure.

``jax.jit`` keys its cache on the structure of ``(args, kwargs)``: the same parameter passed
positionally at one call and by keyword at another (directly, or bound by keyword in a
``functools.partial`` / ``jax.tree_util.Partial`` of the jitted function) is two structures, and
so are dicts with different key sets.  Each structure compiles once more.

Flagged, per parameter of one jitted function (across the calls of one body: a function, or
the module's top level):

* positional at one call, keyword at another (non-static parameters; a static one is part of
  the key anyway);
* dict literals (through names: the one definition reaching the read) whose key sets differ
  and neither contains the other: the same record with renamed keys.  A dict that only adds
  keys (``{"params": p}`` and ``{"params": p, "batch_stats": s}``, train and eval) is usually two
  programs by design and stays silent.

* in a loop, a dict created before it that gains a key on every iteration
  (``IterationValues.gains_keys``): unbounded, one compile per iteration.  Only calls inside
  loops ask for it.  Bounded differences (a train and an eval call, a literal warm-up
  ``range(n)`` with n <= 3) stay silent: each structure compiles once, by design.

* in a loop, an argument that is None on some iterations and an array on the others
  (``None if step == 0 else m``; ``prev = None`` before the loop, ``prev = out`` in it).

The first structure seen is the reference; each later call with another structure is flagged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import libcst as cst

from jitlint.walk import source_text as _code
from jitlint.rule import FileContext
from jitlint.rules._jitted import (
    CALLABLE_JITS, jitted_calls, jitted_def, positional_params, static_names,
)
from jitlint.jitnames import JitApplication
from jitlint.rules._context import live_applications, calling_context
from jitlint.rules._static import PARTIALS
from jitlint.semantic import CallSite, is_none
from jitlint.staticargs import spec_of
from jitlint.values import IterationValues, assigned, carried, conditional_within, names_in, origin, value_flow

MODE = {"positional": "positionally", "keyword": "by keyword"}


@dataclass(eq=False)
class StructureChurn:
    node: cst.CSTNode  # what to point at
    function: str
    param: str
    message: str


@dataclass(eq=False)
class _Passing:
    site: CallSite
    node: cst.CSTNode
    mode: str  # "positional" | "keyword"
    via_partial: bool
    value: cst.BaseExpression


def structure_churns(ctx: FileContext) -> list[StructureChurn]:
    return ctx.shared("structure-churn", _analyse)


def _analyse(ctx: FileContext) -> list[StructureChurn]:
    # Calls are compared only within one body (a function, or the module's top level): calls
    # in different functions (one test passing by keyword, another positionally) need not
    # reach the jitted function one after the other.
    passings: dict[tuple[int, str, int], list[_Passing]] = {}
    names: dict[int, str] = {}
    for app, params, name, call, site, bound in _calls(ctx):
        if calling_context(ctx).runs_traced(site.frame):
            continue  # inlined into the outer trace: no compile of its own
        spec = spec_of(app, ctx.model)
        static = static_names(spec) if spec is not None else frozenset()
        if spec is not None and (spec.filtering or not spec.checkable):
            continue
        if static is None or any(a.star for a in (*bound, *call.args)):
            continue
        names[id(app)] = name
        positional = [a for a in bound if a.keyword is None] + [a for a in call.args if a.keyword is None]
        keywords = [a for a in bound if a.keyword is not None] + [a for a in call.args if a.keyword is not None]
        for index, arg in enumerate(positional):
            if index < len(params) and params[index] not in static:
                node = call if arg in bound else arg
                passings.setdefault((id(app), params[index], _body(site)), []).append(
                    _Passing(site, node, "positional", arg in bound, arg.value))
        for arg in keywords:
            name = arg.keyword.value  # type: ignore[union-attr]
            if name in params and name not in static:
                node = call if arg in bound else arg
                passings.setdefault((id(app), name, _body(site)), []).append(
                    _Passing(site, node, "keyword", arg in bound, arg.value))
    found = []
    flagged: set[int] = set()  # one finding per call site
    for (app_id, param, _), uses in passings.items():
        for use in uses:
            churn = _growing_dict(ctx, use, names[app_id], param) or _none_or_value(ctx, use, names[app_id], param) \
                or _filtered_list(ctx, use, names[app_id], param)
            if churn is not None and id(use.site) not in flagged:
                flagged.add(id(use.site))
                found.append(churn)
    for (app_id, param, _), uses in passings.items():
        function = names[app_id]
        first = uses[0]
        for use in uses[1:]:
            if use.mode != first.mode and id(use.site) not in flagged:
                flagged.add(id(use.site))
                how = " (bound in a partial)" if use.via_partial else ""
                found.append(StructureChurn(use.node, function, param, (
                    f"`{function}` gets `{param}` {MODE[use.mode]} here{how} but {MODE[first.mode]} in an "
                    f"earlier call: args and kwargs are different pytree structures, so "
                    f"`{function}` compiles again; pass `{param}` the same way at every call")))
                break
        keys = [(use, _dict_keys(ctx, use)) for use in uses]
        reference = next(((u, k) for u, k in keys if k is not None), None)
        if reference is None:
            continue
        for use, key_set in keys:
            if key_set is None or use is reference[0] or id(use.site) in flagged:
                continue
            if not (key_set <= reference[1] or reference[1] <= key_set):
                shown = ", ".join(sorted(key_set))
                before = ", ".join(sorted(reference[1]))
                found.append(StructureChurn(use.node, function, param, (
                    f"`{function}` gets a dict with keys {{{shown}}} for `{param}` here but "
                    f"{{{before}}} in an earlier call: a new key set is a new pytree structure, "
                    f"so `{function}` compiles again; keep one key set and vary only the values")))
                flagged.add(id(use.site))
                break
    return found


def _body(site: CallSite) -> int:
    """The function or lambda whose body holds the call (0: the module's top level)."""
    return next((id(f.node) for f in site.frame if isinstance(f.node, (cst.FunctionDef, cst.Lambda))), 0)


def _growing_dict(ctx: FileContext, use: _Passing, function: str, param: str) -> Optional[StructureChurn]:
    """A dict passed in a loop that gains a key on every iteration: unbounded churn."""
    if not isinstance(use.value, cst.Name) or use.via_partial:
        return None
    loops = use.site.frame.loops_in_scope()
    if not loops:
        return None  # only calls in loops pay for the iteration facts
    values = ctx.shared("iteration-values", lambda c: IterationValues(c.model, value_flow(c)))
    for loop in loops:
        how = values.gains_keys(use.value, use.site.frame.scope, loop)
        if how is not None:
            arg = use.value.value
            return StructureChurn(use.node, function, param, (
                f"`{function}` is called in a loop with `{arg}`, a dict that gains a key on every "
                f"iteration ({how}): each new key set is a new pytree structure, so `{function}` "
                f"compiles again on every iteration; create every key "
                f"before the loop, keep a fixed set of keys, or stack the values into one array"))
    return None


def _filtered_list(ctx: FileContext, use: _Passing, function: str, param: str) -> Optional[StructureChurn]:
    """A list made empty in the calling function and filled by a loop that appends only when
    a condition holds (the ``append`` under an ``if``, or after a ``continue``), passed as it
    is: every element is a leaf, so each new length is a new pytree structure.  Only where the
    call runs again (in a loop, or in a function seen to repeat): one length is one compile."""
    if use.via_partial or not isinstance(use.value, cst.Name):
        return None
    model, flow = ctx.model, value_flow(ctx)
    scope = use.site.frame.scope
    binding = flow.single(use.value, scope)
    if binding is None or binding.kind != "assign" or binding.scope is not scope \
            or not (isinstance(binding.value, cst.List) and not binding.value.elements):
        return None
    name = use.value.value
    appends = [site for site in model.calls_named("append")
               if isinstance(site.node.func, cst.Attribute) and isinstance(site.node.func.value, cst.Name)
               and site.node.func.value.value == name and site.frame.scope is scope
               and flow.single(site.node.func.value, scope) is binding]
    loop = next((frame.node for site in appends for frame in site.frame
                 if isinstance(frame.node, cst.For) and not use.site.frame.is_inside(frame.node)
                 and _filters(site, frame.node)), None)
    if loop is None:
        return None
    function_def = use.site.frame.enclosing_function()
    if not use.site.frame.loops_in_scope() and (
            function_def is None or calling_context(ctx).repetition_evidence(function_def) is None):
        return None
    return StructureChurn(use.node, function, param, (
        f"`{function}` gets `{name}`, a Python list a loop fills only when a condition holds: jit "
        f"takes each element as a leaf, so every new length is a new pytree structure and "
        f"`{function}` compiles again; stack the items into one array padded to a fixed length "
        f"(with a mask or a count), or pass a list of fixed length"))


def _filters(append: CallSite, loop: cst.For) -> bool:
    """The ``append`` runs on only some iterations of ``loop``: under an ``if`` inside it, or
    after a ``continue`` of it."""
    for frame in append.frame:
        if frame.node is loop:
            break
        if isinstance(frame.node, cst.If):
            return True
    return any(isinstance(node, cst.Continue) for node in _own_statements(loop.body))


def _own_statements(node: cst.CSTNode):
    """The nodes of a loop body, not those of loops or functions nested in it (their
    ``continue`` is their own)."""
    for child in node.children:
        if isinstance(child, (cst.For, cst.While, cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            continue
        yield child
        yield from _own_statements(child)


def _none_or_value(ctx: FileContext, use: _Passing, function: str, param: str) -> Optional[StructureChurn]:
    """In a loop, an argument that is None on some iterations and a value on the others:
    ``None if step == 0 else mask`` (a test that changes in the loop), or a name that starts as
    None before the loop and is set to a value in it (``prev = None`` ... ``prev = out``).
    None is an empty pytree, an array a leaf: two structures, two compiles."""
    if use.via_partial:
        return None
    flow = value_flow(ctx)
    scope = use.site.frame.scope
    for loop in use.site.frame.loops_in_scope():
        how = _alternates_with_none(flow, use.value, scope, loop, 0)
        if how is not None:
            return StructureChurn(use.node, function, param, (
                f"`{function}` is called in a loop with `{_code(use.value)}`"
                f"{'' if _code(use.value) == param else f' for `{param}`'}, {how}: "
                f"None is an empty pytree and an array a leaf, two structures, so `{function}` "
                f"compiles twice; pass an array every time (a neutral one: jnp.ones(...) for a "
                f"mask, zeros for a state) or call two functions, one without the argument"))
    return None


def _alternates_with_none(flow, expr: cst.BaseExpression, scope, loop, depth: int) -> Optional[str]:
    if isinstance(expr, cst.IfExp):
        branches = [is_none(expr.body), is_none(expr.orelse)]
        if sum(branches) == 1 and any(
                b.frame is not None and b.frame.is_inside(loop) or b.node is loop
                for n in names_in(expr.test) for b in flow.reaching(n, scope)):
            return "None on some iterations and a value on the others"
        return None
    if not isinstance(expr, cst.Name) or depth > 2:
        return None
    reaching = flow.reaching(expr, scope)
    if len(reaching) == 1 and reaching[0].frame is not None and reaching[0].frame.is_inside(loop):
        value = assigned(reaching[0]).value  # ``mask = None if ... else ...`` in the loop
        if value is not None and not is_none(value):
            return _alternates_with_none(flow, value, reaching[0].scope, loop, depth + 1)
    values = [(b, assigned(b).value) for b in carried(flow, reaching, expr.value)]
    if any(v is None or isinstance(v, cst.IfExp) for _, v in values):
        return None  # not a plain value everywhere: not followed
    before = [v for b, v in values if not (b.frame is not None and b.frame.is_inside(loop))]
    inside = [(b, v) for b, v in values if b.frame is not None and b.frame.is_inside(loop)]
    if before and inside and all(is_none(v) for v in before) \
            and not any(is_none(v) for _, v in inside) \
            and not any(conditional_within(b, loop) for b, _ in inside):
        return f"None before the loop and `{_code(inside[0][1])}` after the first iteration"
    return None


def _dict_keys(ctx: FileContext, use: _Passing) -> Optional[frozenset[str]]:
    made = origin(value_flow(ctx), use.value, use.site.frame.scope, use.site.frame)
    if made is None or not isinstance(made[0], cst.Dict):
        return None
    keys = set()
    for element in made[0].elements:
        if not isinstance(element, cst.DictElement) or not isinstance(element.key, cst.SimpleString):
            return None
        keys.add(str(element.key.evaluated_value))
    return frozenset(keys)


def _calls(ctx: FileContext):
    """(application, the names of the parameters the call's positional arguments bind, the
    callee's name, call, site, arguments bound by a partial)."""
    model = ctx.model
    if not live_applications(ctx):
        return
    for jc in jitted_calls(ctx):
        if jc.func is not None and jc.app.jit.qualname in CALLABLE_JITS:
            yield jc.app, [p.name.value for p in jc.params()], jc.name, jc.call, model.call_site_of[jc.call], ()
    flow = value_flow(ctx)
    for site in model.calls:
        func = site.node.func
        if not isinstance(func, cst.Name):
            continue
        made = origin(flow, func, site.frame.scope, site.frame)
        if made is None or not isinstance(made[0], cst.Call) or not made[0].args:
            continue
        partial = made[0]
        if model.qualified_name(partial.func, made[1]) not in PARTIALS:
            continue
        target = partial.args[0].value
        found = _jitted_target(ctx, target, made[1])
        if found is not None:
            yield found[0], [p.name.value for p in positional_params(found[1])], found[1].name.value, site.node, \
                site, tuple(partial.args[1:])


def _jitted_target(ctx: FileContext, target: cst.BaseExpression, scope) -> Optional[tuple[JitApplication, cst.FunctionDef]]:
    if not isinstance(target, cst.Name):
        return None
    binding = value_flow(ctx).single(target, scope)
    if binding is None:
        return None
    for app in live_applications(ctx):
        if app.jit.qualname not in CALLABLE_JITS:
            continue
        if binding.kind == "def" and app.target is binding.node:
            func = jitted_def(app, ctx.model)
            return (app, func) if func is not None else None
        if binding.kind == "assign" and app.call is not None and app.call is binding.value:
            func = jitted_def(app, ctx.model)
            return (app, func) if func is not None else None
    return None
