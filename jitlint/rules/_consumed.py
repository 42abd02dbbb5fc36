"""Analysis for JIT604's consumed-state form: a library state object whose update method marks
the old object consumed by writing to it (``eqx.nn.State.set``: ``self._state = _sentinel``,
jaxfacts.CONSUMING_METHODS), called inside jit on a traced argument, while the caller passes the
old object again after the call.

Eagerly the second use raises (equinox: ValueError "Attempted to use old state"); under jit the
mark lands on the traced copy and is dropped, so the old state is reused silently and the
update of the first call is lost (equinox#1071, measured on equinox 0.13.8, jax 0.10.2: two
calls with the same old state return the same value).

Found for a jitted def (``@jax.jit``, ``@eqx.filter_jit``; a ``__call__`` of a class of this
module jitted so) whose parameter, annotated with the state's class, is updated by a consuming
method, when a call of it (by the def's name, or on an instance of the class: ``model, state =
eqx.nn.make_with_state(Model)(...)`` or ``model = Model(...)``) passes a name that is passed at
the same place again later, with no binding of that name in between, or in a loop that never
binds it.  Silent when the caller takes the returned state (``y, state = model(x, state)``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Optional

import libcst as cst

from jitlint.jaxfacts import CONSUMING_METHODS, STATE_MAKERS
from jitlint.rule import FileContext
from jitlint.rules._jitted import CALLABLE_JITS, jitted_functions, positional_params
from jitlint.walk import own_nodes
from jitlint.semantic import Binding, CallSite, SemanticModel, argument_value
@dataclass(eq=False)
class ConsumedReuse:
    update: cst.Call  # ``state.set(...)`` in the jitted body
    function: cst.FunctionDef
    param: str
    method: str  # "set"
    cls: str  # the state's class, as jaxfacts names it
    first: cst.Call  # the call that consumed the state
    again: cst.Call  # the later call passing the old state
    name: str  # the state, as the caller names it


def consumed_state_reuses(ctx: FileContext) -> list[ConsumedReuse]:
    return ctx.shared("consumed-state-reuses", _analyse)


def _analyse(ctx: FileContext) -> list[ConsumedReuse]:
    model = ctx.model
    found = []
    for func, entry in jitted_functions(ctx).items():
        if not isinstance(func, cst.FunctionDef) or not any(app.jit.qualname in CALLABLE_JITS for app in entry.apps):
            continue
        for param, (update, cls) in _consuming_updates(func, model).items():
            params = [p.name.value for p in positional_params(func)]
            if param not in params:
                continue
            for site, position in _calls_of(ctx, func):
                index = params.index(param) - position
                reuse = _reused(model, site, index, param)
                if reuse is not None:
                    found.append(ConsumedReuse(update, func, param, CONSUMING_METHODS[cls], cls,
                                               site.node, reuse[0], reuse[1]))
                    break
    return found


def _consuming_updates(func: cst.FunctionDef, model: SemanticModel) -> dict[str, tuple[cst.Call, str]]:
    """Parameters annotated with a class of CONSUMING_METHODS, with the first call of its
    consuming method on them."""
    scope = model.functions[func].scope
    typed = {}
    for param in (*func.params.posonly_params, *func.params.params, *func.params.kwonly_params):
        if param.annotation is not None:
            qualname = model.qualified_name(param.annotation.annotation, scope)
            if qualname in CONSUMING_METHODS:
                typed[param.name.value] = qualname
    found: dict[str, tuple[cst.Call, str]] = {}
    for node in sorted(own_nodes(func.body), key=model.order):
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) \
                and isinstance(node.func.value, cst.Name) and node.func.value.value in typed:
            cls = typed[node.func.value.value]
            if node.func.attr.value == CONSUMING_METHODS[cls]:
                found.setdefault(node.func.value.value, (node, cls))
    return found


def _calls_of(ctx: FileContext, func: cst.FunctionDef) -> Iterator[tuple[CallSite, int]]:
    """Calls of ``func`` with how many leading parameters the call does not pass (1 for
    ``self`` when called on an instance): by its name, or ``obj(...)`` on an instance of its
    class when ``func`` is that class's ``__call__``."""
    model = ctx.model
    frame = model.functions[func]
    if frame.scope.kind != "class":
        binding = next((b for b in frame.scope.bindings.get(func.name.value, ()) if b.node is func), None)
        for site in model.calls_to(binding) if binding is not None else ():
            yield site, 0
        return
    cls = frame.scope.node
    if func.name.value != "__call__" or not isinstance(cls, cst.ClassDef):
        return
    for site in model.calls:
        if isinstance(site.node.func, cst.Name):
            bindings = model.bindings_at(site.node.func, site.frame.scope)
            if len(bindings) == 1 and _instance_of(model, bindings[0], cls):
                yield site, 1


def _instance_of(model: SemanticModel, binding: Binding, cls: cst.ClassDef) -> bool:
    """``obj = Cls(...)``, or ``obj, state = eqx.nn.make_with_state(Cls)(...)``."""
    statement = binding.node
    if not isinstance(statement, cst.Assign) or len(statement.targets) != 1:
        return False
    value, target = statement.value, statement.targets[0].target
    if not isinstance(value, cst.Call):
        return False
    if isinstance(target, cst.Name):
        return _names_class(model, value.func, binding.scope, cls)
    if not isinstance(target, cst.Tuple) or not isinstance(value.func, cst.Call) or not value.func.args:
        return False
    maker = model.qualified_name(value.func.func, binding.scope)
    if maker not in STATE_MAKERS or not _names_class(model, value.func.args[0].value, binding.scope, cls):
        return False
    elements = [e.value for e in target.elements]
    index = STATE_MAKERS[maker]
    return index < len(elements) and isinstance(elements[index], cst.Name) and elements[index].value == binding.name


def _names_class(model: SemanticModel, expr: cst.BaseExpression, scope, cls: cst.ClassDef) -> bool:
    if not isinstance(expr, cst.Name):
        return False
    binding = model.single_binding(expr.value, scope)
    return binding is not None and binding.node is cls


def _reused(model: SemanticModel, site: CallSite, index: int, param: str) -> Optional[tuple[cst.Call, str]]:
    """(the later call passing the same state, its name) when the name ``site`` passes at
    ``index`` (or as keyword ``param``) is passed there again with no binding in between."""
    passed = argument_value(site.node, index, param)
    if not isinstance(passed, cst.Name):
        return None
    bindings = model.lookup(passed.value, site.frame.scope)
    if not bindings:
        return None
    orders = [model.order(b.node) for b in bindings if b.scope is site.frame.scope]
    start = model.order(site.node)
    callee = cst.Module([]).code_for_node(site.node.func)
    for other in model.calls:
        if other.node is site.node or other.frame.scope is not site.frame.scope \
                or cst.Module([]).code_for_node(other.node.func) != callee:
            continue
        again = argument_value(other.node, index, param)
        if not isinstance(again, cst.Name) or again.value != passed.value \
                or model.lookup(again.value, other.frame.scope) != bindings:
            continue
        end = model.order(other.node)
        if end > start and not any(start < order < end for order in orders):
            return other.node, passed.value
    for loop in site.frame.loops_in_scope():
        span = model.span(loop)
        if span is not None and not any(span[0] < order < span[1] for order in orders):
            return site.node, passed.value  # the next iteration passes the old state again
    return None


def _argument(call: cst.Call, index: int, keyword: str) -> Optional[cst.BaseExpression]:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == keyword:
            return arg.value
    positional = [a for a in call.args if a.keyword is None]
    if any(a.star for a in positional[:index + 1]) or not 0 <= index < len(positional):
        return None
    return positional[index].value
