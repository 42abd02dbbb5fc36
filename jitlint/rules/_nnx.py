"""Shared for the Flax rules (JIT110, JIT610, JIT820): which values are Flax NNX objects, and
where a function updates one in place.

An NNX object (``nnx.Module``, ``nnx.Optimizer``) carries its state in ``Variable``s that
``nnx.jit`` and ``optimizer.update(model, grads)`` update in place.  A value is known to be
one when it is created by a call of a class of ``flax.nnx`` (``nnx.Linear(...)``,
``nnx.Optimizer(...)``) or of a class of this module derived from one; a parameter is known
to be one when it is annotated so, or differentiated with ``nnx.grad``/``nnx.value_and_grad``
(which only accept NNX objects and arrays), or updated by ``optimizer.update(param, grads)``
next to such a parameter.  Names are resolved through imports, never matched as text.
"""

from __future__ import annotations

from typing import Iterator, NamedTuple, Optional

import libcst as cst

from jitlint.jaxfacts import NNX_GRAPH_TRANSFORMS, NNX_MODE_LAYERS, NNX_MODE_SWITCHES, NNX_SELF_UPDATING_LAYERS, NNX_UPDATE_SWITCHES
from jitlint.rule import FileContext
from jitlint.rules._context import class_methods
from jitlint.rules._jitted import jitted_functions
from jitlint.semantic import Frame, Scope, SemanticModel, dotted_name
from jitlint.walk import children, iter_nodes, own_nodes

NNX = "flax.nnx."
LINEN = "flax.linen."
NNX_GRADS = frozenset({"flax.nnx.grad", "flax.nnx.value_and_grad"})
NNX_UPDATE = "flax.nnx.update"
NNX_JIT = "flax.nnx.jit"
# Plain JAX jits: they flatten an NNX object to arrays and rebuild a copy inside.
PLAIN_JITS = frozenset({"jax.jit", "jax.experimental.pjit.pjit"})


def is_nnx_class(expr: cst.BaseExpression, scope: Scope, model: SemanticModel) -> bool:
    """``expr`` names a class of ``flax.nnx`` (capitalised: Linear, Module, Optimizer...) or a
    class of this module with such a base."""
    return _is_class_from(expr, scope, model, NNX)


def is_linen_module_class(expr: cst.BaseExpression, scope: Scope, model: SemanticModel) -> bool:
    """``expr`` names ``flax.linen.Module`` (or a Linen layer) or a class derived from one."""
    return _is_class_from(expr, scope, model, LINEN)


def linen_self_method(func: cst.BaseExpression, scope: Scope, model: SemanticModel) -> Optional[str]:
    """``self.param`` in a method of a flax.linen Module of this module that does not define
    ``param`` itself: ``"flax.linen.Module.param"`` (the library method it calls)."""
    if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)):
        return None
    bindings = model.lookup(func.value.value, scope)
    if len(bindings) != 1 or bindings[0].kind != "param":
        return None
    method, owner = bindings[0].scope.node, bindings[0].scope.parent
    if not isinstance(method, cst.FunctionDef) or owner is None or owner.kind != "class" \
            or not isinstance(owner.node, cst.ClassDef) or owner.parent is None:
        return None
    params = [*method.params.posonly_params, *method.params.params]
    if not params or params[0].name.value != func.value.value or method.decorators and any(
            isinstance(d.decorator, cst.Name) and d.decorator.value in ("staticmethod", "classmethod")
            for d in method.decorators):
        return None
    cls = owner.node
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    if any(isinstance(stmt, cst.FunctionDef) and stmt.name.value == func.attr.value for stmt in body):
        return None
    if any(is_linen_module_class(base.value, owner.parent, model) for base in cls.bases):
        return f"flax.linen.Module.{func.attr.value}"
    return None


def _is_class_from(expr: cst.BaseExpression, scope: Scope, model: SemanticModel, package: str,
                   _depth: int = 0) -> bool:
    if _depth > 4:
        return False
    qualname = model.qualified_name(expr, scope)
    if qualname is not None:
        leaf = qualname.rsplit(".", 1)[-1]
        return qualname.startswith(package) and leaf[:1].isupper()
    if isinstance(expr, cst.Name):
        binding = model.single_binding(expr.value, scope)
        if binding is not None and binding.kind == "class" and isinstance(binding.node, cst.ClassDef):
            return any(_is_class_from(base.value, binding.scope, model, package, _depth + 1)
                       for base in binding.node.bases)
    return False


def creates_nnx_object(expr: cst.BaseExpression, scope: Scope, frame: Frame, model: SemanticModel) -> bool:
    """The value of ``expr`` is created by instantiating an NNX class."""
    origin = model.value_origin(expr, scope, frame)
    if origin is None:
        return False
    node, origin_scope, _ = origin
    return isinstance(node, cst.Call) and is_nnx_class(node.func, origin_scope, model)


def nnx_params(func: cst.FunctionDef, model: SemanticModel) -> set[str]:
    """Parameters of ``func`` known to hold NNX objects (see the module doc)."""
    scope = model.scope_of[func]
    params = _param_names(func)
    known = set()
    for param in (*func.params.posonly_params, *func.params.params, *func.params.kwonly_params):
        if param.annotation is not None and _annotation_is_nnx(param.annotation.annotation, scope, model):
            known.add(param.name.value)
    for node in own_nodes(func.body):
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Call) and node.args \
                and model.qualified_name(node.func.func, scope) in NNX_GRADS:
            first = node.args[0].value
            if isinstance(first, cst.Name) and first.value in params:
                known.add(first.value)
    return known


def _annotation_is_nnx(expr: cst.BaseExpression, scope: Scope, model: SemanticModel) -> bool:
    if isinstance(expr, cst.SimpleString):
        return False
    return is_nnx_class(expr, scope, model)


def _param_names(func: cst.FunctionDef) -> set[str]:
    params = func.params
    return {p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)}


def in_place_updates(func: cst.FunctionDef, model: SemanticModel,
                     known_from_callers: frozenset[str] = frozenset()) -> dict[str, cst.CSTNode]:
    """Parameters of ``func`` holding NNX objects that its body updates in place, each with the
    first statement or call that does: ``optimizer.update(model, grads)`` (both),
    ``nnx.update(model, state)``, ``model.count.value += 1``, ``model.w[...] = w``."""
    return _updates(func, model, _param_names(func), nnx_params(func, model) | known_from_callers)


def closed_over_updates(func: cst.FunctionDef, model: SemanticModel) -> dict[str, cst.CSTNode]:
    """NNX objects ``func`` reads from outside (globals, enclosing functions: every binding
    creates one; attributes of the receiver of an enclosing method, ``self.optimizer``, see
    ``receiver_nnx_attributes``) and updates in place, as ``in_place_updates`` finds them."""
    scope = model.scope_of[func]
    outer = set()
    for node in own_nodes(func.body):
        if isinstance(node, cst.Name) and node.value not in outer:
            bindings = model.lookup(node.value, scope)
            if bindings and all(b.scope is not scope and b.kind == "assign" and b.value is not None
                                and b.frame is not None
                                and creates_nnx_object(b.value, b.scope, b.frame, model)
                                for b in bindings):
                outer.add(node.value)
    outer |= receiver_nnx_attributes(func, model)
    if not outer:
        return {}
    return {**_graph_transforms(func, model, outer), **_self_updating_calls(func, model, outer),
            **_updates(func, model, outer, outer)}


def graph_transform(call: cst.CSTNode, model: SemanticModel, scope) -> Optional[str]:
    """The NNX transform (jaxfacts.NNX_GRAPH_TRANSFORMS) whose result ``call`` calls:
    ``nnx.value_and_grad(loss_fn)(model, x)``."""
    if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Call)):
        return None
    qualname = model.qualified_name(call.func.func, scope)
    return qualname if qualname in NNX_GRAPH_TRANSFORMS else None


def _graph_transforms(func: cst.FunctionDef, model: SemanticModel, outer: set[str]) -> dict[str, cst.CSTNode]:
    """Outer NNX objects ``func`` hands to an NNX transform (``nnx.value_and_grad(loss_fn)(
    self.model, X, y)``): the transform splits a graph that belongs to no trace level of the
    jit, which raises at the first call like an in-place update."""
    scope = model.scope_of[func]
    found: dict[str, cst.CSTNode] = {}
    for node in sorted(own_nodes(func.body), key=model.order):
        if graph_transform(node, model, scope) is None:
            continue
        for arg in node.args:  # type: ignore[attr-defined]
            name = dotted_name(arg.value)
            if name in outer:
                found.setdefault(name, node)
    return found


def _self_updating_calls(func: cst.FunctionDef, model: SemanticModel, outer: set[str]) -> dict[str, cst.CSTNode]:
    """``dropout(x)`` in ``func`` of an outer name bound to an NNX layer whose call updates its
    own state (jaxfacts.NNX_SELF_UPDATING_LAYERS, built without the keyword that turns that
    off), or to a module of this file whose ``__init__`` builds one as ``self.<attr>``; not when
    the program switches it off (``model.eval()``) anywhere."""
    scope = model.scope_of[func]
    found: dict[str, cst.CSTNode] = {}
    for node in sorted(own_nodes(func.body), key=model.order):
        if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in outer) \
                or node.func.value in found:
            continue
        bindings = model.lookup(node.func.value, scope)
        if len(bindings) == 1 and bindings[0].value is not None \
                and _builds_self_updating(bindings[0].value, bindings[0].scope, model) \
                and not _switched_off(node.func.value, bindings[0].scope, model):
            found[node.func.value] = node
    return found


def _builds_self_updating(value: cst.BaseExpression, scope: Scope, model: SemanticModel, depth: int = 0) -> bool:
    if not isinstance(value, cst.Call) or depth > 2:
        return False
    qualname = model.qualified_name(value.func, scope)
    if qualname in NNX_SELF_UPDATING_LAYERS:
        off = NNX_SELF_UPDATING_LAYERS[qualname]
        return not any(arg.keyword is not None and arg.keyword.value == off for arg in value.args)
    binding = model.single_binding(value.func.value, scope) if isinstance(value.func, cst.Name) else None
    if binding is None or binding.kind != "class" or not isinstance(binding.node, cst.ClassDef) \
            or not is_nnx_class(value.func, scope, model):
        return False
    init = class_methods(binding.node).get("__init__")
    init_scope = model.scope_of.get(init) if init is not None else None
    return init_scope is not None and any(
        isinstance(node, cst.Assign) and any(isinstance(t.target, cst.Attribute) for t in node.targets)
        and _builds_self_updating(node.value, init_scope, model, depth + 1) for node in own_nodes(init.body))


def _switched_off(name: str, scope: Scope, model: SemanticModel) -> bool:
    """``name.eval()`` / ``name.set_attributes(...)`` called anywhere in the module."""
    return any(isinstance(site.node.func, cst.Attribute) and isinstance(site.node.func.value, cst.Name)
               and site.node.func.value.value == name
               for method in NNX_UPDATE_SWITCHES for site in model.calls_named(method))


def receiver_nnx_attributes(func: cst.FunctionDef, model: SemanticModel) -> set[str]:
    """``self.optimizer`` / ``self.model`` (as text) read in ``func``, a def nested in a method
    whose receiver it closes over, when the attribute holds an NNX object: some method of the
    class assigns it one it creates (``self.optimizer = nnx.Optimizer(...)``), or ``func``
    differentiates it with ``nnx.grad``/``nnx.value_and_grad``.  Such an object is closed over
    through ``self``, not passed to the jit."""
    frame = model.functions.get(func)
    method = cls = None
    for f in frame if frame is not None else ():
        if isinstance(f.node, cst.FunctionDef) and f.node in model.functions \
                and model.functions[f.node].scope.kind == "class":
            method, cls = f.node, model.functions[f.node].scope.node
            break
    params = [*method.params.posonly_params, *method.params.params] if method is not None else []
    if not params or not isinstance(cls, cst.ClassDef) or any(
            isinstance(d.decorator, cst.Name) and d.decorator.value in ("staticmethod", "classmethod")
            for d in method.decorators):
        return set()
    receiver = params[0].name.value
    scope = model.scope_of[func]
    if [b.node for b in model.lookup(receiver, scope)] != [params[0]]:
        return set()  # rebound on the way: not the method's receiver
    read = {dotted_name(node) for node in own_nodes(func.body)
            if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name)
            and node.value.value == receiver}
    if not read:
        return set()
    known = set()
    for node in own_nodes(func.body):
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Call) and node.args \
                and model.qualified_name(node.func.func, scope) in NNX_GRADS \
                and dotted_name(node.args[0].value) in read:
            known.add(dotted_name(node.args[0].value))
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    for other in body:
        if not isinstance(other, cst.FunctionDef) or other not in model.scope_of:
            continue
        own = [*other.params.posonly_params, *other.params.params]
        if not own:
            continue
        mine, where = own[0].name.value, model.functions[other]
        for node in own_nodes(other.body):
            if isinstance(node, cst.Assign) and len(node.targets) == 1:
                target = node.targets[0].target
                if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) \
                        and target.value.value == mine and f"{receiver}.{target.attr.value}" in read \
                        and creates_nnx_object(node.value, model.scope_of[other], where, model):
                    known.add(f"{receiver}.{target.attr.value}")
    return known


def _updates(func: cst.FunctionDef, model: SemanticModel, candidates: set[str],
             known: set[str]) -> dict[str, cst.CSTNode]:
    """Names (or receiver attributes, ``self.optimizer``) updated in place, each with the
    first update in the source."""
    scope = model.scope_of[func]
    updated: dict[str, cst.CSTNode] = {}
    nodes = sorted(own_nodes(func.body), key=model.order)
    for node in nodes:
        if isinstance(node, cst.Expr) and isinstance(node.value, cst.Call):
            call = node.value
            receiver = dotted_name(call.func.value) if isinstance(call.func, cst.Attribute) else ""
            if isinstance(call.func, cst.Attribute) and call.func.attr.value == "update" \
                    and receiver in candidates:
                # ``optimizer.update(model, grads)``: the result is dropped, so it works in place.
                names = [dotted_name(a.value) for a in call.args if dotted_name(a.value) in candidates]
                if receiver in known or any(n in known for n in names):
                    for name in (receiver, *[n for n in names if n in known]):
                        updated.setdefault(name, call)
            elif model.qualified_name(call.func, scope) == NNX_UPDATE and call.args:
                first = dotted_name(call.args[0].value)
                if first in candidates:
                    updated.setdefault(first, call)
        elif isinstance(node, (cst.AssignTarget, cst.AugAssign)):
            root = _updated_object(node.target, known)
            if root is not None:
                updated.setdefault(root, node)
    return updated


def _updated_object(target: cst.BaseExpression, known: set[str]) -> Optional[str]:
    """``model.count.value`` / ``model.w[...]`` / ``self.model.w[...]`` -> the object of
    ``known`` it writes into (an attribute or item of it, not the name itself)."""
    if not isinstance(target, (cst.Attribute, cst.Subscript)):
        return None
    found = None
    current = target.value
    while isinstance(current, (cst.Attribute, cst.Subscript, cst.Name)):
        if dotted_name(current) in known:
            found = dotted_name(current)
        if isinstance(current, cst.Name):
            break
        current = current.value
    return found


def returned_names(func: cst.FunctionDef, model: SemanticModel) -> set[str]:
    """Names read in the values ``func`` returns (an updated object handed back is not lost)."""
    names = set()
    for node in own_nodes(func.body):
        if isinstance(node, cst.Return) and node.value is not None:
            names.update(n.value for n in _names(node.value))
    return names


def _names(node: cst.CSTNode) -> Iterator[cst.Name]:
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, cst.Name):
            yield current
        stack.extend(children(current))


# ---------------------------------------------------------------------------- modes (JIT405)
class ModeSwitch(NamedTuple):
    """``model.eval()`` / ``model.train()``: a switch of an NNX module's mode."""

    call: cst.Call
    mode: str  # "eval" / "train"
    receiver: str  # as written: ``model``, ``optimizer.model``
    jitted: Optional[cst.FunctionDef]  # the nnx.jit function whose argument it switches, in its trace


def mode_switches(ctx: FileContext) -> list[ModeSwitch]:
    """Every ``x.eval()`` / ``x.train()`` of the module, in source order, each with the nnx.jit
    function whose argument (or an argument of a def nested in it, ``loss_fn(model)``) it
    switches inside the trace."""
    return ctx.shared("nnx-mode-switches", _find_mode_switches)


def _find_mode_switches(ctx: FileContext) -> list[ModeSwitch]:
    model = ctx.model
    nnx_jitted = [func for func, entry in jitted_functions(ctx).items() if isinstance(func, cst.FunctionDef)
                  and any(app.jit.qualname == NNX_JIT for app in entry.apps)]
    found = []
    for method in NNX_MODE_SWITCHES:
        for site in model.calls_named(method):
            call = site.node
            if call.args or not isinstance(call.func, cst.Attribute):
                continue
            root = call.func.value
            while isinstance(root, cst.Attribute):
                root = root.value
            if not isinstance(root, cst.Name):
                continue
            bindings = model.lookup(root.value, site.frame.scope)
            owner = bindings[0].scope.node if len(bindings) == 1 and bindings[0].kind == "param" else None
            jitted = next((func for func in nnx_jitted if owner is func or (
                isinstance(owner, cst.FunctionDef) and any(f.node is func for f in model.functions.get(owner, ())))),
                None)
            found.append(ModeSwitch(call, method, dotted_name(call.func.value) or root.value, jitted))
    return sorted(found, key=lambda s: model.order(s.call))


def trains_nnx(func: cst.FunctionDef, model: SemanticModel) -> bool:
    """``func`` differentiates an NNX object (``nnx.grad`` / ``nnx.value_and_grad``): a training
    step."""
    scope = model.scope_of[func]
    return any(isinstance(node, cst.Call) and model.qualified_name(
        node.func.func if isinstance(node.func, cst.Call) else node.func, scope) in NNX_GRADS
        for node in iter_nodes(func.body))


def holds_mode_layers(model: SemanticModel) -> bool:
    """The module builds a layer whose mode ``eval()`` / ``train()`` switch
    (jaxfacts.NNX_MODE_LAYERS), or defines no NNX class (its modules come from elsewhere)."""
    nnx_classes = [c for c in model.classes if any(is_nnx_class(b.value, model.module_scope, model) for b in c.bases)]
    return not nnx_classes or any(
        model.qualified_name(site.node.func, site.frame.scope) in NNX_MODE_LAYERS for site in model.calls)
