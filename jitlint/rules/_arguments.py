"""What a value given to a jitted function is, when it certainly is not something jit can trace.

``jax.jit`` abstracts every non-static argument to an array: each pytree leaf must be an array,
a Python scalar or None.  ``non_jax_value`` says when an expression certainly evaluates to
something else (JIT807):

* a ``str``: a literal, an f-string, ``str(...)``/``repr(...)``, ``"...".format(...)``, a
  parameter annotated ``str``, a field annotated ``str``;
* a class object: a class of this module, ``cls`` of a classmethod;
* a function: a ``def`` (jitted or not), a lambda, a ``functools.partial`` (a
  ``jax.tree_util.Partial`` is a pytree: fine), a library function (``jax.nn.relu``:
  ``jaxfacts.LIBRARY_FUNCTIONS``);
* an instance of a plain class of this module (no base, at most ``@dataclasses.dataclass``, not
  registered as a pytree), ``self`` in its methods included;
* a library object that holds such a leaf (``jaxfacts.NON_ARRAY_LEAF_OBJECTS``: ``eqx.nn.Lambda``),
  or a library call's result jax has no type for (``jaxfacts.NON_JAX_RESULTS``: ``jax.devices()``
  and its items, shardings, meshes, optax and ``jax.example_libraries`` optimizers, which are
  NamedTuples of functions);
* a NumPy array of strings, bytes or objects: ``np.array(["a"])`` (data holding such a value),
  a non-numeric ``dtype=`` (``str``, ``object``, ``"U5"``: ``jaxfacts.NON_NUMERIC_DTYPE_*``),
  ``.astype(str)``;
* a member of an ``enum.Enum`` class of this module (an ``IntEnum`` member is an int: valid);
* an instance of a pytree class of this module (a NamedTuple, a pytree dataclass) built with
  such a value for a field that is a leaf (``Optimizer(*optimizers.adam(1e-3))``);
* a tuple, list or dict holding one of these (a dict or list the module never changes in
  place: ``del batch["id"]`` before the call removes the offending entry).

Values are followed through names (every definition that reaches the read must be one),
attributes of instances of this module's classes (every ``self.attr = ...`` in the class, or the
class's annotation), conditional expressions and the returns of this module's functions.
Anything not understood stays silent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Optional

import libcst as cst

from jitlint.jaxfacts import (ARRAY_FILTERS, DTYPE_OBJECTS, ITERATOR_BUILTINS, FLAG_CALL_OVERRIDES, FLAG_LEAF_OBJECTS, PARTITIONS, LIBRARY_FUNCTIONS, NAMED_TUPLE_BASES, NON_ARRAY_LEAF_OBJECTS, NON_JAX_ENUM_BASES,
                              NON_JAX_RESULTS, NON_NUMERIC_DTYPE_BUILTINS, NON_NUMERIC_DTYPE_CODES,
                              NON_NUMERIC_DTYPE_NAMES, NUMPY_DTYPED_CONSTRUCTORS,
                              NUMPY_INFERRING_CONSTRUCTORS, PYTREE_CLASS_BASES, PYTREE_CLASS_DECORATORS,
                              PYTREE_REGISTRATIONS, NON_PYTREE_CLASS_BASES, NON_PYTREE_CLASS_DECORATORS,
                              PLAIN_CLASS_BASES, PLAIN_METACLASSES)
from jitlint.rule import FileContext
from jitlint.rules._context import calling_context
from jitlint.semantic import Binding, CallSite, Scope, argument_value, target_names
from jitlint.values import MUTATING_METHODS, annotated_fields, assigned, bound_values, unpacked_call, value_flow
from jitlint.walk import iter_nodes, own_nodes
from jitlint.walk import source_text as _src

STRINGS = (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)
STRING_BUILTINS = frozenset({"str", "repr", "ascii", "format", "chr", "hex", "oct", "bin"})
STRING_METHODS = frozenset({"format", "join", "upper", "lower", "strip", "replace", "title"})
# Methods that make a class a pytree (register_pytree_node_class): then `self` is a valid
# argument and jit flattens it.
PYTREE_METHODS = frozenset({"tree_flatten", "tree_unflatten", "tree_flatten_with_keys"})
# Methods that let an object stand for an array: not followed (JAX may convert it).
ARRAY_PROTOCOL = frozenset({"__jax_array__", "__array__"})
MAX_DEPTH = 4
# methods that change a dict or list in place: its display no longer says what it holds
_NON_NUMERIC_DTYPE_CODE = re.compile(NON_NUMERIC_DTYPE_CODES)

# kinds of values
STR, CLASS, FUNCTION, OBJECT, LIBRARY, FIELD = "str", "class", "function", "object", "library", "field"
ARRAY, RESULT, ENUM, LEAF, MODULE = "array", "result", "enum", "leaf", "module"
HALF = "half"  # the non-array half of a partitioned library object (``eqx.partition``)
ITERATOR = "iterator"  # ``iter(xs)``, ``zip(a, b)``, ``range(n)``, a generator: not flattened
FLAG = "flag"  # a library layer whose Python flags are leaves it tests (valid, but raises once run)
CONFIG = "config"  # an instance of a plain dataclass of Python values only: a config to keep static


@dataclass(frozen=True)
class NonJaxValue:
    kind: str  # str | class | function | object | library | field | array | result | enum | leaf
    what: str  # for messages: "a str ('add')", "the class `A`", ...
    # the class (object, class, enum), library object, str field (field), library call (result)
    # or pytree class (leaf) it is
    name: str = ""
    element: str = ""  # result: what its items are, when each is such a value too
    # where the fix goes, when that is a declaration of this module: the str field to mark
    # static, the plain @dataclass to register as a pytree
    declared: Optional[cst.CSTNode] = None


def non_jax_value(ctx: FileContext, expr: cst.BaseExpression, scope: Scope,
                  depth: int = 0) -> Optional[NonJaxValue]:
    """What ``expr`` is when it certainly evaluates to a value jit cannot trace, else None."""
    if depth > MAX_DEPTH:
        return None
    if isinstance(expr, STRINGS):
        kind = "bytes" if isinstance(expr, cst.SimpleString) and "b" in expr.prefix.lower() else "str"
        return NonJaxValue(STR, f"a {kind} ({_src(expr)})")
    if isinstance(expr, cst.Lambda):
        return NonJaxValue(FUNCTION, "a lambda")
    if isinstance(expr, cst.GeneratorExp):
        return NonJaxValue(ITERATOR, "a generator")
    if isinstance(expr, (cst.Tuple, cst.List)):
        return _container(ctx, [e for e in expr.elements], "tuple" if isinstance(expr, cst.Tuple) else "list",
                          scope, depth)
    if isinstance(expr, cst.Dict):
        return _container(ctx, expr.elements, "dict", scope, depth)
    if isinstance(expr, cst.IfExp):
        body = non_jax_value(ctx, expr.body, scope, depth + 1)
        return body if body is not None and non_jax_value(ctx, expr.orelse, scope, depth + 1) else None
    if isinstance(expr, cst.Call):
        return _call_value(ctx, expr, scope, depth)
    if isinstance(expr, (cst.Name, cst.Attribute)) and ctx.model.qualified_name(expr, scope) in LIBRARY_FUNCTIONS:
        return NonJaxValue(FUNCTION, f"the function `{_src(expr)}`")
    if isinstance(expr, cst.Name):
        return _name_value(ctx, expr, scope, depth)
    if isinstance(expr, cst.Attribute) and ctx.model.qualified_name(expr, scope) in DTYPE_OBJECTS:
        return NonJaxValue(CLASS, f"the dtype `{_src(expr)}` (a type object)")
    if isinstance(expr, cst.Attribute):
        member = _enum_member(ctx, expr, scope)
        if member is not None:
            return member
        cls = instance_class(ctx, expr.value, scope, depth + 1)
        return _field_value(ctx, cls, expr.attr.value, depth) if cls is not None else None
    if isinstance(expr, cst.Subscript) and len(expr.slice) == 1 and isinstance(expr.slice[0].slice, cst.Index):
        # ``jax.devices()[0]``: an item of a library result whose items are such values
        whole = non_jax_value(ctx, expr.value, scope, depth + 1)
        if whole is not None and whole.element:
            return NonJaxValue(whole.kind, f"{whole.element} (an item of {whole.what})", whole.name)
    return None


def _enum_member(ctx: FileContext, expr: cst.Attribute, scope: Scope) -> Optional[NonJaxValue]:
    """``Mode.TRAIN`` where ``Mode`` is an ``enum.Enum`` class of this module (not an int enum)."""
    if not isinstance(expr.value, cst.Name):
        return None
    binding = value_flow(ctx).single(expr.value, scope)
    if binding is None or binding.kind != "class" or not enum_class(ctx, binding.node, binding.scope):
        return None
    return NonJaxValue(ENUM, f"`{_src(expr)}`, a member of the enum `{expr.value.value}`", expr.value.value)


def enum_class(ctx: FileContext, cls: cst.CSTNode, scope: Scope) -> bool:
    """A class based on ``enum.Enum`` / ``Flag`` / ``StrEnum`` and not on ``int``: its members are
    not valid JAX types (``jaxfacts.NON_JAX_ENUM_BASES``)."""
    if not isinstance(cls, cst.ClassDef):
        return False
    bases = {ctx.model.qualified_name(b.value, scope) or (b.value.value if isinstance(b.value, cst.Name) else "")
             for b in cls.bases}
    return bool(bases & NON_JAX_ENUM_BASES) and "int" not in bases


def _container(ctx: FileContext, elements, kind: str, scope: Scope, depth: int) -> Optional[NonJaxValue]:
    for element in elements:
        if isinstance(element, (cst.StarredElement, cst.StarredDictElement)):
            return None
        inner = non_jax_value(ctx, element.value, scope, depth + 1)
        if inner is not None:
            return NonJaxValue(inner.kind, f"a {kind} holding {inner.what}", inner.name)
    return None


def _call_value(ctx: FileContext, call: cst.Call, scope: Scope, depth: int) -> Optional[NonJaxValue]:
    func = call.func
    model = ctx.model
    if isinstance(func, cst.Name) and func.value in STRING_BUILTINS and not model.lookup(func.value, scope):
        return NonJaxValue(STR, f"a str (`{_src(call)}`)")
    if isinstance(func, cst.Name) and func.value in ITERATOR_BUILTINS and not model.lookup(func.value, scope):
        return NonJaxValue(ITERATOR, f"`{_src(call)}`, a Python iterable that is no pytree")
    if isinstance(func, cst.Attribute) and isinstance(func.value, STRINGS) and func.attr.value in STRING_METHODS:
        return NonJaxValue(STR, f"a str (`{_src(call)}`)")
    qualname = model.qualified_name(func, scope)
    if qualname == "functools.partial":
        return NonJaxValue(FUNCTION, "a functools.partial")
    if qualname in DTYPE_OBJECTS and qualname.endswith(".dtype"):  # ``jnp.float32(1.0)`` is an array
        return NonJaxValue(CLASS, f"the dtype object `{_src(call)}`")
    if qualname in NON_ARRAY_LEAF_OBJECTS:
        short = qualname.replace("equinox.", "eqx.")
        return NonJaxValue(LIBRARY, f"an `{short}`: {NON_ARRAY_LEAF_OBJECTS[qualname]}", short)
    if qualname in FLAG_LEAF_OBJECTS:
        short = qualname.replace("equinox.", "eqx.")
        return NonJaxValue(FLAG, f"an `{short}`: {FLAG_LEAF_OBJECTS[qualname]}", short)
    if qualname in NON_JAX_RESULTS:
        fact = NON_JAX_RESULTS[qualname]
        return NonJaxValue(RESULT, f"{fact.what}, made by `{_src(call.func)}`", qualname, fact.element)
    array = _non_numeric_array(ctx, call, qualname, scope, depth)
    if array is not None:
        return array
    if isinstance(func, cst.Name):
        binding = value_flow(ctx).single(func, scope)
        if binding is not None and binding.kind == "class":
            cls = binding.node
            assert isinstance(cls, cst.ClassDef)
            if enum_class(ctx, cls, binding.scope):  # ``Mode("train")`` looks a member up
                return NonJaxValue(ENUM, f"`{_src(call)}`, a member of the enum `{cls.name.value}`",
                                   cls.name.value)
            if plain_class(ctx, cls, binding.scope):
                if python_values_dataclass(cls):  # a config: registering it would trace its ints
                    frozen = "frozen " if frozen_dataclass(cls) else ""
                    return NonJaxValue(CONFIG, f"an instance of `{cls.name.value}`, a plain {frozen}dataclass "
                                               f"of Python values (not a pytree)", cls.name.value)
                return NonJaxValue(OBJECT, f"an instance of `{cls.name.value}`, a plain class (not a "
                                           f"pytree)", cls.name.value, declared=cls if cls.decorators else None)
            base = next((q for b in cls.bases if (q := model.qualified_name(b.value, binding.scope))
                         in NON_PYTREE_CLASS_BASES), None)
            if base is not None and cls not in registered_classes(ctx):
                return NonJaxValue(MODULE, f"an instance of `{cls.name.value}`, a `{base}` (a frozen "
                                           f"dataclass, not a pytree)", cls.name.value)
            field = _str_leaf(ctx, cls, binding.scope)
            if field is not None:
                name = field.target.value  # type: ignore[union-attr]
                return NonJaxValue(FIELD, f"an instance of `{cls.name.value}`, a pytree whose field "
                                          f"`{name}` is a str (a leaf: every field not marked static "
                                          f"is one)", name, declared=field)
            return _leaf_argument(ctx, cls, call, scope, binding.scope, depth)
        if binding is not None and binding.kind == "def" and not binding.node.decorators:  # type: ignore[union-attr]
            return _returned_value(ctx, binding, depth)
    return None


def _non_numeric_array(ctx: FileContext, call: cst.Call, qualname: Optional[str], scope: Scope,
                       depth: int) -> Optional[NonJaxValue]:
    """A NumPy array of strings, bytes or objects: a non-numeric ``dtype=``, ``.astype(str)``, or
    ``np.array(data)`` without a dtype where the data holds a str (or a function, an object)."""
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value == "astype":
        dtype = call.args[0].value if call.args and call.args[0].keyword is None else None
        return _string_dtype_array(ctx, call, dtype, scope)
    if qualname not in NUMPY_DTYPED_CONSTRUCTORS or any(arg.star for arg in call.args):
        return None
    dtype = next((arg.value for arg in call.args if arg.keyword is not None and arg.keyword.value == "dtype"), None)
    if dtype is not None:
        return _string_dtype_array(ctx, call, dtype, scope)
    if qualname not in NUMPY_INFERRING_CONSTRUCTORS or not call.args or call.args[0].keyword is not None \
            or len([arg for arg in call.args if arg.keyword is None]) > 1:
        return None
    data = non_jax_value(ctx, call.args[0].value, scope, depth + 1)
    if data is None or data.kind == RESULT:
        return None
    items = "strings" if data.kind == STR else "Python objects"
    return NonJaxValue(ARRAY, f"a NumPy array of {items} (`{_src(call)}`: its data holds "
                              f"{data.what.removeprefix('a list holding ').removeprefix('a tuple holding ')})")


def _string_dtype_array(ctx: FileContext, call: cst.Call, dtype: Optional[cst.BaseExpression],
                        scope: Scope) -> Optional[NonJaxValue]:
    if dtype is None:
        return None
    if isinstance(dtype, cst.SimpleString):
        named = isinstance(dtype.evaluated_value, str) and _NON_NUMERIC_DTYPE_CODE.fullmatch(dtype.evaluated_value)
    elif isinstance(dtype, cst.Name) and dtype.value in NON_NUMERIC_DTYPE_BUILTINS:
        named = not ctx.model.lookup(dtype.value, scope)
    else:
        named = ctx.model.qualified_name(dtype, scope) in NON_NUMERIC_DTYPE_NAMES
    if not named:
        return None
    return NonJaxValue(ARRAY, f"a NumPy array of dtype {_src(dtype)} (`{_src(call)}`)")


def _leaf_argument(ctx: FileContext, cls: cst.ClassDef, call: cst.Call, scope: Scope, class_scope: Scope,
                   depth: int) -> Optional[NonJaxValue]:
    """``Optimizer(*optimizers.adam(1e-3))``: an instance of a pytree class of this module (a
    NamedTuple or pytree dataclass without its own ``__init__``) built with a value jit cannot
    take for a field that is a leaf (declared with no value, or a value that is no field marker)."""
    if not pytree_class(ctx, cls, class_scope):
        return None
    fields = leaf_fields(cls)
    if "__init__" in _methods(cls):
        return _leaf_set_in_init(ctx, cls, fields, depth)
    names = list(fields)
    for index, arg in enumerate(call.args):
        if arg.star == "*" and index == 0 and all(fields.values()):
            whole = non_jax_value(ctx, arg.value, scope, depth + 1)
            if whole is not None and whole.element:
                return NonJaxValue(LEAF, f"an instance of `{cls.name.value}`, a pytree whose fields are "
                                         f"the items of {whole.what}: each is {whole.element}, a leaf",
                                   cls.name.value)
        if arg.star:
            return None
        field = arg.keyword.value if arg.keyword is not None else names[index] if index < len(names) else None
        if field is None or not fields.get(field):
            continue
        inner = non_jax_value(ctx, arg.value, scope, depth + 1)
        if inner is not None and inner.kind != LEAF:
            return NonJaxValue(FLAG if inner.kind == FLAG else LEAF,
                               f"an instance of `{cls.name.value}`, a pytree whose field `{field}` holds "
                               f"{inner.what} (a leaf: every field not marked static is one)", cls.name.value)
    return None


def _leaf_set_in_init(ctx: FileContext, cls: cst.ClassDef, fields: dict[str, bool],
                      depth: int) -> Optional[NonJaxValue]:
    """An equinox-style pytree class with its own ``__init__``: a leaf field that its methods
    set to a value jit cannot take (``self.pool = eqx.nn.MaxPool2d(3)``), whatever the call
    passes."""
    flagged = None  # a field holding a flag layer: reported when no field is invalid outright
    for field, leaf in fields.items():
        values = field_assignments(ctx, cls, field) if leaf else None
        for value, scope in values or ():
            inner = non_jax_value(ctx, value, scope, depth + 1)
            if inner is None or inner.kind == LEAF:
                continue
            if inner.kind == FLAG and _flag_always_passed(cls, field, inner.name):
                continue  # every ``self.dropout(..., inference=...)`` overrides the traced field
            held = NonJaxValue(FLAG if inner.kind == FLAG else LEAF,
                               f"an instance of `{cls.name.value}`, a pytree whose field `{field}` holds "
                               f"{inner.what} (a leaf: every field not marked static is one)", cls.name.value)
            if held.kind != FLAG:
                return held
            flagged = flagged or held
    return flagged


def _flag_always_passed(cls: cst.ClassDef, field: str, layer: str) -> bool:
    """Every call of ``self.<field>(...)`` in the class passes the keyword that overrides the
    layer's flag field (``jaxfacts.FLAG_CALL_OVERRIDES``), with a value other than None."""
    keyword = FLAG_CALL_OVERRIDES.get(layer.replace("eqx.", "equinox."))
    calls = [node for node in iter_nodes(cls) if isinstance(node, cst.Call)
             and isinstance(node.func, cst.Attribute) and node.func.attr.value == field
             and isinstance(node.func.value, cst.Name) and node.func.value.value == "self"]
    return keyword is not None and bool(calls) and all(
        any(a.keyword is not None and a.keyword.value == keyword and not (
            isinstance(a.value, cst.Name) and a.value.value == "None") for a in call.args)
        for call in calls)


def class_decorators(ctx: FileContext, cls: cst.ClassDef, scope: Scope) -> set[Optional[str]]:
    """The qualified names of ``cls``'s decorators; a def of this module that returns a pytree
    registration of its parameter (``def pytree_dataclass(cls): ... return
    jax.tree_util.register_dataclass(cls)``) stands for that registration."""
    model = ctx.model
    found: set[Optional[str]] = set()
    for decorator in cls.decorators:
        func = decorator.decorator.func if isinstance(decorator.decorator, cst.Call) else decorator.decorator
        binding = model.single_binding(func.value, scope) if isinstance(func, cst.Name) else None
        if binding is not None and binding.kind == "def" and isinstance(binding.node, cst.FunctionDef):
            func_scope = model.scope_of.get(binding.node)
            returns = [r.value for r, f in model.returns if f.enclosing_function() is binding.node]
            if func_scope is not None and len(returns) == 1 and isinstance(returns[0], cst.Call) \
                    and (registered := model.qualified_name(returns[0].func, func_scope)) in PYTREE_CLASS_DECORATORS:
                found.add(registered)
                continue
        found.add(model.qualified_name(func, scope))
    return found


def pytree_class(ctx: FileContext, cls: cst.ClassDef, scope: Scope) -> bool:
    """A NamedTuple or pytree dataclass of this module (``jaxfacts.PYTREE_CLASS_*``)."""
    model = ctx.model
    decorators = class_decorators(ctx, cls, scope)
    bases = {model.qualified_name(b.value, scope) for b in cls.bases}
    kinds = PYTREE_CLASS_DECORATORS | PYTREE_CLASS_BASES | NAMED_TUPLE_BASES
    return bool((decorators | bases) & kinds) and not bases - kinds \
        and not decorators - kinds - {"dataclasses.dataclass"}


def _methods(cls: cst.ClassDef) -> set[str]:
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    return {s.name.value for s in body if isinstance(s, cst.FunctionDef)}


def leaf_fields(cls: cst.ClassDef) -> dict[str, bool]:
    """The annotated fields of a pytree class in order -> whether each is certainly a leaf (no
    value, or a plain default; a ``field(...)`` call may mark it static)."""
    return {field.target.value: not isinstance(field.value, cst.Call) for field in annotated_fields(cls)}


def _returned_value(ctx: FileContext, binding: Binding, depth: int) -> Optional[NonJaxValue]:
    """``mode()`` where every ``return`` of this module's def ``mode`` gives such a value."""
    function = binding.node
    assert isinstance(function, cst.FunctionDef)
    frame = ctx.model.functions.get(function)
    inner_scope = ctx.model.scope_of.get(function)
    if frame is None or inner_scope is None:
        return None
    found = None
    for node in own_nodes(function.body):
        if isinstance(node, cst.Return):
            if node.value is None:
                return None
            value = non_jax_value(ctx, node.value, inner_scope, depth + 1)
            if value is None:
                return None
            found = found or value
        elif isinstance(node, (cst.Yield, cst.Await)):
            return None
    if found is None:
        return None
    return NonJaxValue(found.kind, f"{found.what}, returned by `{function.name.value}()`", found.name)


def _name_value(ctx: FileContext, name: cst.Name, scope: Scope, depth: int) -> Optional[NonJaxValue]:
    # Every binding the scope rules allow first: the reaching-definitions analysis (a walk of
    # the whole scope) only when some, not all, of them are such a value.
    bindings = ctx.model.lookup(name.value, scope)
    values = {id(b): _binding_value(ctx, b, depth) for b in bindings}
    if not any(values.values()):
        return None
    if not all(values.values()):
        bindings = value_flow(ctx).reaching(name, scope)
    found = None
    for binding in bindings:
        value = values.get(id(binding))
        if value is None:
            return None
        found = found or value
    return found


def first_value(ctx: FileContext, name: cst.Name, scope: Scope,
                later: Callable[[Binding], bool]) -> Optional[NonJaxValue]:
    """``non_jax_value`` of ``name`` from the definitions that reach it other than those
    ``later`` picks (``model = step(model, ...)`` in the loop: that value exists only after a
    call that succeeded, so the value before the loop decides)."""
    bindings = value_flow(ctx).reaching(name, scope)
    first = [b for b in bindings if not later(b)]
    if not first or len(first) == len(bindings):
        return None
    values = [_binding_value(ctx, b, 0) for b in first]
    return values[0] if all(values) else None


def _binding_value(ctx: FileContext, binding: Binding, depth: int) -> Optional[NonJaxValue]:
    node = binding.node
    if binding.kind == "def":
        assert isinstance(node, cst.FunctionDef)
        jitted = any(ctx.resolver.resolve(d.decorator, binding.scope) is not None for d in node.decorators)
        if node.decorators and not jitted:
            return None  # a decorator may return anything
        return NonJaxValue(FUNCTION, f"the {'jitted ' if jitted else ''}function `{node.name.value}`")
    if binding.kind == "class":
        assert isinstance(node, cst.ClassDef)
        return NonJaxValue(CLASS, f"the class `{node.name.value}` (a type object)", node.name.value)
    if binding.kind == "param":
        return _param_value(ctx, binding, depth)
    if binding.kind == "loop-target" and isinstance(node, cst.For) and isinstance(node.target, cst.Name) \
            and isinstance(node.iter, (cst.List, cst.Tuple, cst.Set)) and node.iter.elements:
        # ``for split in ("train", "eval")``: every element must be one
        values = [non_jax_value(ctx, e.value, binding.scope, depth + 1)
                  if not isinstance(e, cst.StarredElement) else None for e in node.iter.elements]
        if all(values):
            return NonJaxValue(values[0].kind, f"{values[0].what}, taken from `{_src(node.iter)}`",  # type: ignore[union-attr]
                               values[0].name)  # type: ignore[union-attr]
    if binding.kind == "assign":
        value = assigned(binding).value
        if isinstance(value, (cst.Dict, cst.List)) and changed_in_place(ctx, binding.name):
            return None  # ``del batch["id"]`` may remove what the display holds
        if value is not None:
            return non_jax_value(ctx, value, binding.scope, depth + 1)
        return _partition_rest(ctx, binding, depth) or _unpacked_return(ctx, binding, depth)
    return None


def _unpacked_return(ctx: FileContext, binding: Binding, depth: int) -> Optional[NonJaxValue]:
    """``state, apply, actor_optimizer = init_shac(...)`` where every return of the module's
    ``init_shac`` puts such a value at that position (an optax chain built there)."""
    if depth > 3:
        return None
    elements = bound_values(ctx.model, value_flow(ctx), binding)
    values = [non_jax_value(ctx, value, scope, depth + 1) for value, scope in elements]
    if not values or not all(values):
        return None
    first, (call, _, _) = values[0], unpacked_call(binding)
    return NonJaxValue(first.kind, f"{first.what} (returned by `{_src(call.func)}`)", first.name)


def _partition_rest(ctx: FileContext, binding: Binding, depth: int) -> Optional[NonJaxValue]:
    """``static, params = eqx.partition(model, eqx.is_array)`` binding ``params``, the half
    holding ``model``'s non-array leaves (jaxfacts.PARTITIONS), of a model that holds some."""
    node = binding.node
    if not (isinstance(node, cst.Assign) and len(node.targets) == 1 and isinstance(node.value, cst.Call)
            and isinstance(node.targets[0].target, cst.Tuple) and len(node.value.args) == 2):
        return None
    call, scope = node.value, binding.scope
    rest = PARTITIONS.get(ctx.model.qualified_name(call.func, scope) or "")
    names = target_names(node.targets[0].target)
    if rest is None or len(names) != 2 or names[rest] != binding.name \
            or ctx.model.qualified_name(call.args[1].value, scope) not in ARRAY_FILTERS:
        return None
    whole = non_jax_value(ctx, call.args[0].value, scope, depth + 1)
    if whole is None or whole.kind not in (LIBRARY, LEAF):  # a model holding functions as leaves
        return None
    return NonJaxValue(HALF, f"the non-array half of `{_src(call)}` ({whole.what})", whole.name)


def changed_in_place(ctx: FileContext, name: str) -> bool:
    """An item of ``name`` is assigned or deleted, or a mutating method is called on it, anywhere
    in the module."""
    if any(root == name for root, _, _ in ctx.model.item_writes):
        return True
    return any(isinstance(site.node.func, cst.Attribute) and isinstance(site.node.func.value, cst.Name)
               and site.node.func.value.value == name
               for method in MUTATING_METHODS for site in ctx.model.calls_named(method))


def _param_value(ctx: FileContext, binding: Binding, depth: int = 0) -> Optional[NonJaxValue]:
    """A parameter annotated ``str``, ``cls`` of a classmethod, ``self`` of a plain class, or a
    parameter of a module function that every call of it in the module passes one such value
    (``eval_model(model, ...)`` with a Linen Module)."""
    param = binding.node
    if not isinstance(param, cst.Param):
        return None
    passed = _passed_to_param(ctx, binding, param, depth)
    if passed is not None:
        return passed
    if param.annotation is not None:
        annotation = param.annotation.annotation
        if isinstance(annotation, cst.Name) and annotation.value == "str" \
                and not ctx.model.lookup("str", binding.scope) \
                and (param.default is None or isinstance(param.default, STRINGS)):  # ``= None``: maybe None
            return NonJaxValue(STR, f"a str (`{param.name.value}: str`)")
        return None
    function = binding.scope.node
    if not isinstance(function, cst.FunctionDef):
        return None
    params = [*function.params.posonly_params, *function.params.params]
    frame = ctx.model.functions.get(function)
    if not params or params[0] is not param or frame is None or frame.scope.kind != "class":
        return None
    decorators = {d.decorator.value for d in function.decorators if isinstance(d.decorator, cst.Name)}
    cls = frame.scope.node
    assert isinstance(cls, cst.ClassDef)
    if "staticmethod" in decorators:
        return None
    if "classmethod" in decorators:
        return NonJaxValue(CLASS, f"the class `{cls.name.value}` (`{param.name.value}` of a classmethod)",
                           cls.name.value)
    if plain_class(ctx, cls, frame.scope.parent or frame.scope) and not _subclassed(ctx, cls):
        return NonJaxValue(OBJECT, f"`{param.name.value}`, an instance of `{cls.name.value}`, a plain "
                                   f"class (not a pytree)", cls.name.value)
    return None


def _passed_to_param(ctx: FileContext, binding: Binding, param: cst.Param, depth: int) -> Optional[NonJaxValue]:
    """The non-JAX value every call in the module passes for ``param`` (by position or
    keyword; CallingContext.passed_to: a module function's calls, a method's through its
    instances), when there is one and all agree on its kind."""
    function = binding.scope.node
    if depth > MAX_DEPTH or not isinstance(function, cst.FunctionDef) or function.decorators:
        return None
    values = calling_context(ctx).passed_to(binding)
    found = None
    for given, site in values or ():
        value = non_jax_value(ctx, given, site.frame.scope, depth + 1)
        if value is None or (found is not None and value.kind != found.kind):
            return None
        found = found or value
    return found


# ---------------------------------------------------------------------------- instances
def instance_class(ctx: FileContext, expr: cst.BaseExpression, scope: Scope,
                   depth: int) -> Optional[tuple[cst.ClassDef, Scope]]:
    """(class, the scope it is defined in) when ``expr`` is an instance of a class of this
    module: ``self`` in its methods, a parameter annotated with it, a name bound to ``C(...)``."""
    if depth > MAX_DEPTH or not isinstance(expr, cst.Name):
        return None
    binding = value_flow(ctx).single(expr, scope)
    if binding is None:
        return None
    if binding.kind == "assign":
        value = assigned(binding).value
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Name):
            return _local_class(ctx, value.func, binding.scope)
        return None
    if binding.kind != "param" or not isinstance(binding.node, cst.Param):
        return None
    param = binding.node
    if param.annotation is not None:
        annotation = param.annotation.annotation
        return _local_class(ctx, annotation, binding.scope) if isinstance(annotation, cst.Name) else None
    function = binding.scope.node
    frame = ctx.model.functions.get(function) if isinstance(function, cst.FunctionDef) else None
    if frame is None or frame.scope.kind != "class":
        return None
    params = [*function.params.posonly_params, *function.params.params]  # type: ignore[union-attr]
    if not params or params[0] is not param or any(
            isinstance(d.decorator, cst.Name) and d.decorator.value in ("staticmethod", "classmethod")
            for d in function.decorators):  # type: ignore[union-attr]
        return None
    cls = frame.scope.node
    assert isinstance(cls, cst.ClassDef)
    return cls, frame.scope.parent or frame.scope


def _local_class(ctx: FileContext, name: cst.Name, scope: Scope) -> Optional[tuple[cst.ClassDef, Scope]]:
    binding = value_flow(ctx).single(name, scope)
    if binding is None or binding.kind != "class":
        return None
    return binding.node, binding.scope  # type: ignore[return-value]


def _field_value(ctx: FileContext, found: tuple[cst.ClassDef, Scope], attr: str,
                 depth: int) -> Optional[NonJaxValue]:
    """``obj.attr`` of an instance of a class of this module: its class-body annotation says
    ``str``, or every ``self.attr = v`` in its methods assigns such a value."""
    cls, scope = found
    annotation = class_annotation(cls, attr)
    if annotation is not None:
        if isinstance(annotation, cst.Name) and annotation.value == "str":
            return NonJaxValue(STR, f"a str (field `{cls.name.value}.{attr}: str`)")
        if isinstance(annotation, cst.Name):
            binding = ctx.model.single_binding(annotation.value, scope)
            if binding is not None and enum_class(ctx, binding.node, binding.scope):
                return NonJaxValue(ENUM, f"a member of the enum `{annotation.value}` (field "
                                         f"`{cls.name.value}.{attr}: {annotation.value}`)", annotation.value)
        return None
    assignments = field_assignments(ctx, cls, attr)
    found_value = None
    for value, scope in assignments or ():
        inner = non_jax_value(ctx, value, scope, depth + 1)
        if inner is None:
            return None
        found_value = found_value or inner
    if found_value is None:
        return None
    return NonJaxValue(found_value.kind, f"{found_value.what} (stored in `self.{attr}`)", found_value.name)


def class_annotation(cls: cst.ClassDef, attr: str) -> Optional[cst.BaseExpression]:
    """The annotation of a field declared without a value in the class body (``mode: str``),
    with a dataclass field spec (``mode: Mode = dataclasses.field(metadata=dict(static=True))``),
    or with a str default that agrees with it (``neighborlist_format: str = 'sparse'``)."""
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    for statement in body:
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) \
                    and small.target.value == attr and (small.value is None or isinstance(small.value, cst.Call)
                                                        or isinstance(small.value, STRINGS)):
                return small.annotation.annotation
    return None


def field_assignments(ctx: FileContext, cls: cst.ClassDef, attr: str
                      ) -> Optional[list[tuple[cst.BaseExpression, Scope]]]:
    """(value, scope) of every ``self.attr = value`` in the methods of ``cls``; None when the
    attribute is also written otherwise (``self.attr += 1``, outside the class, a class-level
    value) and so not known from these."""
    if _written_elsewhere(ctx, cls, attr):
        return None
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    found: list[tuple[cst.BaseExpression, Scope]] = []
    for statement in body:
        if isinstance(statement, cst.SimpleStatementLine) and any(
                isinstance(small, (cst.Assign, cst.AnnAssign)) and small.value is not None
                and any(isinstance(t, cst.Name) and t.value == attr
                        for t in ([small.target] if isinstance(small, cst.AnnAssign)
                                  else [t.target for t in small.targets]))
                for small in statement.body):
            return None
        if not isinstance(statement, cst.FunctionDef):
            continue
        params = [*statement.params.posonly_params, *statement.params.params]
        method_scope = ctx.model.scope_of.get(statement)
        if not params or method_scope is None:
            continue
        own = params[0].name.value
        for node in own_nodes(statement.body):
            if isinstance(node, cst.Assign):
                targets, value = [t.target for t in node.targets], node.value
            elif isinstance(node, (cst.AnnAssign, cst.AugAssign)):
                targets, value = [node.target], node.value if isinstance(node, cst.AnnAssign) else None
            else:
                continue
            for target in targets:
                if isinstance(target, cst.Attribute) and target.attr.value == attr \
                        and isinstance(target.value, cst.Name) and target.value.value == own:
                    if value is None:
                        return None
                    found.append((value, method_scope))
                elif isinstance(target, (cst.Tuple, cst.List)) and any(
                        isinstance(e.value, cst.Attribute) and e.value.attr.value == attr for e in target.elements):
                    return None  # ``self.a, self.b = ...``: not followed
    return found


def _written_elsewhere(ctx: FileContext, cls: cst.ClassDef, attr: str) -> bool:
    """``obj.attr = ...`` outside the class's own methods (or ``setattr``): not followed."""
    for root, frame, write in ctx.model.item_writes:
        target = getattr(write, "target", None)
        if isinstance(target, cst.Attribute) and target.attr.value == attr:
            if not any(f.node is cls for f in frame):
                return True
    return False


# ---------------------------------------------------------------------------- plain classes
def plain_class(ctx: FileContext, cls: cst.CSTNode, scope: Optional[Scope]) -> bool:
    """A class (written in ``scope``) whose instances JAX sees as plain objects, not pytrees: no
    base but ``object``, plain classes of this module (none defining ``__init_subclass__``, which
    may register each subclass) and library bases that make no pytree (``abc.ABC``:
    jaxfacts.PLAIN_CLASS_BASES); no metaclass but plain ones (``abc.ABCMeta``); no decorator but
    ones that make no pytree (``@dataclass``, ``@attr.s``); no ``tree_flatten`` nor
    ``__jax_array__``; not registered by a call in this module."""
    if not isinstance(cls, cst.ClassDef) or scope is None:
        return False
    if any(ctx.model.qualified_name(d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator, scope)
           not in NON_PYTREE_CLASS_DECORATORS for d in cls.decorators):
        return False
    if any(keyword.keyword is None or keyword.keyword.value != "metaclass"
           or ctx.model.qualified_name(keyword.value, scope) not in PLAIN_METACLASSES for keyword in cls.keywords):
        return False  # a metaclass may make a pytree of each class
    for base in cls.bases:
        if isinstance(base.value, cst.Name) and base.value.value == "object" \
                or ctx.model.qualified_name(base.value, scope) in PLAIN_CLASS_BASES:
            continue
        local = calling_context(ctx).class_of(base.value, scope)
        if local is None or local is cls or _defines(local, "__init_subclass__") \
                or not plain_class(ctx, local, ctx.model.scope_of[local].parent):
            return False
    if _defines(cls, *PYTREE_METHODS, *ARRAY_PROTOCOL):
        return False
    return cls not in registered_classes(ctx) and not registers_dynamically(ctx)


def _defines(cls: cst.ClassDef, *names: str) -> bool:
    return isinstance(cls.body, cst.IndentedBlock) and any(
        isinstance(s, cst.FunctionDef) and s.name.value in names for s in cls.body.body)


_PYTHON_VALUE_TYPES = frozenset({"int", "float", "bool", "str", "complex", "None"})
_VALUE_CONTAINERS = frozenset({"Optional", "Union", "Tuple", "tuple", "Literal"})


def python_values_dataclass(cls: cst.ClassDef) -> bool:
    """A ``@dataclass`` whose fields are all annotated as Python values (``int``, ``str``,
    ``Optional[float]``, ``Tuple[int, ...]``): a config, whose values code uses as Python
    values (sizes, flags), so it belongs static, not registered as a pytree of traced leaves."""
    fields = annotated_fields(cls)
    return bool(cls.decorators) and bool(fields) and all(
        _python_value_annotation(field.annotation.annotation) for field in fields)


def _python_value_annotation(annotation: cst.BaseExpression) -> bool:
    if isinstance(annotation, cst.Name):
        return annotation.value in _PYTHON_VALUE_TYPES
    if isinstance(annotation, cst.BinaryOperation) and isinstance(annotation.operator, cst.BitOr):
        return _python_value_annotation(annotation.left) and _python_value_annotation(annotation.right)
    if isinstance(annotation, cst.Subscript):
        head = annotation.value.attr.value if isinstance(annotation.value, cst.Attribute) else \
            getattr(annotation.value, "value", None)
        if head == "Literal":
            return True
        return head in _VALUE_CONTAINERS and all(
            isinstance(e.slice, cst.Index) and (isinstance(e.slice.value, cst.Ellipsis)
                                                or _python_value_annotation(e.slice.value))
            for e in annotation.slice)
    return False


def frozen_dataclass(cls: cst.ClassDef) -> bool:
    """``@dataclass(frozen=True)``: instances hash by their fields (a plain ``@dataclass`` sets
    ``__hash__`` to None, so it cannot be a static argument)."""
    return any(isinstance(d.decorator, cst.Call) and any(
        a.keyword is not None and a.keyword.value in ("frozen", "unsafe_hash")
        and isinstance(a.value, cst.Name) and a.value.value == "True" for a in d.decorator.args)
        for d in cls.decorators)


def registers_dynamically(ctx: FileContext) -> bool:
    """The module registers pytree nodes for classes it finds at run time
    (``for cls in model.classes(): register_pytree_node(cls, ...)``, PyAutoFit's
    ``register_model``): any of its classes may be a pytree by the time jit sees it."""
    return ctx.shared("pytree-registrations", _registrations)[1]


def _str_leaf(ctx: FileContext, cls: cst.ClassDef, scope: Scope) -> Optional[cst.AnnAssign]:
    """A field annotated ``str`` (no static marker) of a pytree class of this module: a flax.struct
    or chex dataclass, an equinox Module, a NamedTuple (``jaxfacts.PYTREE_CLASS_*``)."""
    model = ctx.model
    if not pytree_class(ctx, cls, scope):
        return None
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    for statement in body:
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) \
                    and isinstance(small.annotation.annotation, cst.Name) \
                    and small.annotation.annotation.value == "str" and not model.lookup("str", scope) \
                    and (small.value is None or isinstance(small.value, STRINGS)):
                return small
    return None


def registered_classes(ctx: FileContext) -> set[cst.CSTNode]:
    """Classes of this module made pytrees by a call: ``register_pytree_node(Cls, ...)``."""
    return ctx.shared("pytree-registrations", _registrations)[0]


def _registrations(ctx: FileContext) -> tuple[set[cst.CSTNode], bool]:
    """(the classes the module's registration calls name, whether one registers a class found
    at run time: a loop variable, an attribute, a call)."""
    found: set[cst.CSTNode] = set()
    dynamic = False
    for site in ctx.model.calls:
        args = site.node.args
        if not args or args[0].keyword is not None \
                or ctx.model.qualified_name(site.node.func, site.frame.scope) not in PYTREE_REGISTRATIONS:
            continue
        value = args[0].value
        bindings = ctx.model.bindings_at(value, site.frame.scope) if isinstance(value, cst.Name) else []
        if not bindings or not all(isinstance(b.node, cst.ClassDef) or b.kind == "param" for b in bindings):
            dynamic = True
        for binding in bindings:
            if isinstance(binding.node, cst.ClassDef):
                found.add(binding.node)
            elif binding.kind == "param" and isinstance(binding.scope.node, cst.FunctionDef):
                found.update(_classes_passed(ctx, binding.scope.node, binding.name))  # a helper that registers
    return found, dynamic


def _classes_passed(ctx: FileContext, helper: cst.FunctionDef, param: str) -> set[cst.CSTNode]:
    """The classes of this module the calls of ``helper`` by name pass as ``param``
    (``_register(SolverRuntime, meta=(...))`` around ``register_dataclass(cls, ...)``)."""
    model = ctx.model
    positional = [p.name.value for p in (*helper.params.posonly_params, *helper.params.params)]
    position = positional.index(param) if param in positional else None
    found: set[cst.CSTNode] = set()
    for site in model.calls_named(helper.name.value):
        if not isinstance(site.node.func, cst.Name) \
                or not any(b.node is helper for b in model.bindings_at(site.node.func, site.frame.scope)):
            continue
        value = argument_value(site.node, position, param)
        if isinstance(value, cst.Name):
            found.update(b.node for b in model.bindings_at(value, site.frame.scope) if isinstance(b.node, cst.ClassDef))
    return found


def _subclassed(ctx: FileContext, cls: cst.ClassDef) -> bool:
    """A class of this module names ``cls`` as a base: ``self`` may be an instance of it."""
    return any(isinstance(b.value, cst.Name) and b.value.value == cls.name.value
               for other in ctx.model.classes for b in other.bases)


def narrowed_to_str(ctx: FileContext, expr: cst.BaseExpression, site: CallSite) -> Optional[NonJaxValue]:
    """``if isinstance(mode, str): f(x, mode)``: the call runs only when the name is a str."""
    if not isinstance(expr, cst.Name):
        return None
    for test_if in site.frame.ifs_in_scope():
        test = test_if.test
        if isinstance(test, cst.Call) and isinstance(test.func, cst.Name) and test.func.value == "isinstance" \
                and not ctx.model.lookup("isinstance", site.frame.scope) and len(test.args) == 2 \
                and isinstance(test.args[0].value, cst.Name) and test.args[0].value.value == expr.value \
                and isinstance(test.args[1].value, cst.Name) and test.args[1].value.value == "str" \
                and any(node is site.node for node in iter_nodes(test_if.body)):
            return NonJaxValue(STR, f"a str (inside `if {_src(test)}:`)")
    return None


def flattened_children(flatten: cst.FunctionDef) -> dict[str, cst.CSTNode]:
    """The ``self.<field>`` values among the children ``tree_flatten`` returns (``params =
    (self.a, self.b)``, ``params += (self.c,)``, ``return params, aux``): leaves, traced in an
    instance jit traces."""
    return flattened_fields(flatten, 0)


def flattened_fields(flatten: cst.FunctionDef, part: int) -> dict[str, cst.CSTNode]:
    """The ``self.<field>`` values in part ``part`` (0: children, 1: aux data) of what
    ``tree_flatten`` returns, also through names assigned (or extended with ``+=``) in it."""
    found: dict[str, cst.CSTNode] = {}
    assigned_in: dict[str, list[cst.BaseExpression]] = {}
    for node in iter_nodes(flatten):
        if isinstance(node, cst.Assign):
            for t in node.targets:
                if isinstance(t.target, cst.Name):
                    assigned_in.setdefault(t.target.value, []).append(node.value)
        elif isinstance(node, cst.AugAssign) and isinstance(node.target, cst.Name):
            assigned_in.setdefault(node.target.value, []).append(node.value)
    for node in iter_nodes(flatten):
        if isinstance(node, cst.Return) and isinstance(node.value, cst.Tuple) and len(node.value.elements) == 2:
            value = node.value.elements[part].value
            # ``aux_data = (self.x,)`` ... ``return children, aux_data``
            values = assigned_in.get(value.value, [value]) if isinstance(value, cst.Name) else [value]
            for n in (n for v in values for n in iter_nodes(v)):
                if isinstance(n, cst.Attribute) and isinstance(n.value, cst.Name) and n.value.value == "self":
                    found.setdefault(n.attr.value, n)
    return found
