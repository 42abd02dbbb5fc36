"""What an equinox Module (or flax.struct dataclass) instance puts in the cache key of a jitted
call (JIT301, JIT402).

A Module is a pytree: its fields marked static (``jaxfacts.STATIC_FIELD_MARKERS``) go into the
tree structure, which every jit hashes and compares with ``==``; under ``equinox.filter_jit``
(or at a static position of ``jax.jit``) every field that is not an array does too.  Two
instances whose static parts differ are two cache keys.  This module finds, for each call of a
jitted function this file shows, the Module instances that reach an argument (created by
``Cls(...)``, through names and tuple unpacking; a value the jitted function returned carries
its input's static part and adds nothing), and the field values each creation puts there:

- an array in a static field: comparing it with another instance's raises ValueError;
- a fresh identity-hashed object made per instance (``self.fn = jax.jit(fn)``, a lambda, a
  nested def, a ``functools.partial``) in a field that is static there: every new instance is
  a new cache key.

It reports a use only where a second instance can arrive: the creation runs again (in a loop
around the call, or per call of a repeated function), or another creation reaches a later
call of the same function.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Optional

import libcst as cst

from jitlint.jaxfacts import PYTREE_METADATA_DECORATORS, STATIC_FIELD_MARKERS
from jitlint.rule import FileContext
from jitlint.rules._arguments import flattened_fields
from jitlint.rules._context import PARTIAL_CONSTRUCTORS, calling_context
from jitlint.rules._counter_fields import marked_static
from jitlint.rules._static import changing_scalar, created_object, field_class, fields_passed, fresh_when, jitted_callee
from jitlint.semantic import Binding, CallSite, Frame, Scope
from jitlint.staticargs import StaticArgSpec
from jitlint.values import Varying, array_made_by, assigned, value_flow
from jitlint.walk import iter_nodes

# (problem kind) -> what a field value of that kind is
ARRAY, FRESH = "array", "fresh"


@dataclass(frozen=True)
class FieldProblem:
    kind: str  # ARRAY | FRESH
    cls: str
    field: str
    what: str  # "a jax Array" / "a jitted function created anew"
    value: cst.CSTNode  # the expression that makes the field's value
    fix: str = ""  # how to make the field traced, when not by dropping a static marking
    # where a registered pytree class puts the field in its metadata (the aux data
    # ``tree_flatten`` returns, a ``meta_fields`` entry, a marked field): the line to fix
    declared: Optional[cst.CSTNode] = None


@dataclass(frozen=True)
class InstanceUse:
    """A Module instance with a problem field reaching an argument of a jitted call, at a
    point where another instance can arrive."""

    site: CallSite
    arg: cst.Arg
    callee: str
    problem: FieldProblem
    creation: cst.Call
    when: str  # "on every iteration", "on every call of `f`", "separately from ..."


def instance_uses(ctx: FileContext) -> list[InstanceUse]:
    return ctx.shared("module-field-uses", _instance_uses)


def _passed_creations(ctx: FileContext) -> Iterator[tuple[CallSite, StaticArgSpec, cst.Arg, bool, cst.Call, Scope, Frame]]:
    """(call of a jitted function, its spec, argument, whether the argument is static there,
    and each ``Cls(...)`` whose instance may be the argument's value, with its scope and frame)."""
    flow = value_flow(ctx)
    for site in ctx.model.calls:
        looked = jitted_callee(ctx, site)
        if looked is None:
            continue
        spec, shift = looked
        if not spec.checkable and not spec.filtering:
            continue
        positional = sum(1 for a in site.node.args if a.keyword is None and not a.star)
        static_nums = spec.static_positions(positional + shift, exact=False)
        for index, arg in enumerate(site.node.args):
            if arg.star:
                break
            static = spec.filtering or (arg.keyword is None and index + shift in static_nums) or (
                arg.keyword is not None and spec.static_keyword(arg.keyword.value))
            for creation, scope, frame in _creations(ctx, arg.value, site.frame.scope, site, flow):
                yield site, spec, arg, static, creation, scope, frame


def _instance_uses(ctx: FileContext) -> list[InstanceUse]:
    seen: dict[tuple[int, str], cst.Call] = {}  # (spec, class) -> first creation reaching it
    found: list[InstanceUse] = []
    for site, spec, arg, static, creation, scope, frame in _passed_creations(ctx):
        problem = _problem(ctx, creation, scope, frame, all_fields_static=static)
        if problem is None:
            continue
        key = (id(spec), problem.cls)
        first = seen.setdefault(key, creation)
        fresh = fresh_when(ctx, "instance", problem.cls, frame, site)
        if fresh is not None:
            when = fresh.when
        elif first is not creation:
            earlier = " ".join(cst.Module([]).code_for_node(first).split())
            when = f"separately from the `{earlier}` passed in an earlier call"
        else:
            continue
        found.append(InstanceUse(site, arg, spec.name, problem, creation, when))
    return found


@dataclass(frozen=True)
class ChangingFieldUse:
    """A field marked static given, where its instance is made, a scalar that takes a new
    value on every iteration of the loop around a jitted call the instance reaches."""

    site: CallSite
    callee: str
    cls: str
    field: str
    value: cst.BaseExpression  # what the construction gives the field
    varying: Varying
    fix: str


def changing_static_fields(ctx: FileContext) -> list[ChangingFieldUse]:
    return ctx.shared("changing-static-fields", _changing_static_fields)


def _changing_static_fields(ctx: FileContext) -> list[ChangingFieldUse]:
    found: list[ChangingFieldUse] = []
    for site, spec, _, _, creation, scope, _ in _passed_creations(ctx):
        layout = _layout(ctx, creation, scope, all_fields_static=False) if site.frame.loops_in_scope() else None
        if layout is None or not layout.static_fields:
            continue
        for name, value in fields_passed(layout.cls, layout.fields, creation):
            varying = changing_scalar(ctx, value, site) if name in layout.static_fields else None
            if varying is not None:
                found.append(ChangingFieldUse(site, spec.name, layout.cls.name.value, name, value, varying,
                                              _metadata_fix(name, layout.declared.get(name))))
    return found


def _creations(ctx: FileContext, expr: cst.BaseExpression, scope: Scope, site: CallSite, flow,
               depth: int = 0, made=None) -> list[tuple[cst.Call, Scope, Frame]]:
    """The ``Cls(...)`` calls whose instance may be the value of ``expr``; empty when any
    definition reaching it is something else (a value returned by the jitted function at
    ``site`` itself is skipped: it carries the static part of what went in)."""
    if depth > 4:
        return []
    if isinstance(expr, cst.Call):
        return [(expr, scope, site.frame)] if depth == 0 else []
    if not isinstance(expr, cst.Name):
        return []
    found = []
    for binding in flow.reaching(expr, scope):
        if binding.frame is None:
            return []
        value = assigned(binding).value
        if isinstance(value, cst.Call) and (made or _class_call)(ctx, value, binding.scope):
            found.append((value, binding.scope, binding.frame))
        elif isinstance(value, cst.Call) and (built := _built_by_factory(ctx, value, binding.scope, made)):
            # ``Params.build(description)`` returning ``Params(...)``: made where the call runs
            found.extend((creation, scope, binding.frame) for creation, scope in built)
        elif isinstance(value, cst.Name):
            found.extend(_creations(ctx, value, binding.scope, site, flow, depth + 1, made))
        elif not _returned_by(binding, site):
            return []
    return found


def _built_by_factory(ctx: FileContext, call: cst.Call, scope: Scope, made=None) -> list[tuple[cst.Call, Scope]]:
    """The ``Cls(...)`` calls a function or static/class method of this module returns on
    every ``return`` (a factory: ``KynDynParameters.build(...)``); empty when some return gives
    anything else."""
    returned = calling_context(ctx).call_returns(call, scope)
    if not returned or not all(isinstance(r.value, cst.Call) and (made or _class_call)(ctx, r.value, r.scope)
                               for r in returned):
        return []
    return [(r.value, r.scope) for r in returned]  # type: ignore[misc]


def _returned_by(binding: Binding, site: CallSite) -> bool:
    """``model = step(model, ...)`` / ``loss, model = step(model, ...)`` at the call itself."""
    node = binding.node
    return isinstance(node, cst.Assign) and node.value is site.node


def _class_call(ctx: FileContext, call: cst.Call, scope: Scope) -> bool:
    return field_class(ctx, call.func, scope) is not None or _registered_pytree(ctx, call.func, scope) is not None


@dataclass(frozen=True)
class FieldLayout:
    """Which fields of a pytree class go into the tree's metadata (static: hashed and compared
    with ``==`` by every jit), and where the class declares each there."""

    cls: cst.ClassDef
    fields: list[str]
    static_fields: set[str]
    declared: dict[str, cst.CSTNode]
    all_fields_static: bool  # the whole instance is hashed (a static argument, equinox filtering)


def _layout(ctx: FileContext, call: cst.Call, scope: Scope, all_fields_static: bool) -> Optional[FieldLayout]:
    found = field_class(ctx, call.func, scope)
    if found is None or found[1] not in ("an equinox.Module", "a flax.struct dataclass"):
        registered = _registered_pytree(ctx, call.func, scope)
        if registered is None:
            return None
        cls, fields, declared = registered
        # its instance is flattened, not hashed whole
        return FieldLayout(cls, fields, set(declared), declared, all_fields_static=False)
    cls, _, fields = found
    return FieldLayout(cls, fields, _marked_static(ctx, cls), {}, all_fields_static)


def _problem(ctx: FileContext, call: cst.Call, scope: Scope, frame: Frame,
             all_fields_static: bool) -> Optional[FieldProblem]:
    layout = _layout(ctx, call, scope, all_fields_static)
    if layout is None:
        return None
    cls, fields, static_fields, declared = layout.cls, layout.fields, layout.static_fields, layout.declared
    all_fields_static = layout.all_fields_static
    values: list[tuple[str, cst.BaseExpression, Scope, Frame]] = [
        (name, value, scope, frame) for name, value in fields_passed(cls, fields, call)]
    init = _init(cls)
    if init is not None:
        init_frame = ctx.model.functions[init]
        values.extend((name, value, init_frame.scope, init_frame) for name, value in _init_values(init))
    for name, value, where, at in values:
        if name not in fields:
            continue
        array = _array_value(ctx, value, where) if name in static_fields else None
        if array is not None:
            return FieldProblem(ARRAY, cls.name.value, name, array, value, _metadata_fix(name, declared.get(name)),
                                declared.get(name))
        if name in static_fields or all_fields_static:
            created = created_object(ctx, value, where, at)
            if created is not None and created[0] in ("jit", "lambda", "def", "partial"):
                what = {"jit": "a jitted function created anew", "lambda": "a lambda created anew",
                        "def": "a nested function created anew",
                        "partial": "a functools.partial created anew"}[created[0]]
                return FieldProblem(FRESH, cls.name.value, name, what, value)
    return None


def _metadata_fix(field: str, declared: Optional[cst.CSTNode]) -> str:
    """How to make a field a leaf, by how the class puts it in its metadata."""
    if isinstance(declared, cst.Attribute):  # ``self.x`` in the aux data of ``tree_flatten``
        return "return it among the children in `tree_flatten`"
    if isinstance(declared, cst.SimpleString):  # a ``meta_fields=[...]`` entry
        return f"move `{field}` from meta_fields to data_fields"
    return ""  # a static marking: the caller says to drop it


def _registered_pytree(ctx: FileContext, func: cst.BaseExpression, scope: Scope
                       ) -> Optional[tuple[cst.ClassDef, list[str], dict[str, cst.CSTNode]]]:
    """(class, fields, the fields that go into the tree's metadata, each with where it is put
    there) for a class of this module registered as a pytree by a decorator
    (``jaxfacts.PYTREE_METADATA_DECORATORS``): ``register_dataclass`` over a dataclass, the
    metadata its fields marked ``field(metadata={"static": True})`` (or named by a
    ``register_dataclass(..., meta_fields=[...])`` call); ``register_pytree_node_class``, the
    ``self.<field>`` values ``tree_flatten`` returns as aux data.  jit compares that metadata
    with ``==``."""
    if not isinstance(func, cst.Name):
        return None
    binding = value_flow(ctx).single(func, scope)
    cls = binding.node if binding is not None and binding.kind == "class" else None
    if not isinstance(cls, cst.ClassDef):
        return None
    kinds = {PYTREE_METADATA_DECORATORS.get(ctx.model.qualified_name(d.decorator, binding.scope) or "")
             for d in cls.decorators} - {None}
    named = (_meta_fields_of_partial_decorator(ctx, cls, binding.scope)
             or _meta_fields_registered(ctx, binding)) if not kinds else None
    if named is not None:  # ``register_dataclass(Foo, data_fields=[...], meta_fields=["a"])``
        kinds = {"marked"}
    if len(kinds) != 1:
        return None
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    fields, static = [], dict(named or {})
    for statement in body:
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                fields.append(small.target.value)
                if marked_static(ctx, small.value, binding.scope):
                    static[small.target.value] = small
    if kinds == {"flatten"}:
        flatten = next((s for s in body if isinstance(s, cst.FunctionDef) and s.name.value == "tree_flatten"), None)
        static = _aux_fields(flatten) if flatten is not None else {}
        init = _init(cls)
        if not fields and init is not None:
            fields = [name for name, _ in _init_values(init)]
    return (cls, fields, static) if static else None


def _meta_fields_registered(ctx: FileContext, binding) -> Optional[dict[str, cst.CSTNode]]:
    """The ``meta_fields`` a ``register_dataclass`` call (a "marked" PYTREE_METADATA_DECORATORS
    entry called on the class) names, when they are string literals, each with its string."""
    model = ctx.model
    for qualname, kind in PYTREE_METADATA_DECORATORS.items():
        if kind != "marked":
            continue
        for site in model.calls_named(qualname.rpartition(".")[2]):
            call = site.node
            if model.qualified_name(call.func, site.frame.scope) != qualname or not call.args \
                    or not isinstance(call.args[0].value, cst.Name) \
                    or model.single_binding(call.args[0].value.value, site.frame.scope) is not binding:
                continue
            return _meta_field_names(call, 2)
    return None


def _meta_fields_of_partial_decorator(ctx: FileContext, cls: cst.ClassDef, scope: Scope
                                      ) -> Optional[dict[str, cst.CSTNode]]:
    """The ``meta_fields`` of a decorator ``@functools.partial(jax.tree_util.register_dataclass,
    data_fields=[...], meta_fields=[...])`` (jaxsim's pytree dataclasses)."""
    model = ctx.model
    for decorator in cls.decorators:
        call = decorator.decorator
        if isinstance(call, cst.Call) and call.args and call.args[0].keyword is None \
                and model.qualified_name(call.func, scope) in PARTIAL_CONSTRUCTORS \
                and PYTREE_METADATA_DECORATORS.get(model.qualified_name(call.args[0].value, scope) or "") == "marked":
            return _meta_field_names(call, None)  # (bound positionally, a list would go before the class)
    return None


def _meta_field_names(call: cst.Call, position: Optional[int]) -> Optional[dict[str, cst.CSTNode]]:
    """The string literals ``call`` gives ``meta_fields`` (by keyword, or at the positional
    index ``position``), each with its string; None when any is not one."""
    positional = [a.value for a in call.args if a.keyword is None]
    meta = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "meta_fields"),
                positional[position] if position is not None and len(positional) > position else None)
    if not isinstance(meta, (cst.List, cst.Tuple)):
        return None
    names = {e.value.evaluated_value: e.value for e in meta.elements
             if isinstance(e.value, cst.SimpleString) and isinstance(e.value.evaluated_value, str)}
    return names if len(names) == len(meta.elements) else None


def _aux_fields(flatten: cst.FunctionDef) -> dict[str, cst.CSTNode]:
    """The ``self.<field>`` values in the aux data ``tree_flatten`` returns (``return
    (self.x,), (self.y,)``, also through a name assigned in it), each with its attribute."""
    return flattened_fields(flatten, 1)


def _array_value(ctx: FileContext, expr: cst.BaseExpression, scope: Scope, depth: int = 0) -> Optional[str]:
    """'a jax Array' / 'a NumPy array' when ``expr`` certainly makes one: an array-making call,
    or arithmetic with one (``jnp.arange(4.0) + seed``), also through a name bound once to one
    (``parent_array = jnp.array(...)`` then ``Params(parent_array=parent_array)``)."""
    if isinstance(expr, cst.Call):
        return array_made_by(ctx.model, expr, scope)
    if isinstance(expr, cst.BinaryOperation) and depth < 4:
        return _array_value(ctx, expr.left, scope, depth + 1) or _array_value(ctx, expr.right, scope, depth + 1)
    if isinstance(expr, cst.Name) and depth < 4:
        binding = value_flow(ctx).single(expr, scope)
        value = assigned(binding).value if binding is not None and binding.kind == "assign" else None
        return _array_value(ctx, value, binding.scope, depth + 1) if value is not None else None
    return None


def _init(cls: cst.ClassDef) -> Optional[cst.FunctionDef]:
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    return next((s for s in body if isinstance(s, cst.FunctionDef) and s.name.value == "__init__"), None)


def _init_values(init: cst.FunctionDef):
    """(field, expression) for each ``self.field = expression`` directly in ``__init__``."""
    body = init.body.body if isinstance(init.body, cst.IndentedBlock) else ()
    for statement in body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if isinstance(small, cst.Assign) and len(small.targets) == 1:
                target = small.targets[0].target
                if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) \
                        and target.value.value == "self":
                    yield target.attr.value, small.value


def _marked_static(ctx: FileContext, cls: cst.ClassDef) -> set[str]:
    """Fields declared ``name: T = eqx.field(static=True)`` (``STATIC_FIELD_MARKERS``)."""
    frame = ctx.model.classes.get(cls)
    scope = frame.scope if frame is not None else ctx.model.module_scope
    marked = set()
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    for statement in body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) \
                    and isinstance(small.value, cst.Call):
                qualname = ctx.model.qualified_name(small.value.func, scope)
                if qualname not in STATIC_FIELD_MARKERS:
                    continue
                keyword = STATIC_FIELD_MARKERS[qualname]
                if keyword is None or any(
                        a.keyword is not None and a.keyword.value == keyword[0]
                        and isinstance(a.value, cst.Name) and a.value.value == str(keyword[1])
                        for a in small.value.args):
                    marked.add(small.target.value)
    return marked



@dataclass(frozen=True)
class DifferingStatic:
    """A pytree instance whose field marked static holds another constant than an instance
    passed to the same jitted function before, which never reads that field."""

    site: CallSite
    arg: cst.Arg
    callee: str
    cls: str
    field: str
    value: cst.BaseExpression
    earlier: cst.BaseExpression


def differing_statics(ctx: FileContext) -> list[DifferingStatic]:
    return ctx.shared("differing-static-fields", _differing_statics)


def _constant(expr: Optional[cst.BaseExpression]) -> Optional[object]:
    if isinstance(expr, (cst.Integer, cst.Float, cst.SimpleString)):
        return expr.evaluated_value
    if isinstance(expr, cst.Name) and expr.value in ("True", "False", "None"):
        return expr.value
    return None


def _static_fields(ctx: FileContext, cls: cst.ClassDef) -> dict[str, Optional[cst.BaseExpression]]:
    """Field -> its default (None: none given), for the annotated fields marked static, in order;
    every annotated field as the first entry of the result's companion ``_field_order``."""
    from jitlint.rules._counter_fields import marked_static  # the markers jit keys on
    scope = ctx.model.classes[cls].scope
    found: dict[str, Optional[cst.BaseExpression]] = {}
    for statement in cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ():
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) \
                    and marked_static(ctx, small.value, scope):
                default = next((a.value for a in small.value.args if a.keyword is not None  # type: ignore[union-attr]
                                and a.keyword.value == "default"), None)
                found[small.target.value] = default
    return found


def _field_order(cls: cst.ClassDef) -> list[str]:
    return [small.target.value for statement in (cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ())
            for small in (statement.body if isinstance(statement, cst.SimpleStatementLine) else ())
            if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name)]


def _reads_field(func: cst.FunctionDef, field: str) -> bool:
    return any(isinstance(node, cst.Attribute) and node.attr.value == field for node in iter_nodes(func)) \
        or any(isinstance(node, cst.Name) and node.value in ("getattr", "vars", "asdict", "astuple")
               for node in iter_nodes(func))


def _differing_statics(ctx: FileContext) -> list[DifferingStatic]:
    from jitlint.rules._jitted import jitted_functions
    from jitlint.rules._traced import _pytree_dataclasses
    pytrees = set(_pytree_dataclasses(ctx))
    if not pytrees:
        return []
    defs: dict[str, list[cst.FunctionDef]] = {}
    for func in jitted_functions(ctx):
        if isinstance(func, cst.FunctionDef):
            defs.setdefault(func.name.value, []).append(func)
    flow = value_flow(ctx)

    def made(ctx: FileContext, call: cst.Call, scope: Scope) -> bool:
        binding = flow.single(call.func, scope) if isinstance(call.func, cst.Name) else None
        return binding is not None and binding.node in pytrees
    seen: dict[tuple[int, int, str], tuple[object, cst.BaseExpression]] = {}
    reported: set = set()
    found: list[DifferingStatic] = []
    for site in ctx.model.calls:
        looked = jitted_callee(ctx, site)
        if looked is None:
            continue
        spec = looked[0]
        bodies = defs.get(spec.name, [])
        if len(bodies) != 1:
            continue
        for arg in site.node.args:
            if arg.star:
                break
            for creation, scope, _ in _creations(ctx, arg.value, site.frame.scope, site, flow, made=made):
                binding = flow.single(creation.func, scope) if isinstance(creation.func, cst.Name) else None
                cls = binding.node if binding is not None and binding.kind == "class" else None
                if cls not in pytrees:
                    continue
                statics = _static_fields(ctx, cls)
                if not statics:
                    continue
                passed = dict(fields_passed(cls, _field_order(cls), creation))
                for field, default in statics.items():
                    value = passed.get(field, default)
                    constant = _constant(value)
                    if constant is None or _reads_field(bodies[0], field):
                        continue
                    key = (id(spec), id(cls), field)
                    first = seen.setdefault(key, (constant, value))
                    if first[0] != constant and (key, constant) not in reported:
                        reported.add((key, constant))
                        found.append(DifferingStatic(site, arg, spec.name, cls.name.value, field,
                                                     value, first[1]))  # type: ignore[arg-type]
    return found
