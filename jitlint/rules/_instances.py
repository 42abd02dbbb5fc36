"""Pytree instances the code builds: which class (or dict display) a value is, and what each
leaf field holds at that construction, followed through the defs and classmethods of the module
that return one.  Shared by the rules that compare or follow field values (weakly typed state
fed back through a step, field kinds that differ between calls)."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jitlint.rule import FileContext
from jitlint.rules._arguments import leaf_fields, pytree_class
from jitlint.rules._context import calling_context
from jitlint.rules._jitted import positional_params
from jitlint.semantic import Binding, Scope, dotted_name
from jitlint.values import annotated_fields


def pytree_instance(ctx: FileContext, expr: cst.BaseExpression, scope: Scope, depth: int,
                     class_of: Optional[Binding] = None
                     ) -> Optional[tuple[cst.ClassDef | cst.Dict, dict[str, tuple[cst.BaseExpression, Scope]],
                                         cst.CSTNode]]:
    """``State(x=..., n=0)`` of a pytree class of this module (a NamedTuple or pytree dataclass
    with no ``__init__`` of its own), or a dict display with string keys, also returned by a def
    of this module (``init_state()``) or a classmethod of the class (``State.create(...)``
    returning ``cls(...)``; ``class_of``: the class its first parameter stands for): the class
    (or the dict), each leaf field's value (the class default where the call gives none) and
    the construction."""
    model = ctx.model
    if isinstance(expr, cst.Dict) and depth <= 2:  # ``{"t": 0.0, "x": jnp.zeros(3)}``: a pytree too
        keys = string_keys(expr)
        return (expr, {key: (element.value, scope) for key, element in zip(keys, expr.elements)}, expr) \
            if keys is not None else None
    if not isinstance(expr, cst.Call) or depth > 2:
        return None
    if isinstance(expr.func, cst.Attribute) and isinstance(expr.func.value, cst.Name):
        made = _made_by_classmethod(ctx, expr.func, scope, depth)  # ``State.create(params)``
        method = calling_context(ctx).callee(expr, scope) if made is None else None
        return _returned_instance(ctx, method, depth) if method is not None else made  # ``env.reset(key)``
    if not isinstance(expr.func, cst.Name):
        return None
    binding = model.single_binding(expr.func.value, scope)
    if binding is None:
        return None
    if binding.kind == "param" and class_of is not None:  # ``cls(...)`` in a classmethod
        binding = class_of
    if binding.kind == "def" and isinstance(binding.node, cst.FunctionDef):
        return _returned_instance(ctx, binding.node, depth)
    cls = binding.node
    if binding.kind != "class" or not isinstance(cls, cst.ClassDef) \
            or not pytree_class(ctx, cls, model.classes[cls].scope) \
            or any(isinstance(s, cst.FunctionDef) and s.name.value == "__init__" for s in cls.body.body):
        return None
    leaves = leaf_fields(cls)
    class_scope = model.classes[cls].scope
    values: dict[str, tuple[cst.BaseExpression, Scope]] = {
        field.target.value: (field.value, class_scope) for field in annotated_fields(cls)
        if field.value is not None and leaves.get(field.target.value)}
    names = list(leaves)
    for index, arg in enumerate(expr.args):
        if arg.star:
            return None
        field = arg.keyword.value if arg.keyword is not None else names[index] if index < len(names) else None
        if field is None:
            return None
        if leaves.get(field):
            values[field] = (arg.value, scope)
        else:
            values.pop(field, None)
    return cls, values, expr


def _returned_instance(ctx: FileContext, function: cst.FunctionDef, depth: int):
    """The pytree instance the one ``return`` of ``function`` builds."""
    model = ctx.model
    inner = model.scope_of.get(function)
    returns = [r.value for r, f in model.returns if f.enclosing_function() is function]
    if inner is None or len(returns) != 1 or returns[0] is None:
        return None
    return pytree_instance(ctx, returns[0], inner, depth + 1)


def _made_by_classmethod(ctx: FileContext, func: cst.Attribute, scope: Scope, depth: int):
    """``State.create(...)``: a classmethod of a class of this module whose one ``return``
    builds ``cls(...)``."""
    model = ctx.model
    binding = model.single_binding(func.value.value, scope)
    if binding is None or binding.kind != "class" or not isinstance(binding.node, cst.ClassDef):
        return None
    method = next((s for s in binding.node.body.body if isinstance(s, cst.FunctionDef)
                   and s.name.value == func.attr.value
                   and any(dotted_name(d.decorator) == "classmethod" for d in s.decorators)), None)
    inner = model.scope_of.get(method) if method is not None else None
    returns = [r.value for r, f in model.returns if f.enclosing_function() is method] if inner else []
    if len(returns) != 1 or not isinstance(returns[0], cst.Call) or not isinstance(returns[0].func, cst.Name) \
            or not positional_params(method) or returns[0].func.value != positional_params(method)[0].name.value:
        return None
    return pytree_instance(ctx, returns[0], inner, depth + 1, class_of=binding)


def string_keys(mapping: cst.Dict) -> Optional[list[str]]:
    """The keys of a dict display when every one is a plain string."""
    keys = []
    for element in mapping.elements:
        if not isinstance(element, cst.DictElement) or not isinstance(element.key, cst.SimpleString):
            return None
        keys.append(element.key.evaluated_value)
    return keys
