"""Types where the code states them: the class of the object an expression names.

Read from the code only, never guessed from names:

* ``self`` in a method, and a name assigned once from ``Cls(...)`` (``_context.instance_class``);
* a parameter's annotation (``def evaluate(model: Model)``), also ``Optional[Model]``;
* a pytest fixture of this module that a test takes as a parameter: the fixture function's
  return annotation, or the ``Cls(...)`` it returns or yields;
* ``self.attr`` in a method: ``self.attr = Cls(...)`` (the class's only assignment of it), or
  ``attr: Cls`` in the class body;
* an annotated assignment ``model: Model = load()``.

The class is one of this module (a ``ClassDef``) or one that another module defines, by its
absolute qualified name: the project index describes it (``ProjectIndex.class_members``),
also for an installed package, read from its source.  What a method of such a class is, is
``member_kind``'s answer, following bases through the index; a base nobody can read leaves an
inherited name unknown, except the framework methods ``FRAMEWORK_METHODS`` lists.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import libcst as cst

from jitlint.jaxfacts import FRAMEWORK_METHODS
from jitlint.project import absolute, class_members, module_name_for
from jitlint.rule import FileContext
from jitlint.rules._context import calling_context, class_methods
from jitlint.semantic import Binding, Scope
from jitlint.walk import iter_nodes

FIXTURE_DECORATORS = frozenset({"pytest.fixture", "pytest_asyncio.fixture"})
OPTIONAL_WRAPPERS = frozenset({"typing.Optional", "Optional"})
OBJECT = frozenset({"object", "builtins.object"})


@dataclass(frozen=True)
class ClassRef:
    """A class of this module (``local``) or of another module (``qualname``)."""

    local: Optional[cst.ClassDef] = None
    qualname: Optional[str] = None


def receiver_class(ctx: FileContext, expr: cst.BaseExpression, scope: Scope) -> Optional[ClassRef]:
    """The class of the object ``expr`` (a name or ``self.attr``) evaluates to, where the code
    states it."""
    context = calling_context(ctx)
    if isinstance(expr, cst.Name):
        local = context.instance_class(expr, scope)
        if local is not None:
            return ClassRef(local=local)
        binding = ctx.model.single_binding(expr.value, scope)
        if binding is None:
            return None
        if binding.kind == "param":
            return _param_class(ctx, binding)
        if binding.kind == "assign":
            if isinstance(binding.value, cst.Call):
                return _named_class(ctx, binding.value.func, binding.scope)
            if isinstance(binding.node, cst.AnnAssign):
                return _annotated_class(ctx, binding.node.annotation.annotation, binding.scope)
        return None
    if isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name):
        owner = context.instance_class(expr.value, scope)
        if owner is not None and expr.value.value == "self":
            return _attribute_class(ctx, owner, expr.attr.value)
    return None


def member_kind(ctx: FileContext, cls: ClassRef, name: str, _depth: int = 0) -> Optional[str]:
    """What ``name`` is on instances of ``cls``: "method", "classmethod", "staticmethod",
    "property", "attribute" (assigned: no method), or None (unknown)."""
    if _depth > 6:
        return None
    if cls.local is not None:
        return _local_member_kind(ctx, cls.local, name, _depth)
    assert cls.qualname is not None
    ctx.members_asked.add(cls.qualname)  # the index may describe it (engine: needs_index)
    if ctx.index is None:
        return None
    members = ctx.index.class_members(cls.qualname)
    if members is None:
        return None
    kind = members.member(name)
    if kind is not None:
        return kind
    return _inherited_kind(ctx, members.bases, name, _depth)


def _local_member_kind(ctx: FileContext, cls: cst.ClassDef, name: str, depth: int) -> Optional[str]:
    members = class_members(cls, ctx.model, *module_name_for(ctx.path))
    kind = members.member(name)
    if kind is not None:
        return kind
    scope = ctx.model.classes[cls].scope
    for arg, qualname in zip(cls.bases, members.bases):
        if qualname in OBJECT:
            continue
        local = calling_context(ctx).class_of(arg.value, scope)
        if local is None:
            return _inherited_kind(ctx, (qualname,), name, depth)
        found = _local_member_kind(ctx, local, name, depth + 1)
        if found is not None:
            return found
    return None


def _inherited_kind(ctx: FileContext, bases: tuple[str, ...], name: str, depth: int) -> Optional[str]:
    """``name`` from the first base that tells: a framework's known method, or a class the
    index describes; None as soon as a base is unknown (it may define ``name``)."""
    for base in bases:
        if base in OBJECT:
            continue
        if name in FRAMEWORK_METHODS.get(base, ()):
            return "method"
        return None if base == "?" else member_kind(ctx, ClassRef(qualname=base), name, depth + 1)
    return None


def _named_class(ctx: FileContext, expr: cst.BaseExpression, scope: Scope) -> Optional[ClassRef]:
    """The class ``expr`` names (``Model``, ``models.Model``, ``nn.Dense``): this module's, or
    another's by qualified name (None for builtins and unknown names)."""
    local = calling_context(ctx).class_of(expr, scope)
    if local is not None:
        return ClassRef(local=local)
    qualname = ctx.model.qualified_name(expr, scope)
    if qualname is None or "." not in qualname:
        return None  # a builtin, or a name of this module that is no class
    return ClassRef(qualname=absolute(qualname, *module_name_for(ctx.path)))


def _annotated_class(ctx: FileContext, annotation: cst.BaseExpression, scope: Scope) -> Optional[ClassRef]:
    """``Model``, ``Optional[Model]``, ``Model | None``."""
    if isinstance(annotation, cst.Subscript) and len(annotation.slice) == 1 \
            and ctx.model.qualified_name(annotation.value, scope) in OPTIONAL_WRAPPERS:
        element = annotation.slice[0].slice
        if isinstance(element, cst.Index):
            return _annotated_class(ctx, element.value, scope)
        return None
    if isinstance(annotation, cst.BinaryOperation) and isinstance(annotation.operator, cst.BitOr):
        sides = [s for s in (annotation.left, annotation.right)
                 if not (isinstance(s, cst.Name) and s.value == "None")]
        return _annotated_class(ctx, sides[0], scope) if len(sides) == 1 else None
    if isinstance(annotation, (cst.Name, cst.Attribute)):
        return _named_class(ctx, annotation, scope)
    return None


def _param_class(ctx: FileContext, param: Binding) -> Optional[ClassRef]:
    node = param.node
    if not isinstance(node, cst.Param):
        return None
    function = param.scope.node
    outer = ctx.model.functions.get(function) if isinstance(function, cst.FunctionDef) else None
    if node.annotation is not None and outer is not None:
        return _annotated_class(ctx, node.annotation.annotation, outer.scope)
    if outer is not None:
        return _fixture_class(ctx, node.name.value, outer.scope)
    return None


def _fixture_class(ctx: FileContext, name: str, scope: Scope) -> Optional[ClassRef]:
    """The class of the pytest fixture ``name`` of this module (what a test parameter of that
    name receives): its return annotation, or the ``Cls(...)`` it returns or yields."""
    module = ctx.model.module_scope
    binding = ctx.model.single_binding(name, module)
    fixture = binding.node if binding is not None else None
    if not isinstance(fixture, cst.FunctionDef) or not any(
            (ctx.model.qualified_name(d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator,
                                      module) or "") in FIXTURE_DECORATORS for d in fixture.decorators):
        return None
    if fixture.returns is not None:
        found = _annotated_class(ctx, fixture.returns.annotation, module)
        if found is not None:
            return found
    inner = ctx.model.scope_of[fixture]
    frame = ctx.model.functions[fixture]
    classes = set()
    for node in iter_nodes(fixture.body):
        value = node.value if isinstance(node, (cst.Return, cst.Yield)) else None
        if value is None:
            continue
        origin = ctx.model.value_origin(value, inner, frame)
        made = origin[0] if origin is not None else None
        if not isinstance(made, cst.Call):
            return None
        found = _named_class(ctx, made.func, origin[1])
        if found is None:
            return None
        classes.add(found)
    return classes.pop() if len(classes) == 1 else None


def _attribute_class(ctx: FileContext, owner: cst.ClassDef, attr: str) -> Optional[ClassRef]:
    """``self.attr``'s class: ``attr: Cls`` in the class body, or its one assignment
    ``self.attr = Cls(...)`` in the class's methods."""
    scope = ctx.model.classes[owner].scope
    body = owner.body.body if isinstance(owner.body, cst.IndentedBlock) else ()
    for statement in body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) \
                        and small.target.value == attr:
                    return _annotated_class(ctx, small.annotation.annotation, scope)
    assigned = []
    for method in class_methods(owner).values():
        method_scope = ctx.model.scope_of[method]
        for node in iter_nodes(method.body):
            if isinstance(node, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
                targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) \
                            and target.value.value == "self" and target.attr.value == attr:
                        assigned.append((node, method_scope))
    if len(assigned) != 1:
        return None
    node, method_scope = assigned[0]
    if isinstance(node, cst.AnnAssign):
        return _annotated_class(ctx, node.annotation.annotation, method_scope)
    if isinstance(node, cst.Assign) and isinstance(node.value, cst.Call):
        return _named_class(ctx, node.value.func, method_scope)
    return None
