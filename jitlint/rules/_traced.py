"""Shared analysis for JIT8xx: Python operations that need a concrete value, applied to traced
values inside a jitted function.

Which names are traced: a small forward dataflow over the jitted def (and the functions,
lambdas and comprehensions inside it).  The jitted def's traced parameters (see ``_jitted``) are
traced; a read of a name is traced when *every* binding of it that reaches the read
(``values.ValueFlow``) is (so where both ``n = x.shape[0]`` and ``n = x`` may reach, ``n`` is
concrete: precision first).  An expression is traced when it is
built from traced values by arithmetic, comparison, indexing, array attributes (``.T``,
``.at``; ``x.at[i].set(v)`` with a traced ``v``), a jax.Array method (``.sum()``,
``.astype()``), an item of a container of the trace written with a traced value
(``params[k] = ...`` then ``params["a"]``; a write to another literal key does not count), or
a ``jax.numpy`` / ``jax.lax`` /
``jax.nn`` / ``jax.scipy`` / ``jax.random`` function whatever its arguments (jit stages every
one out: ``jnp.array([0, 1])`` in a jitted body is a tracer), a numpy function that calls
the array's own method (``np.sum(x)``), or a library call whose result is a tracer in a traced
body (``jaxfacts.TRACED_RESULT_CALLS``: a numpyro sample site).  Concrete whatever
their input: ``.shape``, ``.ndim``, ``.dtype``, ``.size``, ``len()``, ``isinstance()``, ``is`` /
``in`` comparisons,
``jnp.shape()`` and friends, containers (tuples, lists, dicts), results of user functions,
other attributes (maybe static fields of a custom pytree; the array-annotated fields of this
module's pytree dataclasses are traced), names from outside the jitted
function, static parameters, and parameters with defaults unless a call in the module passes
them.  Module functions the body calls with traced arguments are analysed in turn (up to
``MAX_HELPER_DEPTH``), with the parameters receiving them traced.  An instance of a class of
this module built in the trace from traced values (``prob = LinearProblem(cost, tau_a=t)``) holds
tracers in the attributes its ``__init__`` stores them in (``HeldObject``): reading one is
traced, a ``@property`` that returns a value built from one is (unless it raises itself), and
its methods (``schedule.learning_rate()``) and the functions it is handed to
(``Sinkhorn()(prob)``) are analysed with those attributes traced.  Dicts with literal str keys
handed to a helper (or a list of them: ``[{"key": name, "val": p[name]} for ...]``) keep which
keys hold tracers (``record_params``): ``record["key"]`` there is concrete, ``record["val"]``
traced, also for ``for record in records``.

Besides jitted defs, the analysis starts from the functions a ``jaxfacts.TRACING_CALLS`` call
traces (``jax.vmap(f)``, ``lax.scan(f, ...)``, ``jax.grad(f)``; under ``jax.grad`` alone the
tracers carry values, so only conversions that raise there count), the parameters that
``jax.jit(functools.partial(f, ...))`` leaves open, and a flax.linen Module's ``__call__``
under ``jax.jit(model.apply)`` (followed from ``model.apply(...)`` in traced code too; a
Module built there, ``Net(training=t).apply(...)``, has the fields given traced values traced).  Under
``equinox.filter_jit`` the parameters every call passes an array or a pytree Module of this
module are traced, and ``model(x)`` (or ``model.method(x)``) is followed into the Module's
method; under ``nnx.jit`` every parameter is traced and an ``nnx.Module`` of this module is
followed the same way (``self.linear(x)``, a layer built in ``__init__`` / ``setup``, is an
array).  A transform called in traced code (``jax.value_and_grad(loss)(params, flag)``) is
followed into its function.  A library call that traces its functions when it runs
(``TRACING_CALLS`` with ``given``: numpyro's NUTS / SVI models) starts the analysis as jit
does, with only the ``given`` parameters traced.

Findings (kinds): ``bool`` Python control flow / ``and`` / ``or`` / ``not`` on a traced value
(JIT801), ``convert`` int()/float()/bool()/complex()/.item()/.tolist(), a traced shape, bound,
slice bound, list index or size/axis argument, also at the call of a jitted jax function
(JIT802), ``numpy`` a
numpy function that converts its argument or a NumPy array indexed by a traced value (JIT803),
``print`` of a traced value (JIT804), ``shape`` a boolean-mask index or a function whose output
size depends on traced data without its ``size=`` (JIT806), ``hash`` a traced value hashed:
``hash(x)``, ``set(xs)``, a set element or dict key, ``in`` a set or dict, a dict lookup, a call
of an ``lru_cache`` function, ``jax.jit(hash)`` (JIT809).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
import re
import string
from typing import Callable, Iterator, NamedTuple, Optional, Sequence

import libcst as cst

from jitlint.jaxfacts import (ARRAY_NAMESPACE_GETTERS, AXIS_KEEPING_RESULTS, HOST_CALLBACKS, NAMED_TUPLE_BASES, TRACE_ERROR_CATCHERS, ARGUMENT_TRACED_LIBRARY_FUNCTIONS, JAX_ARRAY_NAMESPACES, NUMPY_KEEPING_JNP_FUNCTIONS, VALIDATION_HOOKS, NUMPY_CONVERTING_METHODS, STAGING_TRACES, UNFUNCTIONALIZED_CALLS, UnfunctionalizedCall, TREE_MAPS, FUNCTION_TRANSFORMS, FUNCTION_TRANSFORM_WRAPPERS, PYTHON_VALUE_ATTRIBUTES, BOOLEAN_RESULT_FUNCTIONS, BOOL_DTYPES, COMPILE_TIME_EVAL_CONTEXTS, MASK_KEEPING_METHODS, SHAPE_JOINING_CALLS, CONCRETE_METHOD_PARAMS, CONCRETE_PARAMS,
                              DATA_SIZED_METHODS, DATA_SIZED_OUTPUTS, DIFFERENTIATED_VALUE_CONVERSIONS,
                              HASHING_BUILTINS, HASHING_DECORATORS, HASHING_FUNCTIONS, HASHING_SYNTAX,
                              LEAF_FIELD_DATACLASSES, NUMPY_ARRAY_CONSTRUCTORS,
                              ARRAY_METHODS, DISTRIBUTION_METHODS, NUMPY_ARRAY_METHOD_FUNCTIONS, NUMPY_CONVERTING_FUNCTIONS,
                              NUMPY_CONVERTING_SUBMODULES, NUMPY_MODULES_WITHOUT_JAX_TWIN, SCIPY_ARRAY_API_SWITCH, SCIPY_JAX_JIT_FUNCTIONS, PYTHON_BOUND_BUILTINS, PYTHON_COMPARING_BUILTINS,
                              PYTHON_CONVERTING_FUNCTIONS, PYTHON_TRUTH_BUILTINS, PYTHON_VALUE_BUILTINS, PYTHON_VALUE_METHODS,
                              PYTHON_VALUE_SYNTAX, PYTREE_CLASS_BASES, PYTREE_CLASS_DECORATORS, PYTREE_METADATA_DECORATORS,
                              SCHEDULE_PARAMS, SEQUENCE_CONVERTING_FUNCTIONS, SIGNATURE_PRESERVING_TRANSFORMS,
                              APPLIED_MODULE_BASES, STAGED_LIBRARY_FUNCTIONS, STATIC_FIELD_MARKERS, TRACER_TYPES, TYPE_DISPATCH_DECORATORS, ARRAY_DISPATCH_CLASSES, TRACED_RESULT_CALLS, TRACING_CALLS, JIT_DISABLED_FLAGS,
                              DataSizedOutput, PYTHON_INT_RANGE, X64_FLAG,
                              TracingCall, concrete_param)
from jitlint.callgraph import LIBRARIES
from jitlint.jitnames import FILTERING_JIT_FUNCTIONS, JIT_FUNCTIONS
from jitlint.project import absolute, module_name_for
from jitlint.rule import FileContext
from jitlint.rules._arguments import STRINGS, class_decorators, flattened_children
from jitlint.rules._context import (live_applications, inherited_method, overriding_methods, PARTIAL_CONSTRUCTORS, bound_method_target,
                                    calling_context, class_methods)
from jitlint.rules._jitted import (TRACING_JITS, FunctionLike, JittedFunction, binds_name, jitted_calls, static_names,
                                   jitted_functions, jitted_lambdas, name_loads, positional_params,
                                   scopes_within, states_container, container_annotation,
                                   strict_array_annotation)
from jitlint.rules._lifted import nondiff_spec_of, static_positions as lifted_static_positions
from jitlint.rules._nnx import NNX_JIT, linen_self_method
from jitlint.walk import own_nodes
from jitlint.rules._static import fields_passed, jitted_call_sites, jitted_callee, jitted_reference, map_arguments
from jitlint.semantic import (Binding, CallSite, Frame, Scope, SemanticModel, argument_value,
                              dotted_name, has_decorator, is_none, target_names)
from jitlint.staticargs import ARGNUM_JITS, SPEC_KEYWORDS, StaticArgSpec, literal, spec_errors, spec_of
from jitlint.values import (GROW_METHODS, annotated_fields, array_made_by, fields_set_in_init, literal_truth, assigned, class_attribute_value, function_returns, int_constant, returned_made_function,
                            method_of_self, self_attribute_value, value_flow)
from jitlint.walk import Walker, is_docstring, iter_nodes
from jitlint.walk import source_text as _src

CONCRETE_ATTRIBUTES = frozenset({"shape", "ndim", "dtype", "size", "aval", "sharding",
                                 "weak_type", "itemsize", "nbytes", "device"})
# Attributes of a jax.Array that give traced arrays (its methods: jaxfacts.ARRAY_METHODS).
ARRAY_ATTRIBUTES = frozenset({"T", "mT", "real", "imag", "at", "flat"})
# ... except these, which return Python values, dtypes, shapes or functions.
CONCRETE_FUNCTIONS = frozenset({
    "jax.numpy.shape", "jax.numpy.ndim", "jax.numpy.size", "jax.numpy.result_type",
    "jax.numpy.dtype", "jax.numpy.iinfo", "jax.numpy.finfo", "jax.numpy.issubdtype",
    "jax.numpy.isdtype", "jax.numpy.can_cast", "jax.numpy.promote_types", "jax.numpy.isscalar",
    "jax.numpy.iscomplexobj", "jax.numpy.isrealobj", "jax.numpy.broadcast_shapes",
    "jax.lax.broadcast_shapes", "jax.numpy.vectorize", "jax.numpy.frompyfunc",
    "jax.numpy.printoptions", "jax.numpy.get_printoptions", "jax.lax.padtype_to_pads",
    "jax.lax.conv_dimension_numbers", "jax.lax.axis_size", "jax.lax.dtype",
})
CONCRETE_NAMESPACES = ("jax.nn.initializers.",)  # initializers: functions
# Traced only with a traced argument: ``lax.psum(1, "i")`` is the axis size, a Python int.
ARGUMENT_TRACED_FUNCTIONS = frozenset({"jax.lax.psum"})
# Keywords of a signature-preserving transform's partial that leave every argument as the call
# passes it (not checkpoint's static_argnums, which makes one static).
TRACEDNESS_KEEPING_KEYWORDS = frozenset({"in_axes", "out_axes", "argnums", "has_aux", "axis_name",
                                         "axis_size", "holomorphic", "allow_int", "prevent_cse", "policy"})
# Pytree dataclasses: a field not marked static is a leaf, traced when the instance is.
PYTREE_DATACLASS_DECORATORS = PYTREE_CLASS_DECORATORS
PYTREE_DATACLASS_BASES = PYTREE_CLASS_BASES
EQUINOX_MODULE_BASES = frozenset({"equinox.Module"})
# Field types that are no valid JAX type: as a leaf, the jit call raises (JIT807), nothing is traced.
NON_JAX_FIELD_TYPES = frozenset({"str", "bytes"})
# Their unflatten calls __init__, so jit runs ``__post_init__`` on traced leaves (measured for
# flax.struct, jax_dataclasses and register_dataclass; equinox and chex are not assumed to).
REINITIALISED_PYTREES = frozenset({"flax.struct.dataclass", "flax.struct.PyTreeNode",
                                   "jax_dataclasses.pytree_dataclass",
                                   "jax.tree_util.register_dataclass"})
# ``jnp.array`` (the function) is a common spelling of the type in annotations (scarlet2)
ARRAY_ANNOTATIONS = frozenset({"jax.Array", "jax.numpy.ndarray", "jax.numpy.array", "chex.Array", "jaxtyping.Array"})
# Layers of these libraries, built and called at once (``nn.Dense(4)(x)``), return arrays:
# traced when an argument is.
LAYER_NAMESPACES = ("flax.linen.", "flax.nnx.", "equinox.nn.", "haiku.")
NNX_MODULE_BASES = frozenset({"flax.nnx.Module"})
# Builtins whose result is a traced array when their argument is one.
TRACED_BUILTINS = frozenset({"abs", "sum", "pow", "round"})
MAPPING_METHODS = frozenset({"get", "items", "keys", "values"})  # a dict's, no jax.Array's
MAX_HELPER_DEPTH = 5
# The JIT8xx rules' prefilter words: a file that names no jit may still trace code through these.
# The lax ones (JIT520 parses those files anyway) and the libraries' (numpyro's NUTS, ...: rare
# words); not JAX's own transforms: adding jax.vmap and jax.grad parsed 74 more files of the JAX
# corpus and cost 9% of a cold run; in a file that also names jit (or a lax loop) the functions
# they trace are analysed all the same.
# Library methods that trace a function they are given (``self.param(name, init_fn)``): a
# class's method, named after the class (``flax.linen.Module.param``) -> the function's position.
TRACING_METHODS = {name: fact.functions[0][0] for name, fact in TRACING_CALLS.items()
                   if name.split(".")[-2][:1].isupper()}
TRACING_CALL_NAMES = frozenset(name for name in TRACING_CALLS if name not in TRACING_METHODS
                               and (name.startswith("jax.lax.") or not name.startswith("jax.")))
# ... and the libraries whose tracing callables code picks at run time
# (``getattr(jaxopt, self.solver_name)(fun=loss)``: _chosen_library_callable)
CHOOSABLE_TRACING_MODULES = frozenset(name.rpartition(".")[0] for name in TRACING_CALL_NAMES
                                      if not name.startswith("jax."))
# ... and JAX's own transforms, which make a file worth parsing when the function handed to one
# does a Python-value operation (project.transformed_function_forces)
TRACING_TRANSFORM_NAMES = frozenset(TRACING_CALLS) - TRACING_CALL_NAMES
_TRACING_CALL_LAST_NAMES = frozenset(name.rpartition(".")[2] for name in TRACING_CALLS)
_TREE_MAP_LAST_NAMES = frozenset(name.rpartition(".")[2] for name in TREE_MAPS)
# A truth test of a tracer: TracerBoolConversionError for one element; an array of more than one
# raises Python's ValueError ("truth value of an array ... is ambiguous") first (measured).
# builtin types a jax array (or its tracer) is never an instance of
PYTHON_CONTAINER_TYPES = frozenset({"dict", "list", "tuple", "set", "frozenset", "str", "bytes", "int", "float",
                                    "bool", "complex"})
TRUTH_ERROR = f"{PYTHON_VALUE_SYNTAX['truth test']} (ValueError if it holds more than one element)"
JITTED_HERE = "jitted here"
# jits whose outputs are tracers when called inside another jit's trace, static inputs or not
# (measured; eqx.filter_jit hands non-array outputs back as they are)
NESTED_TRACING_JITS = TRACING_JITS | {NNX_JIT}


# The uses that raise as they are traced (a ``print`` of a tracer does not; an int32 overflow
# wraps silently).
RAISING_KINDS = frozenset({"bool", "convert", "numpy", "shape", "hash", "dispatch", "nondiff", "unfunctionalized"})
# Those that raise at the use itself, while tracing (not when the staged program is checked
# after the trace, as an unfunctionalized checkify.check does, nor at the custom_vjp call)
RAISING_AT_THE_USE = RAISING_KINDS - {"nondiff", "unfunctionalized"}


@dataclass(eq=False)
class TracerUse:
    kind: str  # bool | convert | numpy | print | shape | hash | dispatch | nondiff | overflow | unfunctionalized
    node: cst.CSTNode
    function: Optional[cst.FunctionDef]  # None: a jitted library function (no def here)
    message: str
    # where the function is jitted (Violation.related): a notebook cell tagged
    # ``raises-exception`` that jits it shows the error on purpose
    related: tuple[tuple[cst.CSTNode, str], ...] = ()
    operation: str = ""  # the builtin or method of a ``convert`` (``float``, ``item``)
    # where the fix goes when that is not the use (a singledispatch registration): the finding
    # points there, the use is its evidence
    anchor: Optional[cst.CSTNode] = None


def dispatch_registrations(ctx) -> dict[cst.FunctionDef, dict[str, cst.CSTNode]]:
    return ctx.shared("dispatch-registrations", _dispatch_registrations)


def _dispatch_registrations(ctx) -> dict[cst.FunctionDef, dict[str, cst.CSTNode]]:
    """The classes each module-level ``functools.singledispatch`` def is registered for, by
    qualified name, each with where (the first registration): ``@kind.register`` over a def
    whose first parameter is annotated, ``@kind.register(Cls)``, ``kind.register(Cls, impl)``
    and ``kind.register(Cls)(impl)``."""
    model = ctx.model
    module_scope = model.scope_of.get(ctx.module)
    dispatchers: dict[str, cst.FunctionDef] = {}
    for statement in ctx.module.body:
        if isinstance(statement, cst.FunctionDef) and any(
                model.qualified_name(d.decorator, module_scope) in TYPE_DISPATCH_DECORATORS
                for d in statement.decorators):
            dispatchers[statement.name.value] = statement
    if not dispatchers:
        return {}
    found: dict[cst.FunctionDef, dict[str, cst.CSTNode]] = {d: {} for d in dispatchers.values()}

    def target(expr) -> Optional[cst.FunctionDef]:  # ``kind.register``
        if isinstance(expr, cst.Attribute) and expr.attr.value == "register" and isinstance(expr.value, cst.Name):
            return dispatchers.get(expr.value.value)
        return None

    def add(dispatcher: cst.FunctionDef, cls: Optional[cst.BaseExpression], where: cst.CSTNode) -> None:
        name = model.qualified_name(cls, module_scope) if isinstance(cls, (cst.Name, cst.Attribute)) else None
        found[dispatcher].setdefault(name or "?", where)

    for node in iter_nodes(ctx.module):
        if isinstance(node, cst.FunctionDef):
            for decorator in node.decorators:
                expr = decorator.decorator
                if target(expr) is not None:  # ``@kind.register`` reads the annotation
                    params = node.params.params
                    add(target(expr), params[0].annotation.annotation
                        if params and params[0].annotation is not None else None, decorator)
                elif isinstance(expr, cst.Call) and target(expr.func) is not None and expr.args:
                    add(target(expr.func), expr.args[0].value, decorator)
        elif isinstance(node, cst.Call):
            inner = node.func.func if isinstance(node.func, cst.Call) else None
            if target(node.func) is not None and node.args:  # ``kind.register(Cls, impl)``
                add(target(node.func), node.args[0].value, node)
            elif inner is not None and target(inner) is not None and node.func.args:  # ``kind.register(Cls)(impl)``
                add(target(inner), node.func.args[0].value, node)
    return found


def _raised_by(function: cst.FunctionDef) -> Optional[str]:
    """The exception a fallback raises outright (a ``raise`` among its own statements, not in
    an ``if``), by name: ``NotImplementedError``; None when it may return."""
    body = function.body.body if isinstance(function.body, cst.IndentedBlock) else ()
    for statement in body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.Raise) and small.exc is not None:
                    exc = small.exc.func if isinstance(small.exc, cst.Call) else small.exc
                    return _src(exc) if isinstance(exc, (cst.Name, cst.Attribute)) else "an exception"
    return None


# the leaves of a pytree, as a list (of tracers, for a traced pytree)
TREE_LEAVES = frozenset({"jax.tree_util.tree_leaves", "jax.tree.leaves"})


def tracer_uses(ctx: FileContext) -> list[TracerUse]:
    return ctx.shared("tracer-uses", lambda c: _analyse(c) + _jitted_library_calls(c) + _jitted_builtins(c)
                      + _abstractly_traced_library_calls(c) + _overflowing_jit_values(c))


def overflowing_int(model: SemanticModel, expr: cst.BaseExpression, scope: Scope) -> Optional[int]:
    """The Python int ``expr`` always is, when it is outside ``jaxfacts.PYTHON_INT_RANGE``."""
    value = int_constant(model, expr, scope)
    low, high = PYTHON_INT_RANGE
    return value if value is not None and not low <= value <= high else None


def enables_x64(ctx: FileContext) -> bool:
    """The module turns 64-bit types on (``jax.config.update("jax_enable_x64", True)``,
    ``os.environ["JAX_ENABLE_X64"] = ...``, ``jax.experimental.enable_x64()``): Python ints
    then become int64.  Any string naming the flag counts: how it is set does not matter."""
    def compute(c: FileContext) -> bool:
        return X64_FLAG in _strings(c) or any(
            (c.model.qualified_name(site.node.func, site.frame.scope) or "").endswith(".enable_x64")
            for site in c.model.calls_named("enable_x64"))
    return ctx.shared("enables-x64", compute)


def enables_scipy_array_api(ctx: FileContext) -> bool:
    """The module sets ``SCIPY_ARRAY_API`` (``os.environ.setdefault("SCIPY_ARRAY_API", "1")``):
    SciPy then runs some functions on JAX arrays under jit."""
    return SCIPY_ARRAY_API_SWITCH.lower() in _strings(ctx)


def _strings(ctx: FileContext) -> frozenset[str]:
    """The string literals of the module, lowercased (switches named by a string)."""
    return ctx.shared("strings", lambda c: frozenset(
        node.evaluated_value.lower() for node in iter_nodes(c.module)
        if isinstance(node, cst.SimpleString) and isinstance(node.evaluated_value, str)))


def overflow_message(constant: cst.BaseExpression, value: int, where: str) -> str:
    written = _src(constant)
    shown = f"`{written}`" if written == str(value) else f"`{written}` (= {value})"
    return (f"the Python int {shown} {where} does not fit int32, which JAX turns Python ints into "
            f"while 64-bit types are off: it raises OverflowError; enable them "
            f"(jax.config.update(\"{X64_FLAG}\", True)) or wrap the constant in the dtype meant "
            f"(jnp.uint32(...), or a float)")


def _overflowing_jit_values(ctx: FileContext) -> list[TracerUse]:
    """``f(2**40)`` for a jitted ``f`` (a traced argument), and ``return x, 2**64`` in a jitted
    function (an output): jit converts the Python int (jax#15631)."""
    uses = []
    model = ctx.model
    for jc in jitted_calls(ctx):
        for arg in jc.dynamic_args():
            value = overflowing_int(model, arg.value, jc.app.frame.scope)
            if value is not None:
                uses.append(TracerUse("overflow", arg, None, overflow_message(
                    arg.value, value, f"passed to jitted `{jc.name}` (a traced argument)"), ((jc.app.anchor, JITTED_HERE),)))
    for jitted in (*jitted_functions(ctx).values(), *jitted_lambdas(ctx).values()):
        func = jitted.func
        returned = [func.body] if isinstance(func, cst.Lambda) else [
            statement.value for statement, frame in model.returns
            if frame.enclosing_function() is func and statement.value is not None]
        scope = model.scope_of.get(func)
        for value_expr in returned:
            for part in _elements(value_expr) if isinstance(value_expr, (cst.Tuple, cst.List)) else [value_expr]:
                value = overflowing_int(model, part, scope) if scope is not None else None
                if value is not None:
                    uses.append(TracerUse("overflow", part, func if isinstance(func, cst.FunctionDef) else None,
                                          overflow_message(part, value, "returned by the jitted function")))
    return uses


def _abstractly_traced_library_calls(ctx: FileContext) -> list[TracerUse]:
    """``jax.make_jaxpr(jax.lax.integer_pow)(x, 4)`` / ``jax.eval_shape(jnp.reshape, x, (2, 5))``:
    a jax function traced abstractly with every argument (TRACING_CALLS without ``in_axes`` or
    ``argnums``) where one must be a Python value (CONCRETE_PARAMS)."""
    uses = []
    model = ctx.model
    for site in model.calls:
        call, scope = site.node, site.frame.scope
        outer = call.func if isinstance(call.func, cst.Call) else call
        qualname = model.qualified_name(outer.func, scope)
        fact = TRACING_CALLS.get(qualname) if qualname is not None else None
        if fact is None or not fact.abstract or fact.in_axes is not None or fact.argnums is not None \
                or fact.given is not None or fact.optional_inputs or len(fact.functions) != 1 \
                or fact.wraps != (outer is not call) or any(arg.star for arg in (*outer.args, *call.args)):
            continue
        function = argument_value(outer, *fact.functions[0])
        target = model.qualified_name(function, scope) if function is not None else None
        if target not in CONCRETE_PARAMS:
            continue
        if any(arg.keyword is not None and arg.keyword.value.startswith("static_arg") for arg in outer.args):
            continue  # ``make_jaxpr(f, static_argnums=1)``: not followed
        args = call.args if fact.wraps else [arg for arg in call.args if arg.value is not function]
        found = _first_concrete_argument(CONCRETE_PARAMS[target], args)
        if found is None:
            continue
        arg, index, param = found
        fix = (f"bind it to the function first (functools.partial({_src(function)}, {param.keyword}=...))"
               if not fact.wraps else f"pass static_argnums=({index},) to `{qualname}`" if index is not None
               else f'pass static_argnames=("{param.keyword}",) to `{qualname}`')
        uses.append(TracerUse("convert", arg, None, (
            f"the `{param.keyword}` argument of `{target}` must be a Python value, but "
            f"`{qualname}` traces every argument: the call raises {param.error}; {fix}"),
            ((outer, JITTED_HERE),)))
    return uses


def _first_concrete_argument(params, args: Sequence[cst.Arg], traced=lambda arg: True):
    """(argument, its position or None for a keyword, the fact) of the first of ``args``, in
    call order, at a parameter that must be a Python value (a CONCRETE_PARAMS entry's ``params``)
    and that ``traced`` says is traced; None when there is none (or a ``*args`` comes first)."""
    position = 0
    for arg in args:
        if arg.star:
            return None
        index = position if arg.keyword is None else None
        position += arg.keyword is None
        param = concrete_param(params, index, arg.keyword.value if arg.keyword is not None else None)
        if param is not None and traced(arg):
            return arg, index, param
    return None


def _jitted_builtins(ctx: FileContext) -> list[TracerUse]:
    """``jax.jit(hash)(x)``, ``jax.jit(bool)(mask)``, ``jax.jit(math.sqrt)(x)``,
    ``jax.jit(np.asarray)(x)``: a function that needs a Python value of its argument, jitted as
    it is, gets a tracer (jax PR #17650)."""
    uses = []
    model = ctx.model
    for jc in jitted_calls(ctx):
        target, scope = jc.app.target, jc.app.frame.scope
        arg = next(iter(jc.dynamic_args()), None)
        if jc.func is not None or arg is None or not isinstance(target, (cst.Name, cst.Attribute)):
            continue
        builtin = target.value if isinstance(target, cst.Name) and not model.lookup(target.value, scope) else None
        qualname = model.qualified_name(target, scope) if builtin is None else None
        where = ((jc.app.anchor, JITTED_HERE),)
        if builtin in HASHING_BUILTINS:
            uses.append(TracerUse("hash", arg, None, (
                f"jitted `{builtin}` hashes {HASHING_BUILTINS[builtin]}, but jit passes it a "
                f"tracer, which is unhashable: the call raises {HASHING_SYNTAX['dict key']}; call "
                f"`{builtin}` outside jit (or on a static argument)"), where))
        elif builtin == "bool":
            uses.append(TracerUse("bool", arg, None, (
                f"jitted `bool` takes the truth value of its argument, but jit passes it a tracer: "
                f"the call raises {TRUTH_ERROR}; call `bool` outside jit, or use jnp.any / jnp.all "
                f"inside it"), where))
        elif builtin in PYTHON_VALUE_BUILTINS or qualname in PYTHON_CONVERTING_FUNCTIONS:
            name = builtin or qualname
            error, instead = (PYTHON_VALUE_BUILTINS[builtin], "") if builtin else PYTHON_CONVERTING_FUNCTIONS[qualname]
            fix = f"jit `{instead.replace('jax.numpy.', 'jnp.')}` instead" if instead else f"call `{name}` outside jit"
            uses.append(TracerUse("convert", arg, None, (
                f"jitted `{name}` makes a Python number of its argument, but jit passes it a tracer: "
                f"the call raises {error}; {fix}"), where, name))
        elif (error := _numpy_conversion_error(ctx, qualname)) is not None:
            uses.append(TracerUse("numpy", arg, None, (
                f"jitted `{qualname}` converts its argument to a NumPy array, but jit passes it a "
                f"tracer: the call raises {error}; jit the jax.numpy function instead"), where))
    return uses


def _jitted_library_calls(ctx: FileContext) -> list[TracerUse]:
    """``jax.jit(jax.nn.one_hot)(x, 3)``: a jax function jitted as it is, called with an argument
    that must be a Python value (a size, an axis, a shape) at a position jit traces."""
    uses = []
    for jc in jitted_calls(ctx):
        target = jc.app.target
        if jc.func is not None or not isinstance(target, (cst.Name, cst.Attribute)):
            continue
        qualname = ctx.model.qualified_name(target, jc.app.frame.scope)
        static_names = _static_argnames_only(jc, ctx.model)
        if jc.static_args is None and static_names is None:
            continue  # static_argnums of a library function: which positions is unknown here
        dynamic = {id(arg) for arg in jc.dynamic_args()}

        def traced(arg: cst.Arg, name: str) -> bool:
            """``arg`` passes parameter ``name``: jit traces it."""
            if static_names is None:
                return id(arg) in dynamic
            return name not in static_names and (arg.keyword is None or arg.keyword.value not in static_names)

        if qualname in DATA_SIZED_OUTPUTS:
            use = _jitted_data_sized(jc, qualname, DATA_SIZED_OUTPUTS[qualname], traced)
            uses.extend([use] if use is not None else [])
            continue
        if qualname not in CONCRETE_PARAMS:
            continue
        found = _first_concrete_argument(CONCRETE_PARAMS[qualname], jc.call.args, lambda arg: static_names is not None
                                         or id(arg) in dynamic)
        if found is None or not traced(found[0], found[2].keyword):
            continue
        arg, index, fact = found
        fix = (f"static_argnums=({index},)" if index is not None else f'static_argnames=("{fact.keyword}",)')
        uses.append(TracerUse("convert", arg, None, (
            f"the `{fact.keyword}` argument of jitted `{qualname}` must be a Python value, but "
            f"jit traces it: the call raises {fact.error}; pass {fix} to jax.jit"),
            ((jc.app.anchor, JITTED_HERE),)))
    return uses


def _static_argnames_only(jc, model: SemanticModel) -> Optional[frozenset[str]]:
    """The names of ``jax.jit(jnp.repeat, static_argnames=["axis"])``, when the jit gives only
    literal ``static_argnames``: a library function's parameter is traced unless named there
    (jit maps the names to positions through the signature, which the facts record)."""
    keywords = {a.keyword.value: a.value for a in jc.app.keywords if a.keyword is not None}
    if set(keywords) & set(SPEC_KEYWORDS) != {"static_argnames"} or any(a.star for a in jc.app.keywords):
        return None
    names = literal(keywords["static_argnames"], jc.app.frame.scope, model, ints=False)
    return frozenset(names) if names is not None else None


def _jitted_data_sized(jc, qualname: str, fact: DataSizedOutput, traced) -> Optional[TracerUse]:
    """``jax.jit(jax.ops.segment_sum)(x, ids)``: a data-sized function jitted as it is and called
    without its size (by keyword or at its position), with a traced argument at a data
    parameter."""
    args = jc.call.args
    if any(arg.star for arg in args):
        return None
    positional = [arg for arg in args if arg.keyword is None]
    if any(arg.keyword is not None and arg.keyword.value == fact.size_keyword for arg in args) \
            or (fact.size_position is not None and len(positional) > fact.size_position) \
            or (fact.max_positional is not None and len(positional) > fact.max_positional):
        return None
    data = [arg for arg in args if any(
        ((arg.keyword is None and positional.index(arg) == position)
         or (arg.keyword is not None and arg.keyword.value == keyword)) and traced(arg, keyword)
        for position, keyword in fact.data_params)]
    if not data:
        return None
    return TracerUse("shape", jc.call, None, (
        f"jitted `{qualname}` is called without `{fact.size_keyword}=`: its output's shape then "
        f"depends on the values of `{_src(data[0].value)}`, which jit traces, so tracing raises "
        f"ConcretizationTypeError; " + (fact.fix or f"pass {fact.size_keyword}= (a static upper bound, via "
                                                    f"functools.partial or static_argnames)")),
        ((jc.app.anchor, JITTED_HERE),))


def _analyse(ctx: FileContext) -> list[TracerUse]:
    _record_jitted_imports(ctx)
    uses: dict[int, TracerUse] = {}
    for jitted in (*jitted_functions(ctx).values(), *jitted_lambdas(ctx).values()):
        if any(next(spec_errors(spec), None) for app in jitted.apps
               for spec in [spec_of(app, ctx.model)] if spec is not None):
            continue  # jax.jit raises when applied (JIT701/702): the body is never traced
        # also without traced parameters: jax.numpy calls in the body are traced
        analysis = traced_values(ctx, jitted)
        found = analysis.run()
        for use in found:
            uses.setdefault(id(use.node), use)
        if isinstance(jitted.func, cst.FunctionDef) and analysis.staged and _calls_jitted_within(ctx, analysis):
            for use in _nested_jit_uses(ctx, analysis, {id(use.node) for use in found}):
                uses.setdefault(id(use.node), use)
    for use in _traced_by_calls(ctx) + _jitted_partials(ctx) + _jitted_factory_results(ctx) \
            + _jitted_bound_methods(ctx) + _jitted_module_applies(ctx) + _filter_jitted(ctx) \
            + _nnx_jitted(ctx) + _recursion_through_traced_branches(ctx) + _traced_from_project(ctx) \
            + _transformed_static_jits(ctx):
        uses.setdefault(id(use.node), use)
    if uses or jitted_functions(ctx) or jitted_lambdas(ctx):
        for use in _post_init_uses(ctx):
            uses.setdefault(id(use.node), use)
    if live_applications(ctx):
        for use in _schedule_uses(ctx):
            uses.setdefault(id(use.node), use)
    # One finding per cause: ``sizes[i]``, ``strides[i]`` ... with one traced ``i`` give the same
    # message, and the fix (a concrete ``i``) is made once.
    first: dict[tuple[int, str], TracerUse] = {}
    for use in uses.values():
        first.setdefault((id(use.function), use.message), use)
    return _reachable(list(first.values()))


def _reachable(uses: list[TracerUse]) -> list[TracerUse]:
    """Leave out uses in the body of an ``if`` / ``while`` whose own test raises under the trace,
    or of a ``for`` whose iterable does (``for i in range(num_seqs[0]):``): that body never runs
    (rewriting the test or the loop rewrites it too)."""
    unreached: set[int] = set()
    for use in uses:
        if not isinstance(use.function, cst.FunctionDef):
            continue
        for node in iter_nodes(use.function.body):
            if use.kind == "bool" and isinstance(node, (cst.If, cst.While)) and node.test is use.node \
                    or isinstance(node, cst.For) and any(n is use.node for n in iter_nodes(node.iter)):
                unreached.update(id(n) for n in iter_nodes(node.body))
    return [use for use in uses if id(use.node) not in unreached] if unreached else uses


def python_value_uses(ctx: FileContext, func: cst.FunctionDef, traced: set[str], by: str
                      ) -> dict[str, TracerUse]:
    """Parameter -> the first use of it as a Python value (a truth test, a conversion, a
    shape) when ``func`` is traced with the ``traced`` parameters traced by ``by``."""
    analysis = _FunctionAnalysis(ctx, JittedFunction(func, [], set(traced), set(traced)),
                                 set(jitted_functions(ctx)), traced_by=by)
    analysis.solve()
    found: dict[str, TracerUse] = {}
    for use in analysis.run():
        if use.function is not func or use.kind not in ("bool", "convert", "shape"):
            continue
        scope = ctx.model.scope_of[func]
        for node in iter_nodes(use.node):
            if isinstance(node, cst.Name) and node.value in traced and node.value not in found \
                    and any(b.kind == "param" and b.scope is scope for b in ctx.model.lookup(node.value, scope)):
                found[node.value] = use
    return found


def calls_jitted(ctx: FileContext, func: cst.FunctionDef) -> bool:
    """Does ``func`` (a def of this module) call a jitted function this file can see?"""
    def compute(ctx: FileContext) -> dict[int, bool]:
        return {}
    memo = ctx.shared("calls-jitted", compute)
    if id(func) not in memo:
        within = scopes_within(ctx.model, func)
        memo[id(func)] = any(id(site.frame.scope) in within for site, spec, _ in jitted_call_sites(ctx)
                             if not spec.filtering and spec.jit in NESTED_TRACING_JITS)
    return memo[id(func)]


def _calls_jitted_within(ctx: FileContext, analysis: "_FunctionAnalysis") -> bool:
    """The jitted def, or a module function its analysis followed, calls a jitted function."""
    pending = [analysis]
    while pending:
        current = pending.pop()
        if isinstance(current.func, cst.FunctionDef) and calls_jitted(ctx, current.func):
            return True
        pending.extend(current.followed.values())
    return False


def _nested_jit_uses(ctx: FileContext, analysis: "_FunctionAnalysis", found: dict[int, TracerUse]
                     ) -> list[TracerUse]:
    """The uses that raise only because a jitted function called inside the jitted def returns
    tracers (``jnp.arange(add1(k))`` with jitted ``add1``, static ``k``): a second pass with
    those calls traced; what it finds that the first did not (``found``) is kind ``nested``."""
    root = analysis.jitted
    second = _FunctionAnalysis(ctx, root, analysis.jitted_defs, module_params=analysis.module_params,
                               staged=analysis.staged, traced_fields=analysis.traced_fields,
                               jit_outputs=True)
    second.solve()
    uses = []
    for use in second.run():
        if id(use.node) in found or use.kind in ("nested", "static") or not second.nested_calls:
            continue
        inner = next((call for call in second.nested_calls
                      if any(node is call for node in iter_nodes(use.node))), second.nested_calls[0])
        spec = second.nested_jit_spec(inner)
        callee = spec.name if spec is not None else _src(inner.func)
        uses.append(TracerUse("nested", use.node, use.function, (
            f"`{_src(inner)}` calls jitted `{callee}` inside {analysis.where}: under the outer jit "
            f"a jitted function returns tracers, even for static arguments, so "
            f"{use.message.split('; ')[0]}; "
            f"call the function `{callee}` wraps without jit here (keep an unjitted version, or "
            f"compute the value outside)"), ((inner, "the jitted call whose result is traced"),
                                              *use.related), use.operation))
    return uses


def _traced_by_calls(ctx: FileContext) -> list[TracerUse]:
    """The functions (defs and lambdas of this module, not jitted themselves) handed to a call
    that traces them (``jaxfacts.TRACING_CALLS``: ``jax.vmap(f)``, ``lax.scan(f, ...)``,
    ``jax.grad(f)``), analysed with the parameters that get tracers traced.  Under a
    differentiating transform that no jit encloses the tracers carry values: only the NumPy
    conversions raise there."""
    model = ctx.model
    jitted = set(jitted_functions(ctx)) | set(jitted_lambdas(ctx))
    jit_targets = _jitted_transform_calls(ctx)
    uses: list[TracerUse] = []
    for site in model.calls:
        call, scope = site.node, site.frame.scope
        func = call.func
        if isinstance(func, cst.Call):  # ``getattr(jaxopt, self.solver_name)(fun=loss)``
            qualname, fact = _chosen_library_callable(model, call, scope)
        elif (func.value if isinstance(func, cst.Name) else func.attr.value if isinstance(func, cst.Attribute)
                else None) not in _TRACING_CALL_LAST_NAMES:
            continue  # cheap test first: most calls are not these
        else:
            qualname = model.qualified_name(func, scope) or linen_self_method(func, scope, model)
            fact = TRACING_CALLS.get(qualname) if qualname is not None else None
        if fact is None:
            continue
        static = lifted_static_positions(model, call, scope)
        if static is None:
            continue  # a static_argnums we cannot read: which are traced is unknown
        static |= jit_targets.get(id(call), frozenset())
        for func, bound in _handed_functions(ctx, call, fact, scope):
            if func in jitted or (isinstance(func, cst.FunctionDef) and func.decorators):
                continue
            uses.extend(_traced_by(ctx, func, call, fact, qualname, static, bound, id(call) in jit_targets,
                                   site.frame))
    for function, frame in model.functions.items():
        # ``@jax.vmap`` / ``@jax.checkpoint`` / ``@partial(jax.vmap, in_axes=(0, None))`` over a def:
        # the decorator traces it as the call form does
        if len(function.decorators) != 1 or function in jitted:
            continue
        expr = function.decorators[0].decorator
        keywords: list[cst.Arg] = []
        if isinstance(expr, cst.Call) and model.qualified_name(expr.func, frame.scope) in PARTIAL_CONSTRUCTORS \
                and expr.args and expr.args[0].keyword is None:
            expr, keywords = expr.args[0].value, list(expr.args[1:])
        qualname = model.qualified_name(expr, frame.scope)
        fact = TRACING_CALLS.get(qualname) if qualname is not None else None
        if fact is None or not fact.wraps or fact.functions[0][0] != 0:
            continue  # a decorator's result is called later: only transforms that wrap
        call = cst.Call(func=expr, args=[cst.Arg(function.name), *keywords])  # the call form it stands for
        static = lifted_static_positions(model, call, frame.scope)
        if static is not None:
            uses.extend(_traced_by(ctx, function, call, fact, qualname, static, _UNBOUND, False, frame))
    return uses


def _chosen_library_callable(model: SemanticModel, call: cst.Call, scope: Scope
                             ) -> tuple[Optional[str], Optional[TracingCall]]:
    """``getattr(jaxopt, name)(fun=loss)``: a callable of a library module chosen at run time,
    given a function by a keyword that every TRACING_CALLS entry of that module taking that
    keyword traces (any jaxopt solver traces ``fun``)."""
    chooser = call.func
    if not (isinstance(chooser, cst.Call) and isinstance(chooser.func, cst.Name) and chooser.func.value == "getattr"
            and not model.lookup("getattr", scope) and len(chooser.args) == 2):
        return None, None
    module = model.qualified_name(chooser.args[0].value, scope)
    keywords = {arg.keyword.value for arg in call.args if arg.keyword is not None}
    if module is None or not keywords:
        return None, None
    entries = [fact for name, fact in TRACING_CALLS.items()
               if name.rpartition(".")[0] == module and not fact.wraps]
    for keyword in sorted(keywords):
        taking = [fact for fact in entries if any(k == keyword for _, k in fact.functions)]
        if taking and all(len(fact.functions) == 1 for fact in taking):
            return f"{module}.<{cst.Module([]).code_for_node(chooser.args[1].value)}>", TracingCall(((-1, keyword),))
    return None, None


def _traced_by(ctx: FileContext, func, call: cst.Call, fact: TracingCall, qualname: str, static: frozenset[int],
               bound: Bound, under_jit: bool, frame: Frame) -> list[TracerUse]:
    """The uses in ``func`` that raise when ``call`` (a TRACING_CALLS call, at ``frame``) traces it."""
    traced = _handed_params(call, fact, func, static, bound)
    if under_jit and fact.wraps:  # the jit traces what grad leaves undifferentiated too
        traced = {p.name.value for i, p in enumerate(_open_params(func, bound))
                  if p.default is None and i not in static}
    if not traced and fact.given != ():
        return []  # () : the library traces the body, with the arguments as passed
    staged = fact.abstract or under_jit or calling_context(ctx).runs_traced(frame)
    positions = {p.name.value: i for i, p in enumerate(_open_params(func, bound))} if under_jit and fact.wraps else None
    analysis = _FunctionAnalysis(ctx, JittedFunction(func, [], traced, set(traced)),
                                 set(jitted_functions(ctx)), traced_by=qualname, staged=staged,
                                 outer_jit_positions=positions)
    analysis.solve()
    found = analysis.run()
    if not staged:
        found = [use for use in found if use.kind == "numpy"
                 or use.operation in DIFFERENTIATED_VALUE_CONVERSIONS]
    return found


Bound = tuple[int, frozenset]  # what a functools.partial binds: leading positionals, keywords
_UNBOUND: Bound = (0, frozenset())


def _handed_functions(ctx: FileContext, call: cst.Call, fact: TracingCall, scope: Scope
                      ) -> list[tuple[cst.FunctionDef | cst.Lambda, Bound]]:
    """The defs and lambdas of this module at ``fact``'s function slots of ``call``, with what
    a ``functools.partial`` around one binds (``lax.scan(partial(step, model=m), ...)``); a
    list or tuple display there (or a name bound once to one) holds several: ``lax.switch``'s
    branches.  A bound method of an instance of a class of this module (``jax.vmap(model.
    construct)``) is its def with ``self`` bound."""
    model = ctx.model
    found = []
    for param in fact.functions:
        value = argument_value(call, *param)
        if isinstance(value, cst.Name):
            binding = model.single_binding(value.value, scope)
            if binding is not None and binding.kind == "assign" and isinstance(binding.value, (cst.List, cst.Tuple)):
                value, scope = binding.value, binding.scope
        elements = [e.value for e in value.elements if not isinstance(e, cst.StarredElement)] \
            if isinstance(value, (cst.List, cst.Tuple)) else [value]
        for element in elements:
            bound = _UNBOUND
            if isinstance(element, cst.Call) and element.args and element.args[0].keyword is None \
                    and model.qualified_name(element.func, scope) in PARTIAL_CONSTRUCTORS:
                rest = element.args[1:]
                if any(a.star for a in rest):
                    continue
                bound = (sum(1 for a in rest if a.keyword is None),
                         frozenset(a.keyword.value for a in rest if a.keyword is not None))
                element = element.args[0].value
            func = function_value(model, element, scope)
            if func is None and isinstance(element, cst.Attribute):
                func = calling_context(ctx).instance_method(element, scope)
                bound = (bound[0] + 1, bound[1]) if func is not None else bound
            if func is not None:
                found.append((func, bound))
    return found


def _open_params(func, bound: Bound) -> list[cst.Param]:
    """The positional parameters of ``func`` a call of the partial still fills, in order."""
    skip, keywords = bound
    return [p for p in positional_params(func)[skip:] if p.name.value not in keywords]


def _traced_from_project(ctx: FileContext) -> list[TracerUse]:
    """The module-level defs that traced code of other modules calls with traced arguments
    (the project index's ``traced``, from those modules' ``FileContext.traced_calls``: phase
    2), analysed with the parameters receiving them traced, as a helper of this module is."""
    index = ctx.index
    if index is None or not index.traced:
        return []
    model = ctx.model
    module = model.module_name or module_name_for(ctx.path)[0]
    jitted = set(jitted_functions(ctx)) | set(jitted_lambdas(ctx))
    uses: list[TracerUse] = []
    for statement in model.module.body:
        if not isinstance(statement, cst.FunctionDef) or statement.decorators or statement in jitted:
            continue
        found = index.traced.get(f"{module}.{statement.name.value}")
        binding = model.single_binding(statement.name.value, model.module_scope)
        if found is None or binding is None or binding.node is not statement:
            continue
        positions, keywords, caller = found
        params = positional_params(statement)
        names = {p.name.value for p in (*params, *statement.params.kwonly_params)}
        traced = {params[i].name.value for i in positions if i < len(params)} | (set(keywords) & names)
        if not traced:
            continue
        analysis = _FunctionAnalysis(ctx, JittedFunction(statement, [], traced, set(traced)),
                                     set(jitted_functions(ctx)), project_caller=caller)
        analysis.solve()
        uses.extend(analysis.run())
    return uses


def _record_jitted_imports(ctx: FileContext) -> None:
    """``prox = jax.jit(ops.soft_threshold)`` of a function imported from the project, with no
    static spec: each call of the jit passes traced values at its positions and keywords,
    recorded for the callee's module as calls from traced code are (``FileContext.traced_calls``,
    phase 2)."""
    model = ctx.model
    for jc in jitted_calls(ctx):
        app = jc.app
        if jc.func is not None or app.jit.qualname not in TRACING_JITS or any(
                k.star or (k.keyword is not None and k.keyword.value in SPEC_KEYWORDS) for k in app.keywords):
            continue
        target = app.target
        while isinstance(target, cst.Call):  # ``jax.jit(jax.grad(losses.hinge))``: every argument traced
            fact = TRACING_CALLS.get(model.qualified_name(target.func, app.frame.scope) or "")
            target = argument_value(target, *fact.functions[0]) if fact is not None and fact.wraps else None
        root = target
        while isinstance(root, cst.Attribute):
            root = root.value
        binding = model.single_binding(root.value, app.frame.scope) if isinstance(root, cst.Name) else None
        qualname = model.qualified_name(target, app.frame.scope) if binding is not None \
            and binding.kind == "import" else None
        if qualname is None or qualname.startswith(LIBRARIES):
            continue
        positions, keywords = set(), set()
        for index, arg in enumerate(jc.call.args):
            if arg.star:
                break
            if arg.keyword is not None:
                keywords.add(arg.keyword.value)
            else:
                positions.add(index)
        _record_traced_call(ctx, qualname, positions, keywords, f"`jax.jit({_src(app.target, 60)})`")


def _record_traced_call(ctx: FileContext, qualname: str, positions: set[int], keywords: set[str],
                        caller: str) -> None:
    """Record, for the project index, that traced code (``caller``, in this module) calls the
    function ``qualname`` names (as imported here) with traced values at those positions and
    keywords (``FileContext.traced_calls``; its own module analyses it in phase 2)."""
    module, is_package = module_name_for(ctx.path)
    module = ctx.model.module_name or module
    known = ctx.traced_calls.setdefault(absolute(qualname, module, is_package),
                                        (set(), set(), f"{caller} in `{module}`"))
    known[0].update(positions)
    known[1].update(keywords)


def _jitted_transform_calls(ctx: FileContext) -> dict[int, frozenset[int]]:
    """The transform calls a jit wraps (``jax.jit(jax.value_and_grad(loss))``, also through a
    name bound once: ``grad_fn = jax.grad(loss); jax.jit(grad_fn)``), with the jit's static
    positions: the function they transform runs under the jit's staging trace, every argument
    but those traced (a transform hands the jit's positions on unchanged:
    ``jit(vmap(integrate, in_axes=(None, 0, 0, None, None)), static_argnums=0)``)."""
    return {id(call): static for _, call, static in _static_numbered_jits_of_calls(ctx)}


def _unspecced_jits_of_calls(ctx: FileContext) -> Iterator[tuple[object, cst.Call]]:
    """(the jit application, the call it wraps) for each jit with no static or donation spec
    whose target is a call, written there or bound once to a name (``jax.jit(jax.vmap(f))``,
    ``grad_fn = jax.grad(loss); jax.jit(grad_fn)``)."""
    for app, target, static in _static_numbered_jits_of_calls(ctx):
        if not any(k.keyword is not None and k.keyword.value in SPEC_KEYWORDS for k in app.keywords):
            yield app, target


def _static_numbered_jits_of_calls(ctx: FileContext) -> Iterator[tuple[object, cst.Call, frozenset[int]]]:
    """(the jit application, the call it wraps, its literal ``static_argnums``) for each jit
    whose only spec is that (or none) and whose target is a call, written there or bound once
    to a name."""
    for app in live_applications(ctx):
        if app.jit.qualname not in TRACING_JITS or any(k.star for k in app.keywords):
            continue
        specs = [k for k in app.keywords if k.keyword is not None and k.keyword.value in SPEC_KEYWORDS]
        static: frozenset[int] = frozenset()
        if specs:
            nums = literal(specs[0].value, app.frame.scope, ctx.model, ints=True) \
                if len(specs) == 1 and specs[0].keyword.value == "static_argnums" else None
            if nums is None:
                continue
            static = frozenset(nums)
        target = app.target
        if isinstance(target, cst.Name):
            binding = ctx.model.single_binding(target.value, app.frame.scope)
            target = binding.value if binding is not None and binding.kind == "assign" else None
        if isinstance(target, cst.Call):
            yield app, target, static


def _transformed_static_jits(ctx: FileContext) -> list[TracerUse]:
    """``jax.jit(jax.vmap(solve, in_axes=(0, None, None)))`` with no static spec of its own,
    where ``solve`` is jitted with static parameters: the outer jit traces every argument, the
    transform hands them on, and ``solve``'s jit hashes tracers at its static positions, which
    raises ValueError at the first call (adam_core PR 118)."""
    found = []
    for app, target in _unspecced_jits_of_calls(ctx):
        site = ctx.model.call_site_of.get(target) if app.call is not None else None
        if site is None or not target.args or target.args[0].star or target.args[0].keyword is not None \
                or ctx.model.qualified_name(target.func, site.frame.scope) not in SIGNATURE_PRESERVING_TRANSFORMS:
            continue
        spec = jitted_reference(ctx, target.args[0].value, site)
        if spec is None or spec.filtering or not spec.checkable or spec.jit not in NESTED_TRACING_JITS:
            continue
        nums, names = spec.effective_static()
        params = [name for name in names] or [p for n in nums if (p := spec.param_at(n)) is not None]
        if not params or not _fills_static_positions(ctx, app, spec, params):
            continue  # left at their defaults by every call: no tracer reaches them
        shown = ", ".join(f"`{p}`" for p in params)
        found.append(TracerUse("static", app.anchor, None, (
            f"`{_src(app.call)}` traces every argument, and jitted `{spec.name}` inside it marks {shown} "
            f"static: the first call hands it tracers there, and a tracer is unhashable, so the call "
            f"raises ValueError (non-hashable static argument); give the outer jit the same static "
            f"positions (`static_argnums=...`), or leave the outer jit out (`{spec.name}` is jitted already)")))
    return found


def _fills_static_positions(ctx: FileContext, app, spec: StaticArgSpec, params: list[str]) -> bool:
    """A call of the jit ``app`` makes (bound once to a name, or called in place) passes a value
    at one of ``params``, by position or keyword."""
    positions = {i for i, name in enumerate(spec.positional) if name in params}
    statement = ctx.model.parent_statement.get(app.call)
    calls = []
    if isinstance(statement, cst.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0].target, cst.Name):
        binding = next((b for b in ctx.model.lookup(statement.targets[0].target.value, app.frame.scope)
                        if b.node is statement), None)
        calls = [site.node for site in ctx.model.calls_to(binding)] if binding is not None else []
    else:  # ``jax.jit(jax.vmap(solve))(x, 5)``
        calls = [call for call in ctx.model.call_site_of if call.func is app.call]
    for call in calls:
        positional = [a for a in call.args if a.keyword is None]
        if any(a.star for a in call.args) or any(i < len(positional) for i in positions) \
                or any(a.keyword is not None and a.keyword.value in params for a in call.args):
            return True
    return False


def _jitted_partials(ctx: FileContext) -> list[TracerUse]:
    """``jax.jit(functools.partial(f, scale=2.0))``: the parameters of ``f`` the partial leaves
    open (and that have no default) are traced; those it binds are constants of the trace."""
    model = ctx.model
    uses: list[TracerUse] = []
    for app in live_applications(ctx):
        target = app.target
        if not (isinstance(target, cst.Call) and app.jit.qualname in TRACING_JITS
                and model.qualified_name(target.func, app.frame.scope) == "functools.partial"
                and target.args and not any(arg.star for arg in target.args)
                and not any(k.star or (k.keyword is not None and k.keyword.value in SPEC_KEYWORDS)
                            for k in app.keywords)):
            continue
        func = function_value(model, target.args[0].value, app.frame.scope)
        if not isinstance(func, cst.FunctionDef) or func.decorators:
            continue
        bound = sum(1 for arg in target.args[1:] if arg.keyword is None)
        keywords = {arg.keyword.value for arg in target.args if arg.keyword is not None}
        traced = {p.name.value for p in (*positional_params(func)[bound:], *func.params.kwonly_params)
                  if p.default is None and p.name.value not in keywords}
        if traced:
            analysis = _FunctionAnalysis(ctx, JittedFunction(func, [app], traced, set(traced)),
                                         set(jitted_functions(ctx)))
            analysis.solve()
            uses.extend(analysis.run())
    return uses


def _recursion_through_traced_branches(ctx: FileContext) -> list[TracerUse]:
    """``def rec(x): return lax.cond(len(x) > 1, step, stop, x)`` where ``step`` calls ``rec``,
    jitted or not: cond traces both branches whatever the predicate (eagerly too), so each call
    of ``rec`` calls ``rec`` again and the recursion never stops (jax#13796, jax#4858), unless
    ``rec`` itself branches in Python first (any ``if``, conditional expression or loop in its
    body: precision first)."""
    model = ctx.model
    uses: list[TracerUse] = []
    for func in model.functions:
        if not isinstance(func, cst.FunctionDef) or any(
                isinstance(node, (cst.If, cst.IfExp, cst.While, cst.For, cst.Match)) for node in own_nodes(func)):
            continue
        scope = model.scope_of[func]
        for node in own_nodes(func):
            if not isinstance(node, cst.Call) or _last_name(node.func) != "cond":
                continue
            qualname = model.qualified_name(node.func, scope)
            fact = TRACING_CALLS.get(qualname) if qualname == "jax.lax.cond" else None
            if fact is None:
                continue
            for param in fact.functions:
                branch = function_value(model, argument_value(node, *param), scope)
                if branch is not None and branch is not func and _calls_def(model, branch, func):
                    uses.append(TracerUse("bool", node, func, (
                        f"recursion through `lax.cond` never stops: cond traces both branches whatever "
                        f"the predicate, so `{_name(branch)}` calls `{func.name.value}` again at "
                        f"every trace (it ends in an IndexError or RecursionError); stop the recursion "
                        f"with a Python condition on a static value (`len(x)`, `x.shape`)")))
                    break
    return uses


def _calls_def(model: SemanticModel, caller, callee: cst.FunctionDef) -> bool:
    """``caller``'s own body calls ``callee`` by its name."""
    scope = model.scope_of[caller]
    for node in own_nodes(caller):
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == callee.name.value:
            binding = model.single_binding(node.func.value, scope)
            if binding is not None and binding.node is callee:
                return True
    return False


def _jitted_factory_results(ctx: FileContext) -> list[TracerUse]:
    """``jax.jit(make_loss(1.0))``: the def (or lambda) a module function builds and returns,
    jitted, with its parameters that have no default traced; what it closes over from the
    factory stays concrete.  Also what a method returns (``jax.jit(force.generate())``), or
    stores from such a call in ``__init__`` (``jax.jit(force.get_energy)``)."""
    model = ctx.model
    context = calling_context(ctx)
    uses: list[TracerUse] = []
    for app in live_applications(ctx):
        target = app.target
        if not (isinstance(target, (cst.Call, cst.Attribute)) and app.jit.qualname in TRACING_JITS
                and not any(k.star or (k.keyword is not None and k.keyword.value in SPEC_KEYWORDS)
                            for k in app.keywords)):
            continue
        if isinstance(target, cst.Call) and isinstance(target.func, cst.Name):
            factory = function_value(model, target.func, app.frame.scope)
            made = _returned_functions(model, factory) \
                if isinstance(factory, cst.FunctionDef) and not factory.decorators else []
        else:  # ``jax.jit(force.generate())``, ``jax.jit(force.get_energy)`` stored from such a call
            function = context.made_function(target, app.frame.scope) if isinstance(target, cst.Call) \
                else context.stored_made_function(target, app.frame.scope)
            made = [function] if isinstance(function, cst.FunctionDef) and not function.decorators \
                or isinstance(function, cst.Lambda) else []
        for func in made:
            traced = {p.name.value for p in (*positional_params(func), *func.params.kwonly_params)
                      if p.default is None}
            if traced:
                analysis = _FunctionAnalysis(ctx, JittedFunction(func, [app], traced, set(traced)),
                                             set(jitted_functions(ctx)))
                analysis.solve()
                uses.extend(analysis.run())
    return uses


def _returned_functions(model: SemanticModel, factory: cst.FunctionDef) -> list:
    """The defs and lambdas of ``factory``'s own body that it returns (``return loss``)."""
    scope = model.scope_of[factory]
    found = []
    for node in own_nodes(factory):
        if isinstance(node, cst.Return) and node.value is not None:
            func = function_value(model, node.value, scope)
            if func is not None and (isinstance(func, cst.Lambda) or not func.decorators) \
                    and model.scope_of[func].parent is scope and func not in found:
                found.append(func)
    return found


def _jitted_bound_methods(ctx: FileContext) -> list[TracerUse]:
    """``jax.jit(model.loss)`` where ``model`` is bound once to an instance of a class of this
    module (``model = Model()``; or ``self.loss`` in a method), or ``jax.jit(factor)`` of such
    an instance (its ``__call__``): the method's parameters after ``self`` (without defaults)
    are traced, ``self`` is a constant of the trace."""
    uses: list[TracerUse] = []
    for app in live_applications(ctx):
        target = app.target
        if not ((isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) or isinstance(target, cst.Name))
                and app.jit.qualname in TRACING_JITS
                and not any(k.star or (k.keyword is not None and k.keyword.value in SPEC_KEYWORDS)
                            for k in app.keywords)):
            continue
        method = bound_method_target(ctx, target, app.frame.scope)
        if method is None:
            continue
        params = positional_params(method)
        traced = {p.name.value for p in (*params[1:], *method.params.kwonly_params) if p.default is None}
        if traced:
            analysis = _FunctionAnalysis(ctx, JittedFunction(method, [app], traced, set(traced)),
                                         set(jitted_functions(ctx)))
            analysis.solve()
            uses.extend(analysis.run())
    return uses


def _filter_jitted(ctx: FileContext) -> list[TracerUse]:
    """``equinox.filter_jit`` traces the arrays among the arguments and keeps the rest static:
    a parameter is traced when every call of the def in the module passes an array
    (``jnp.ones(3)``, a name bound once to one) or an instance of a pytree class of this module
    (an ``eqx.Module``: its array fields are traced, and calling it runs its ``__call__``)."""
    model = ctx.model
    pytrees = set(_pytree_dataclasses(ctx))
    uses: list[TracerUse] = []
    for func, jitted in jitted_functions(ctx).items():
        if not jitted.apps or any(app.jit.qualname not in FILTERING_JIT_FUNCTIONS for app in jitted.apps):
            continue
        calls = [call for call in jitted_calls(ctx) if call.func is func]
        traced: set[str] = set()
        classes: dict[str, cst.ClassDef] = {}
        for param in (p.name.value for p in positional_params(func)):
            kinds = {_array_or_pytree(model, call.argument(param), model.call_site_of[call.call].frame.scope, pytrees)
                     for call in calls}
            if calls and None not in kinds and len(kinds) == 1:
                traced.add(param)
                kind = kinds.pop()
                if isinstance(kind, cst.ClassDef):
                    classes[param] = kind
        if traced:
            analysis = _FunctionAnalysis(ctx, JittedFunction(func, jitted.apps, traced, set(traced)),
                                         set(jitted_functions(ctx)), module_params=classes)
            analysis.solve()
            uses.extend(analysis.run())
    return uses


def _nnx_jitted(ctx: FileContext) -> list[TracerUse]:
    """``nnx.jit`` traces every argument as jax.jit does (measured: a Python int arrives a
    tracer) and a Module's Variables; its plain Python attributes stay static.  A parameter
    every call in the module passes an instance of an ``nnx.Module`` of this module is
    followed into ``__call__`` (``model(x)``) and its other methods, with ``self`` traced."""
    model = ctx.model
    uses: list[TracerUse] = []
    for func, jitted in jitted_functions(ctx).items():
        if not jitted.apps or any(app.jit.qualname != NNX_JIT or any(
                k.star or (k.keyword is not None and k.keyword.value in SPEC_KEYWORDS) for k in app.keywords)
                for app in jitted.apps) or not isinstance(func, cst.FunctionDef):
            continue
        params = [p.name.value for p in positional_params(func) if p.default is None]
        sites = [site for site in model.calls_named(func.name.value)
                 if isinstance(site.node.func, cst.Name)
                 and getattr(model.single_binding(func.name.value, site.frame.scope), "node", None) is func]
        classes: dict[str, cst.ClassDef] = {}
        for index, param in enumerate(params):
            found = {_nnx_module_class(ctx, argument_value(site.node, index, param), site.frame.scope) for site in sites}
            if sites and len(found) == 1 and None not in found:
                classes[param] = found.pop()
        if params:
            analysis = _FunctionAnalysis(ctx, JittedFunction(func, jitted.apps, set(params), set(params)),
                                         set(jitted_functions(ctx)), module_params=classes)
            analysis.solve()
            uses.extend(analysis.run())
    return uses


def _nnx_module_class(ctx: FileContext, expr: Optional[cst.BaseExpression], scope: Scope,
                      depth: int = 0) -> Optional[cst.ClassDef]:
    """The ``nnx.Module`` subclass of this module whose instance ``expr`` makes (a call of the
    class, or a name bound once to one)."""
    model = ctx.model
    if isinstance(expr, cst.Name) and depth < 3:
        binding = model.single_binding(expr.value, scope)
        if binding is not None and binding.kind == "assign" and binding.value is not None:
            return _nnx_module_class(ctx, binding.value, binding.scope, depth + 1)
        return None
    if not (isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name)):
        return None
    binding = model.single_binding(expr.func.value, scope)
    if binding is None or binding.kind != "class" or not isinstance(binding.node, cst.ClassDef):
        return None
    cls = binding.node
    class_scope = model.classes[cls].scope
    return cls if any(model.qualified_name(base.value, class_scope) in NNX_MODULE_BASES
                      for base in cls.bases) else None


def _array_or_pytree(model: SemanticModel, expr: Optional[cst.BaseExpression], scope: Scope,
                     pytrees: set, depth: int = 0):
    """"array" when ``expr`` certainly makes an array, the class when it makes an instance of
    one of ``pytrees``, else None."""
    if isinstance(expr, cst.Name) and depth < 3:
        binding = model.single_binding(expr.value, scope)
        if binding is not None and binding.kind == "assign" and binding.value is not None:
            return _array_or_pytree(model, binding.value, binding.scope, pytrees, depth + 1)
        return None
    if not isinstance(expr, cst.Call):
        return None
    if array_made_by(model, expr, scope) is not None:
        return "array"
    if isinstance(expr.func, cst.Name):
        binding = model.single_binding(expr.func.value, scope)
        if binding is not None and binding.kind == "class" and binding.node in pytrees:
            return binding.node
    return None


def _applied_module_call(ctx: FileContext, expr: cst.BaseExpression, scope: Scope,
                         call: Optional[cst.Call] = None):
    """``model.apply`` where ``model`` is an instance of a flax.linen Module of this module (or
    ``Net(...).apply``, one built there): that class's ``__call__`` (``apply(variables, *args)``
    calls it with ``args``), or the method the ``call`` names (``method=Normalizer.accumulate``,
    ``method="accumulate"``)."""
    if not (isinstance(expr, cst.Attribute) and expr.attr.value == "apply"):
        return None
    chosen = argument_value(call, None, "method") if call is not None else None
    name = "__call__"
    if isinstance(chosen, cst.Attribute) and isinstance(chosen.value, cst.Name):
        name = chosen.attr.value  # ``Normalizer.accumulate``: checked to be the class below
    elif isinstance(chosen, cst.SimpleString):
        name = chosen.evaluated_value
    elif chosen is not None:
        return None
    receiver = expr.value
    cls = calling_context(ctx).instance_class(receiver, scope) if isinstance(receiver, cst.Name) else \
        calling_context(ctx).class_of(receiver.func, scope) if isinstance(receiver, cst.Call) else None
    if cls is None:
        return None
    frame_scope = ctx.model.classes[cls].scope
    if not any(ctx.model.qualified_name(base.value, frame_scope) in APPLIED_MODULE_BASES for base in cls.bases):
        return None
    if isinstance(chosen, cst.Attribute) and calling_context(ctx).class_of(chosen.value, scope) is not cls:
        return None
    method = class_methods(cls).get(name)
    return method if method is not None and positional_params(method) else None


def transformed_function(ctx: FileContext, expr: cst.BaseExpression, scope: Scope, depth: int = 0):
    """``net.apply`` (or ``.init``) where ``net`` is made by a FUNCTION_TRANSFORMS call of a def
    or lambda of this module (``hk.transform(forward)``, also through its wrappers and as a
    decorator): (that function, how many leading arguments the method takes before its)."""
    if not (isinstance(expr, cst.Attribute) and isinstance(expr.value, (cst.Name, cst.Call, cst.Attribute))) or depth > 3:
        return None
    method, made = expr.attr.value, expr.value
    if isinstance(made, cst.Attribute):  # ``self.actor.apply`` of ``self.actor = hk.transform(...)``
        stored = self_attribute_value(ctx.model, made, scope, any_value=True)
        if stored is None or not isinstance(stored[0], (cst.Name, cst.Call)):
            return None
        return transformed_function(ctx, cst.Attribute(stored[0], expr.attr), stored[1], depth + 1)
    if isinstance(made, cst.Name):
        binding = ctx.model.single_binding(made.value, scope)
        if binding is not None and binding.kind == "def" and isinstance(binding.node, cst.FunctionDef):
            for decorator in binding.node.decorators:  # ``@hk.transform def forward(x)``
                leading = FUNCTION_TRANSFORMS.get(ctx.model.qualified_name(decorator.decorator, binding.scope) or "")
                if leading is not None and method in leading:
                    return binding.node, leading[method]
            return None
        if binding is None or binding.kind != "assign" or not isinstance(binding.value, cst.Call):
            return None
        made, scope = binding.value, binding.scope
    qualname = ctx.model.qualified_name(made.func, scope) or ""
    argument = argument_value(made, 0, "f")
    if qualname in FUNCTION_TRANSFORM_WRAPPERS and argument is not None:
        inner = transformed_function(ctx, cst.Attribute(argument, expr.attr), scope, depth + 1)
        fewer = FUNCTION_TRANSFORM_WRAPPERS[qualname].get(method, 0)
        return (inner[0], inner[1] - fewer) if inner is not None else None
    leading = FUNCTION_TRANSFORMS.get(qualname)
    function = function_value(ctx.model, argument, scope) if argument is not None else None
    if leading is None or method not in leading or function is None:
        return None
    return function, leading[method]


def _jitted_module_applies(ctx: FileContext) -> list[TracerUse]:
    """``jax.jit(model.apply)``: jit traces every argument of ``model.__call__`` (of the
    function a FUNCTION_TRANSFORMS object runs: ``jax.jit(net.apply)``)."""
    uses: list[TracerUse] = []
    for app in live_applications(ctx):
        if app.jit.qualname not in TRACING_JITS or any(
                k.star or (k.keyword is not None and k.keyword.value in SPEC_KEYWORDS) for k in app.keywords):
            continue
        method = _applied_module_call(ctx, app.target, app.frame.scope)
        if method is not None:
            params = positional_params(method)[1:]
        else:  # ``jax.jit(net.apply)`` of ``net = hk.transform(forward)``: ``forward``
            transformed = transformed_function(ctx, app.target, app.frame.scope)
            if transformed is None:
                continue
            method, params = transformed[0], positional_params(transformed[0])
        traced = {p.name.value for p in (*params, *method.params.kwonly_params) if p.default is None}
        if traced:
            analysis = _FunctionAnalysis(ctx, JittedFunction(method, [app], traced, set(traced)),
                                         set(jitted_functions(ctx)),
                                         traced_by=f"{app.jit.qualname}({_src(app.target)})")
            analysis.solve()
            uses.extend(analysis.run())
    return uses


def function_value(model: SemanticModel, expr: Optional[cst.BaseExpression], scope: Scope, depth: int = 0):
    """The def or lambda of this module ``expr`` is (a lambda, or a name bound once to one, or
    to another such name: ``callback = body``)."""
    if isinstance(expr, cst.Lambda):
        return expr
    if isinstance(expr, cst.Name):
        binding = model.single_binding(expr.value, scope)
        if binding is not None and binding.kind == "def" and isinstance(binding.node, cst.FunctionDef):
            return binding.node
        if binding is not None and binding.kind == "assign" and isinstance(binding.value, cst.Lambda):
            return binding.value
        if binding is not None and binding.kind == "assign" and isinstance(binding.value, cst.Name) and depth < 3:
            return function_value(model, binding.value, binding.scope, depth + 1)
    return None


def _handed_params(call: cst.Call, fact: TracingCall, func, static: frozenset[int] = frozenset(),
                   bound: Bound = _UNBOUND) -> set[str]:
    """The parameters of ``func`` that ``call`` (a TRACING_CALLS call) gives tracers: not those
    at the ``static`` positions (``jax.checkpoint(f, static_argnums=1)``), nor those a
    ``functools.partial`` around it binds."""
    params = [p for p in _open_params(func, bound) if p.default is None]
    chosen = set(range(len(params))) if fact.given is None else set(fact.given)
    chosen -= static
    if fact.in_axes is not None:
        axes = argument_value(call, *fact.in_axes)
        if isinstance(axes, (cst.Tuple, cst.List)):
            chosen = {i for i, e in enumerate(axes.elements)
                      if not (isinstance(e.value, cst.Name) and e.value.value == "None")}
        elif axes is not None and not isinstance(axes, cst.Integer):
            return set()  # not a literal: which are mapped is unknown
    if fact.argnums is not None:
        argnums = argument_value(call, *fact.argnums)
        if argnums is None:
            chosen = {0}
        elif isinstance(argnums, cst.Integer):
            chosen = {int(argnums.value)}
        elif isinstance(argnums, cst.Tuple) and all(isinstance(e.value, cst.Integer) for e in argnums.elements):
            chosen = {int(e.value.value) for e in argnums.elements}
        else:
            return set()
    for argument, index in fact.optional_inputs:
        value = argument_value(call, *argument)
        if value is None or (isinstance(value, cst.Name) and value.value == "None"):
            chosen.discard(index)
    return {params[i].name.value for i in chosen if i < len(params)}


SCHEDULE_LEAF_NAMES = frozenset(name.rpartition(".")[2] for name in SCHEDULE_PARAMS)


def _schedule_uses(ctx: FileContext) -> list[TracerUse]:
    """A def passed as an optimizer's schedule (jaxfacts.SCHEDULE_PARAMS: ``optax.sgd(lr_fn)``,
    also the def a factory makes and returns: ``optax.sgd(make_schedule(...))``) runs with a traced step count when the optimizer's update runs traced: a method of the
    object holding it is jitted (``jax.jit(op.update)``) or called in traced code, or the
    object is passed to a jitted function (a TrainState)."""
    model = ctx.model
    uses: list[TracerUse] = []
    for site in [site for leaf in SCHEDULE_LEAF_NAMES for site in model.calls_named(leaf)]:
        qualname = model.qualified_name(site.node.func, site.frame.scope)
        where = SCHEDULE_PARAMS.get(qualname or "")
        schedule = _schedule_def(ctx, site, where) if where is not None else None
        if schedule is None or not _update_runs_traced(ctx, site):
            continue
        count = positional_params(schedule)[0].name.value
        analysis = _FunctionAnalysis(ctx, JittedFunction(schedule, [], {count}, set()),
                                     set(jitted_functions(ctx)), schedule_of=qualname)
        analysis.solve()
        uses.extend(analysis.run())
    return uses


def _schedule_def(ctx: FileContext, site, where: tuple[int, str]) -> Optional[cst.FunctionDef | cst.Lambda]:
    model = ctx.model
    position, keyword = where
    positional = [a for a in site.node.args if a.keyword is None and not a.star]
    chosen = [a for a in site.node.args if a.keyword is not None and a.keyword.value == keyword]
    arg = chosen[0] if chosen else positional[position] if position < len(positional) else None
    if arg is None:
        return None
    value, scope, schedule = arg.value, site.frame.scope, None
    if isinstance(value, cst.Name):
        binding = model.single_binding(value.value, scope)
        if binding is None:
            return None
        if binding.kind == "def":
            schedule = binding.node
        elif binding.kind == "assign":
            value, scope = binding.value, binding.scope
    if isinstance(value, cst.Call):  # ``make_schedule(...)``: the def the factory makes and returns
        schedule = returned_made_function(model, value_flow(ctx), value, scope)
    elif isinstance(value, cst.Lambda):  # ``optax.sgd(lambda count: ...)``, or bound to a name
        schedule = value
    if isinstance(schedule, cst.FunctionDef) and schedule.decorators:
        return None
    if not isinstance(schedule, (cst.FunctionDef, cst.Lambda)) or not positional_params(schedule):
        return None
    return schedule


def _update_runs_traced(ctx: FileContext, site) -> bool:
    """The object built around ``site``'s optimizer (``op = optax.sgd(...)``, also inside
    ``optax.chain(...)``, ``nnx.Optimizer(model, ...)``, ``TrainState.create(tx=...)``) has a
    method jitted or called in traced code, or is passed to a jitted function."""
    model = ctx.model
    line = site.statement
    statement = line.body[0] if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 else None
    if not isinstance(statement, cst.Assign) or len(statement.targets) != 1 \
            or not _argument_of_calls(statement.value, site.node):
        return False
    target = statement.targets[0].target
    if isinstance(target, cst.Attribute):  # ``self.tx = optax.adamw(...)`` in a method
        instances = calling_context(ctx)
        owner = instances.instance_class(target.value, site.frame.scope) \
            if isinstance(target.value, cst.Name) else None
        if owner is None:
            return False

        def holds(expr: cst.BaseExpression, scope: Scope) -> bool:
            return isinstance(expr, cst.Attribute) and expr.attr.value == target.attr.value \
                and isinstance(expr.value, cst.Name) and instances.instance_class(expr.value, scope) is owner
    elif isinstance(target, cst.Name):
        holder = model.single_binding(target.value, site.frame.scope)
        if holder is None:
            return False

        def holds(expr: cst.BaseExpression, scope: Scope) -> bool:
            return isinstance(expr, cst.Name) and expr.value == holder.name \
                and model.lookup(holder.name, scope) == [holder]
    else:
        return False

    for app in live_applications(ctx):
        if isinstance(app.target, cst.Attribute) and holds(app.target.value, app.frame.scope):
            return True
    for jc in jitted_calls(ctx):
        scope = model.call_site_of[jc.call].frame.scope
        if any(holds(arg.value, scope) for arg in jc.call.args):
            return True
    context = calling_context(ctx)
    for call in model.calls:
        func = call.node.func
        if isinstance(func, cst.Attribute) and holds(func.value, call.frame.scope) \
                and context.runs_traced(call.frame):
            return True
    return False


def _argument_of_calls(expr: cst.BaseExpression, call: cst.Call) -> bool:
    """``expr`` is ``call``, or a call with ``call`` among its arguments (at any depth)."""
    if expr is call:
        return True
    return isinstance(expr, cst.Call) and any(_argument_of_calls(arg.value, call) for arg in expr.args)


def _post_init_uses(ctx: FileContext) -> list[TracerUse]:
    """jit rebuilds a pytree dataclass from its traced leaves, which runs ``__post_init__`` again
    with its array fields traced (flax.struct, jax_dataclasses, register_dataclass: measured)."""
    uses = []
    for cls in _pytree_dataclasses(ctx, REINITIALISED_PYTREES):
        body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
        for method in body:
            if isinstance(method, cst.FunctionDef) and method.name.value == "__post_init__" \
                    and positional_params(method):
                self_name = positional_params(method)[0].name.value
                analysis = _FunctionAnalysis(ctx, JittedFunction(method, [], {self_name}, set()),
                                             set(jitted_functions(ctx)), rebuilt=cls.name.value)
                analysis.solve()
                uses.extend(analysis.run())
    return uses


def _passed_arrays(ctx: FileContext, jitted: JittedFunction) -> set[str]:
    """The traced parameters every jitted call in the module fills with a jax array it makes
    (``f(jnp.array([[6.0, 1 - 2j], ...]))``): arrays under the trace, never a Python container."""
    return _filled_by_every_call(ctx, jitted, jitted.traced_params, _made_jax_array)


def _passed_containers(ctx: FileContext, jitted: JittedFunction) -> set[str]:
    """The traced parameters every jitted call in the module fills with a Python tuple, list or
    dict (a display, a comprehension, ``tuple(...)``; directly or through a name bound once):
    a pytree of arrays, whose truth value and length are concrete under the trace."""
    return _filled_by_every_call(ctx, jitted, jitted.array_params, _python_container)


def _filled_by_every_call(ctx: FileContext, jitted: JittedFunction, params, kind) -> set[str]:
    """Those of ``params`` that every jitted call of the function in the module passes a value
    of ``kind`` (a predicate of the model, the value flow, the argument and its scope)."""
    model, flow = ctx.model, value_flow(ctx)
    calls = [jc for jc in jitted_calls(ctx) if jc.func is jitted.func]
    found = set()
    for name in params:
        values = [(jc.argument(name), model.call_site_of[jc.call].frame.scope) for jc in calls]
        if values and all(value is not None and kind(model, flow, value, scope) for value, scope in values):
            found.add(name)
    return found


def _python_container(model: SemanticModel, flow, expr: cst.BaseExpression, scope: Scope) -> bool:
    if isinstance(expr, cst.Name):
        binding = flow.single(expr, scope)
        expr, scope = (binding.value, binding.scope) if binding is not None and binding.kind == "assign" \
            else (None, scope)
    if isinstance(expr, (cst.Tuple, cst.List, cst.Dict, cst.ListComp, cst.DictComp)):
        return True
    return isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) \
        and expr.func.value in ("tuple", "list", "dict") and not model.lookup(expr.func.value, scope)


def _made_jax_array(model: SemanticModel, flow, expr: cst.BaseExpression, scope: Scope) -> bool:
    if isinstance(expr, cst.Name):
        binding = flow.single(expr, scope)
        expr = binding.value if binding is not None and binding.kind == "assign" else None
    return isinstance(expr, cst.Call) and makes_jax_array(model.qualified_name(expr.func, scope))


def traced_values(ctx: FileContext, jitted: JittedFunction) -> "_FunctionAnalysis":
    """The solved traced-value dataflow of one jitted def (``.traced(expr, scope)``).

    A parameter with a default is traced too when a call in this module passes it (not as a
    static argument): JAX uses the Python default only when the argument is left out."""
    def compute(ctx: FileContext) -> _FunctionAnalysis:
        passed = _defaulted_params_passed(ctx, jitted)
        containers = _passed_containers(ctx, jitted)
        if passed or containers:
            jitted_copy = JittedFunction(jitted.func, jitted.apps, jitted.traced_params | passed,
                                         (jitted.array_params | passed) - containers)
        else:
            jitted_copy = jitted
        analysis = _FunctionAnalysis(ctx, jitted_copy, set(jitted_functions(ctx)))
        analysis.solve()
        return analysis
    return ctx.shared(("traced-values", id(jitted.func)), compute)


def needs_python_value(ctx: FileContext, name: str, param: str) -> Optional[bool]:
    """Would jitted def ``name`` of this module raise if ``param`` were traced (it is used as a
    shape, a bound, a Python condition ...)?  None when the def is not in this module."""
    entries = [e for f, e in jitted_functions(ctx).items() if f.name.value == name]
    if len(entries) != 1 or param not in {p.name.value for p in (*positional_params(entries[0].func),
                                                                 *entries[0].func.params.kwonly_params)}:
        return None
    entry = entries[0]

    def uses(traced: set[str]) -> dict[int, str]:
        analysis = _FunctionAnalysis(ctx, JittedFunction(entry.func, entry.apps, traced, traced),
                                     set(jitted_functions(ctx)))
        analysis.solve()
        return {id(use.node): use.kind for use in analysis.run()}

    # only the uses the parameter causes, with the other parameters traced as the jit traces
    # them (``x.reshape(n, k)`` needs ``x`` traced for ``k`` to count as its shape)
    others = set(entry.traced_params) - {param}
    without = uses(others)
    return any(kind != "print" and node not in without for node, kind in uses(others | {param}).items())


def _defaulted_params_passed(ctx: FileContext, jitted: JittedFunction) -> set[str]:
    """The defaulted parameters some call passes at a traced position (also through an
    instance: ``model.run_from_state(..., output_averages=False)``, jax-gcm 0c65af4)."""
    defaulted = {p.name.value for p in (*positional_params(jitted.func), *jitted.func.params.kwonly_params)
                 if p.default is not None}
    passed: set[str] = set()
    for call in jitted_calls(ctx) if defaulted else ():
        if call.func is not jitted.func or call.app.jit.qualname not in TRACING_JITS:
            continue  # under equinox's filtering a passed Python value stays static (_filter_jitted)
        dynamic = {id(arg) for arg in call.dynamic_args()}
        passed.update(name for name, arg in call.passed() if name in defaulted and id(arg) in dynamic
                      and not _none_passed(ctx, arg.value, call.call))
    return passed | _defaulted_params_bound(ctx, jitted, defaulted)


def _defaulted_params_bound(ctx: FileContext, jitted: JittedFunction, defaulted: set[str]) -> set[str]:
    """The defaulted parameters a ``functools.partial`` of the jitted def binds by keyword
    (``partial(l1_loss, training=True)``): every call of the partial passes them, traced unless
    the jit marks them static (egnn-jax 8d9332c)."""
    if not defaulted or not jitted.apps:
        return set()
    statics = [static_names(spec_of(app, ctx.model)) for app in jitted.apps]
    if any(static is None for static in statics) or any(app.jit.qualname not in TRACING_JITS for app in jitted.apps):
        return set()
    static = frozenset().union(*statics)  # type: ignore[arg-type]
    found: set[str] = set()
    for site in ctx.model.calls:
        call = site.node
        if not (call.args and call.args[0].keyword is None and isinstance(call.args[0].value, cst.Name)
                and ctx.model.qualified_name(call.func, site.frame.scope) == "functools.partial"):
            continue
        binding = ctx.model.single_binding(call.args[0].value.value, site.frame.scope)
        if binding is None or binding.node is not jitted.func:
            continue
        found.update(a.keyword.value for a in call.args[1:] if a.keyword is not None
                     and a.keyword.value in defaulted and a.keyword.value not in static and not is_none(a.value))
    return found


def _none_passed(ctx: FileContext, value: cst.BaseExpression, call: cst.Call) -> bool:
    """``None``, or a parameter of the calling function that only ever holds its None default
    (``step(state, l1_reg_lambda)`` in ``epoch_step(..., l1_reg_lambda=None)``): an empty
    pytree, not a tracer."""
    if is_none(value):
        return True
    if not isinstance(value, cst.Name):
        return False
    reaching = value_flow(ctx).reaching(value, ctx.model.call_site_of[call].frame.scope)
    context = calling_context(ctx)
    return bool(reaching) and all(b.kind == "param" and context.only_none(b) for b in reaching)


def _pytree_array_fields(ctx: FileContext) -> frozenset[str]:
    """Names of the fields annotated as arrays (``x: jax.Array``, no static marker) in this
    module's pytree dataclasses, that no class of the module declares in another way."""
    model = ctx.model
    arrays: set[str] = set()
    others: set[str] = set()
    pytrees = set(_pytree_dataclasses(ctx))
    for cls, frame in model.classes.items():
        scope = frame.scope
        pytree = cls in pytrees
        body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
        for statement in body:
            for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
                if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                    array = pytree and small.value is None \
                        and _array_annotation(model, small.annotation.annotation, scope)
                    (arrays if array else others).add(small.target.value)
                elif isinstance(small, cst.Assign):
                    others.update(t.target.value for t in small.targets if isinstance(t.target, cst.Name))
    return frozenset(arrays - others)


# The array modules array-API style code passes around as a parameter (``xp=np``).
ARRAY_NAMESPACES = frozenset({"numpy", "jax.numpy"})


class Namespace(NamedTuple):
    """The array module a parameter holds, and the call that chose it (None: the jitted root's
    own), passing it or leaving the parameter at its default (``left_out``)."""

    module: str
    call: Optional[cst.Call]
    left_out: bool
ARITHMETIC_DUNDERS = frozenset({"__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
                                "__truediv__", "__rtruediv__", "__pow__", "__matmul__", "__rmatmul__"})


def wrapper_fields(ctx: FileContext) -> frozenset[str]:
    return ctx.shared("wrapper-fields", _wrapper_fields)


def _wrapper_fields(ctx: FileContext) -> frozenset[str]:
    """The fields value-wrapper classes of this module store their data in: a class with an
    arithmetic dunder that returns a new instance of itself, and ``self.<field> = <parameter>``
    in its ``__init__`` (``ArrayIrregular(values)`` keeping ``self.array = values``)."""
    found: set[str] = set()
    for cls in ctx.model.classes:
        methods = class_methods(cls)
        init = methods.get("__init__")
        if init is None or not any(
                isinstance(r.value, cst.Call) and isinstance(r.value.func, cst.Name)
                and r.value.func.value == cls.name.value
                for name in ARITHMETIC_DUNDERS if name in methods
                for r in own_nodes(methods[name].body) if isinstance(r, cst.Return) and r.value is not None):
            continue
        params = {p.name.value for p in positional_params(init)[1:]}
        for node in own_nodes(init.body):
            if isinstance(node, cst.Assign) and len(node.targets) == 1 \
                    and isinstance(node.targets[0].target, cst.Attribute) \
                    and isinstance(node.targets[0].target.value, cst.Name) \
                    and node.targets[0].target.value.value == "self" \
                    and isinstance(node.value, cst.Name) and node.value.value in params:
                found.add(node.targets[0].target.attr.value)
    return frozenset(found)


def _array_annotation(model: SemanticModel, annotation: cst.BaseExpression, scope: Scope) -> bool:
    """An array type, or an array or None: ``Optional[jax.Array]``, ``jax.Array | None``, and
    the tuple some code writes for that (``(None, jnp.array)``)."""
    if model.qualified_name(annotation, scope) in ARRAY_ANNOTATIONS:
        return True
    if isinstance(annotation, cst.BinaryOperation) and isinstance(annotation.operator, cst.BitOr):
        parts = [annotation.left, annotation.right]
    elif isinstance(annotation, cst.Tuple):
        parts = [e.value for e in annotation.elements]
    elif isinstance(annotation, cst.Subscript) and model.qualified_name(annotation.value, scope) in (
            "typing.Optional", "typing.Union"):
        parts = [e.slice.value for e in annotation.slice if isinstance(e.slice, cst.Index)]
    else:
        return False
    arrays = [p for p in parts if not is_none(p)]
    return bool(arrays) and all(model.qualified_name(p, scope) in ARRAY_ANNOTATIONS for p in arrays)


def _pytree_dataclasses(ctx: FileContext, kinds: frozenset = PYTREE_DATACLASS_DECORATORS
                        | PYTREE_DATACLASS_BASES) -> list[cst.ClassDef]:
    """This module's classes decorated with, or based on, one of ``kinds``."""
    model = ctx.model
    found: list[cst.ClassDef] = []
    changed = True
    while changed:  # a subclass of one found (``class Gaussian(Profile)``, ``Profile(eqx.Module)``) too
        changed = False
        for cls, frame in model.classes.items():
            if cls in found:
                continue
            decorators = class_decorators(ctx, cls, frame.scope)
            bases = {model.qualified_name(base.value, frame.scope) for base in cls.bases}
            local = {model.qualified_name(base.value, frame.scope) for base in cls.bases
                     if _local_class(model, base.value, frame.scope) in found}
            if ((decorators | bases) & kinds or local) and not bases - kinds - local:
                found.append(cls)
                changed = True
    return found


def _local_class(model: SemanticModel, expr: cst.BaseExpression, scope: Scope) -> Optional[cst.ClassDef]:
    binding = model.single_binding(expr.value, scope) if isinstance(expr, cst.Name) else None
    return binding.node if binding is not None and binding.kind == "class" else None


def _leaf_fields(ctx: FileContext) -> dict[cst.ClassDef, frozenset[str]]:
    """This module's pytree dataclasses that make every field a leaf (jaxfacts
    LEAF_FIELD_DATACLASSES), each with its annotated fields not marked static: traced, whatever
    their annotation, in an instance jit traces."""
    model = ctx.model
    found: dict[cst.ClassDef, frozenset[str]] = {}
    containers = set(_pytree_dataclasses(ctx, LEAF_FIELD_DATACLASSES))
    for cls in containers:
        # a field holding another of these dataclasses is a subtree, not a leaf: its own static
        # fields (``core.device``, ``pytree_node=False``) stay Python values under the trace
        annotations = _field_annotations(model, cls)
        found[cls] = frozenset(f for f in _unmarked_fields(model, cls)
                               if not _names_class_of(annotations.get(f), containers, model, model.classes[cls].scope))
    for cls, frame in model.classes.items():  # ``@register_pytree_node_class``: tree_flatten's children
        if any(PYTREE_METADATA_DECORATORS.get(model.qualified_name(d.decorator, frame.scope) or "") == "flatten"
               for d in cls.decorators):
            flatten = class_methods(cls).get("tree_flatten")
            if flatten is not None:
                found[cls] = frozenset(flattened_children(flatten))
    return found


def _names_class_of(annotation: Optional[cst.BaseExpression], classes: set, model: SemanticModel, scope: Scope) -> bool:
    """``core: SimCore`` or ``attitude: AttitudeData | None`` naming one of ``classes``."""
    if isinstance(annotation, cst.BinaryOperation) and isinstance(annotation.operator, cst.BitOr):
        return _names_class_of(annotation.left, classes, model, scope) or \
            _names_class_of(annotation.right, classes, model, scope)
    if isinstance(annotation, cst.SimpleString):
        return any(cls.name.value == annotation.evaluated_value for cls in classes)
    return _local_class(model, annotation, scope) in classes if annotation is not None else False


def _declared_fields(model: SemanticModel, cls: cst.ClassDef, seen: frozenset = frozenset()
                     ) -> dict[str, tuple[cst.AnnAssign, Scope]]:
    """Each annotated field of ``cls`` and of the classes of this module it derives from (a
    subclass's declaration wins), with the scope it is declared in."""
    found: dict[str, tuple[cst.AnnAssign, Scope]] = {}
    for base in cls.bases:
        local = _local_class(model, base.value, model.classes[cls].scope)
        if local is not None and local is not cls and local not in seen:
            found.update(_declared_fields(model, local, seen | {cls}))
    scope = model.classes[cls].scope
    found.update((field.target.value, (field, scope)) for field in annotated_fields(cls))
    return found


def _unmarked_fields(model: SemanticModel, cls: cst.ClassDef) -> frozenset[str]:
    """The fields of ``cls`` (``_declared_fields``) not marked static."""
    return frozenset(name for name, (field, scope) in _declared_fields(model, cls).items()
                     if not _marked_static(field.value, scope, model))


def _jax_jit_leaf_fields(ctx: FileContext) -> dict[cst.ClassDef, frozenset[str]]:
    """``_leaf_fields``, and the equinox Modules of this module: under ``jax.jit`` (not
    ``eqx.filter_jit``) every field not marked static is a traced leaf, ints and floats too (a
    ``str`` field makes the call raise instead: JIT807)."""
    found = dict(ctx.shared("pytree-leaf-fields", _leaf_fields))
    model = ctx.model
    for cls in _pytree_dataclasses(ctx, EQUINOX_MODULE_BASES):
        if cls not in found:
            annotations = _field_annotations(model, cls)
            found[cls] = frozenset(f for f in _unmarked_fields(model, cls)
                                   if dotted_name(annotations[f]) not in NON_JAX_FIELD_TYPES)
    return found


def _field_annotations(model: SemanticModel, cls: cst.ClassDef) -> dict[str, cst.BaseExpression]:
    """The annotation of each field of ``cls`` (``_declared_fields``)."""
    return {name: field.annotation.annotation for name, (field, _) in _declared_fields(model, cls).items()}


def _marked_static(value: Optional[cst.BaseExpression], scope: Scope, model: SemanticModel) -> bool:
    """``field(pytree_node=False)``, ``eqx.field(static=True)``: a field kept out of the leaves
    (or a call of anything else: not known to be a leaf)."""
    if not isinstance(value, cst.Call):
        return False
    qualname = model.qualified_name(value.func, scope)
    if qualname not in STATIC_FIELD_MARKERS:
        return True
    marker = STATIC_FIELD_MARKERS[qualname]
    if marker is None:
        return True
    keyword, marked = marker
    return any(arg.keyword is not None and arg.keyword.value == keyword
               and isinstance(arg.value, cst.Name) and arg.value.value == str(marked)
               for arg in value.args)


def _name(func) -> str:
    return func.name.value if isinstance(func, cst.FunctionDef) else "<lambda>"


class HeldObject(NamedTuple):
    """An instance of a class of this module, and its attributes that hold tracers."""

    cls: cst.ClassDef
    fields: frozenset[str]


class _FunctionAnalysis:
    """The traced values of a jitted def, or of a module function it calls with traced
    arguments (``caller`` set: its parameters that receive them are the traced ones)."""

    def __init__(self, ctx: FileContext, jitted: JittedFunction, jitted_defs: set,
                 caller: Optional["_FunctionAnalysis"] = None, depth: int = 0,
                 rebuilt: str = "", traced_by: str = "",
                 module_params: Optional[dict[str, cst.ClassDef]] = None,
                 schedule_of: str = "", staged: bool = True,
                 traced_fields: frozenset[str] = frozenset(), jit_outputs: bool = False,
                 project_caller: str = "", array_params: frozenset[str] = frozenset(),
                 object_params: Optional[dict[str, "HeldObject"]] = None,
                 record_params: Optional[dict[str, frozenset[str]]] = None,
                 constant_params: frozenset[str] = frozenset(),
                 constant_objects: Optional[dict[str, frozenset[str]]] = None,
                 outer_jit_positions: Optional[dict[str, int]] = None,
                 namespace_params: Optional[dict[str, "Namespace"]] = None) -> None:
        self.ctx = ctx
        # parameters that hold an array module, passed or by default (``xp=np``, array-API
        # style code): ``xp.sqrt`` is ``numpy.sqrt`` when the call leading here leaves ``xp`` out
        self.namespace_params: dict[str, Namespace] = namespace_params or {}
        # parameters every call leading here fills with a concrete jax array (a module global
        # ``ub = jnp.full(2, 10.0)`` passed on): under a staging trace, jax operations on them
        # give tracers (omnistaging), as on the global itself
        self.constant_params = constant_params
        # parameters handed an object made outside the trace whose fields hold concrete jax
        # arrays (``grid = SpectralGrid(z=jnp.linspace(...))`` passed on): those fields
        self.constant_objects = constant_objects or {}
        self._replaced_defaults: dict[int, bool] = {}  # param binding id -> _replaced_default
        # helper parameters handed a parameter of the jitted root as it is: helper name -> root
        # name (a Python flag that a traced test reads here is the root's to mark static)
        self.param_origins: dict[str, str] = {}
        # traced parameters handed dicts with literal str keys (or a list of them), only some of
        # whose entries hold tracers: the keys that do (``{"key": name, "val": p[name]}``)
        self.record_params = record_params or {}
        self._str_key_reads: Optional[dict[str, list[cst.Name]]] = None
        self._host_defs: Optional[set[int]] = None
        self._writing: set[str] = set()  # containers whose item writes are being judged
        # parameters handed an instance of a class of this module whose attributes hold tracers
        # (``Sinkhorn()(prob)`` with ``prob = LinearProblem(geom, tau_a=tau_a)``)
        self.object_params = object_params or {}
        self.held_property = ""  # the class whose property this is, read on such an object
        # traced parameters that every traced call of this helper fills with a jax array (not a
        # pytree container): ``isinstance(p, dict)`` is False for them under the trace
        self.array_params = array_params
        self._root_arrays: Optional[set[str]] = None  # arrays_passed() of a jitted def
        # the second pass of ``_nested_jit_uses``: a call of a jitted function returns tracers
        # (under an outer jit it does whatever its arguments, static ones too)
        self.jit_outputs = jit_outputs if caller is None else caller.jit_outputs
        self.nested_calls: list[cst.Call] = []  # (root) the jitted calls that pass judged traced
        # the jitted function of another module that calls this one with traced arguments
        # (``jitted `layer` in main.py``)
        self.project_caller = project_caller
        # fields of ``self`` built from traced values (``Net(training=t).apply(...)``'s __call__)
        self.traced_fields = traced_fields
        # a staging trace (jit, vmap, a lax loop; not jax.grad alone): every jax.numpy call is
        # staged out, on constants too (``jnp.unique(np_array)`` raises under jit)
        self.staged = staged if caller is None else caller.staged
        self.rebuilt = rebuilt  # the pytree class whose __post_init__ this is
        self.traced_by = traced_by  # the call that traces it (``jax.vmap``), when not a jit
        # under ``jax.jit(jax.vmap(f), static_argnums=...)``: the position in the jit's call of each
        # parameter the jit traces, where ``static_argnums`` on that jit would keep it a Python value
        self.outer_jit_positions = outer_jit_positions or {}
        # traced parameters that are instances of these pytree classes (equinox Modules)
        self.module_params = module_params or {}
        self.schedule_of = schedule_of  # the optimizer this def is the schedule of
        self.model = model = ctx.model
        self.flow = value_flow(ctx)
        self.array_fields = ctx.shared("pytree-array-fields", _pytree_array_fields)
        self.jitted = jitted
        self.func = jitted.func
        self.jitted_defs = jitted_defs
        self.caller = caller
        self.entry_call: Optional[cst.Call] = None  # the caller's call that led here (a followed helper)
        self.depth = depth
        self.scope_ids = scopes_within(model, jitted.func)
        self.traced_bindings: set[int] = set()
        self.mapped: dict[int, dict[str, list]] = {}  # (solve) the parameters tree maps feed
        self.param_bindings: dict[int, str] = {}
        self.uses: dict[int, TracerUse] = {}
        # (jitted callee, static parameter) already reported in this function: one fix, one finding
        self.static_reached: set[tuple[str, str]] = set()
        self.followed: dict[tuple, "_FunctionAnalysis"] = {}
        # parameter -> class -> the call arguments passing an instance (none: its annotation)
        self._param_classes: Optional[dict[str, dict[cst.ClassDef, list[cst.Arg]]]] = None
        # (helper, its traced parameters) -> its analysis, for the tracedness of what it returns
        # (kept apart from ``followed``: asked during ``solve``, before the state is final)
        self._returns: dict[tuple, "_FunctionAnalysis"] = {}

    @cached_property
    def compile_time_eval_nodes(self) -> frozenset[int]:
        """The nodes inside ``with jax.ensure_compile_time_eval():`` blocks of this function
        (jaxfacts.COMPILE_TIME_EVAL_CONTEXTS): on concrete operands their jax operations run
        eagerly and give concrete arrays."""
        found: set[int] = set()
        for node in own_nodes(self.func):
            if isinstance(node, cst.With) and any(
                    isinstance(item.item, cst.Call)
                    and self.model.qualified_name(item.item.func, self.model.scope_of.get(self.func)
                                                  or self.model.module_scope) in COMPILE_TIME_EVAL_CONTEXTS
                    for item in node.items):
                found.update(id(n) for n in iter_nodes(node.body))
        return frozenset(found)

    def jax_array_constant(self, expr: cst.BaseExpression, scope: Scope) -> bool:
        """A concrete jax array the staged code reads: a name bound outside this function (a
        module global, a closure) or inside a ``jax.ensure_compile_time_eval()`` block, to the
        result of a jax array function (``W = jnp.ones(3)``).  The name itself is concrete, but
        under a staging trace every jax operation on it is staged out and gives a tracer
        (omnistaging: ``if (W > 0).all():`` raises; jax#9823 for the block)."""
        if self.staged and isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name):
            return expr.attr.value in (self.constant_array_fields(expr.value, scope) or ())  # ``grid.z``
        if not self.staged or not isinstance(expr, cst.Name):
            return False
        bindings = self.flow.reaching(expr, scope)
        if not bindings:
            return False
        for binding in bindings:
            evaluated = id(binding.node) in self.compile_time_eval_nodes
            if binding.kind == "param" and binding.scope.node is self.func and binding.name in self.constant_params:
                continue
            if id(binding.scope) in self.scope_ids and not evaluated:
                return False  # a local: its own tracedness decides
            value = assigned(binding).value
            if isinstance(value, (cst.Comparison, cst.BinaryOperation)) and evaluated:
                continue
            qualname = self.model.qualified_name(value.func, binding.scope) if isinstance(value, cst.Call) else None
            if not makes_jax_array(qualname):
                return False
        return True

    def constant_array_fields(self, name: cst.Name, scope: Scope) -> Optional[frozenset[str]]:
        """The fields holding concrete jax arrays of the object ``name`` holds: a parameter of
        ``constant_objects``, or a name bound outside this function to an instance of a class
        of this module made with jax arrays (``SpectralGrid(z=jnp.linspace(...))``)."""
        bindings = self.flow.reaching(name, scope)
        if len(bindings) != 1:
            return None
        binding = bindings[0]
        if binding.kind == "param" and binding.scope.node is self.func:
            return self.constant_objects.get(binding.name)
        value = assigned(binding).value
        if id(binding.scope) in self.scope_ids or not isinstance(value, cst.Call):
            return None
        cls = calling_context(self.ctx).class_of(value.func, binding.scope)
        if cls is None:
            return None
        init = class_methods(cls).get("__init__")
        # a plain class: the ``__init__`` parameters an argument fills, and the fields it
        # stores them in (``self.x_a = x_a``); a dataclass: its fields in order
        order = [p.name.value for p in positional_params(init)[1:]] if init is not None \
            else [field.target.value for field in annotated_fields(cls)]  # type: ignore[attr-defined]
        filled = set()
        for index, arg in enumerate(value.args):
            if arg.star:
                break
            field = arg.keyword.value if arg.keyword is not None else order[index] if index < len(order) else None
            made = arg.value
            if isinstance(made, cst.BinaryOperation):  # ``jnp.fft.fftfreq(8) * 8.0``
                made = made.left
            if field is not None and (isinstance(made, cst.Call) and makes_jax_array(
                    self.model.qualified_name(made.func, binding.scope))
                    or isinstance(made, cst.Name) and self.jax_array_constant(made, binding.scope)):
                filled.add(field)  # ``Driver(jnp.linspace(...))``, or ``x_a = jnp.linspace(...); Driver(x_a)``
        if init is None:
            return frozenset(filled) or None
        stored = {attr for attr, held, _ in fields_set_in_init(self.model, cls)
                  if isinstance(held, cst.Name) and held.value in filled}
        return frozenset(stored) or None

    def _staged_operand(self, operand: cst.BaseExpression, scope: Scope, at: cst.CSTNode) -> bool:
        """``operand`` of the operation ``at`` gives a tracer there: traced, or a concrete jax
        array operated on outside a compile-time-eval block."""
        return self.traced(operand, scope) or (
            id(at) not in self.compile_time_eval_nodes and self.jax_array_constant(operand, scope))

    @property
    def root(self) -> "_FunctionAnalysis":
        return self if self.caller is None else self.caller.root

    @property
    def where(self) -> str:
        """How messages name the function: ``jitted `f` `` or ``helper `h` (called ... `f`)``."""
        if self.rebuilt:
            return f"`{self.rebuilt}.__post_init__` (jit rebuilds `{self.rebuilt}` from its traced leaves)"
        if self.schedule_of:
            return (f"schedule `{_name(self.func)}` (`{self.schedule_of}`'s update, run under jit, "
                    f"calls it with the traced step count)")
        if self.held_property:
            return (f"property `{self.held_property}.{_name(self.func)}` (read in jitted "
                    f"`{_name(self.root.func)}` on an object whose attributes hold tracers)")
        if self.caller is None:
            if self.project_caller:
                return f"`{_name(self.func)}` (called with traced arguments from {self.project_caller})"
            if self.traced_by:
                under = " under `jax.jit`" if self.outer_jit_positions else ""
                return f"`{_name(self.func)}` (traced by `{self.traced_by}`{under})"
            return f"jitted `{_name(self.func)}`"
        if not (self.jitted.traced_params or self.traced_fields):  # followed for its staged calls
            return f"`{_name(self.func)}` (called from jitted `{_name(self.root.func)}`)"
        return f"`{_name(self.func)}` (called with traced arguments from jitted `{_name(self.root.func)}`)"

    def follow(self, call: cst.Call, scope: Scope, force: bool = False) -> None:
        """A call of a module function with traced arguments: analyse that function with the
        parameters receiving them traced (positional and keyword; not through *args); ``force``:
        also with none (it calls a jitted function).  A function imported from another module
        is recorded for the project index instead (``FileContext.traced_calls``): its own
        module's lint analyses it (phase 2)."""
        if self.depth >= MAX_HELPER_DEPTH:
            return
        method = self.instance_method(call.func, scope)
        if method is not None:  # ``lookup(i)`` / ``lookup.get(i)``: the method, ``self`` static
            if method is not self.func and not method.decorators and method not in self.jitted_defs:
                receiver = call.func.value if isinstance(call.func, cst.Attribute) else call.func
                held = self.held_object(receiver, scope)
                self._follow_into(method, call, scope, positional_params(method)[1:], force=force,
                                  fields=held.fields if held is not None else frozenset(),
                                  receiver_arrays=self._receiver_arrays(receiver, scope, method))
            return
        static = self._own_staticmethod(call.func, scope)
        if static is not None:  # ``self.potential_func(eta)``: a staticmethod, every parameter passed
            self._follow_into(static, call, scope, positional_params(static), force=force)
            return
        methods = self.own_methods(call.func, scope)
        for method in methods:  # ``self.prepare(x)``: the method, with this method's traced fields
            self._follow_into(method, call, scope, positional_params(method)[1:],
                              fields=self.traced_fields, force=force)
        if methods:
            return
        if self._follow_class(call, scope, force):
            return
        if not isinstance(call.func, cst.Name):
            self._record_imported(call, scope)
            return
        binding = self.model.single_binding(call.func.value, scope)
        if binding is not None and binding.kind == "import":
            self._record_imported(call, scope)
            return
        helper = self._plain_helper(call.func, scope)
        if helper is not None:
            self._follow_into(helper, call, scope, positional_params(helper), force=force)

    def _constructed_class(self, func: cst.BaseExpression, scope: Scope) -> Optional[cst.ClassDef]:
        """``Spec(...)`` of a plain class of this module whose own ``__init__`` runs in the
        trace (a spec that validates its bounds with ``jnp.any``: a tracer under omnistaging)."""
        cls = self._class_named(func, scope)
        init = inherited_method(self.model, cls, "__init__") if cls is not None else None
        return cls if init is not None and not init.decorators and init not in self.jitted_defs else None

    def _follow_class(self, call: cst.Call, scope: Scope, force: bool = False) -> bool:
        """``Cls(x)`` / ``Cls.from_factors(x)`` of a class of this module with traced arguments:
        its ``__init__`` (also inherited) or classmethod runs in this trace with them; a
        dataclass-style class without ``__init__`` runs ``__post_init__`` / ``__check_init__``
        (equinox) with the fields the call fills traced.  True when ``call`` is such a call."""
        func = call.func
        if isinstance(func, cst.Attribute):
            method = self._class_level_method(func, scope)
            if method is None:
                return False
            params = positional_params(method)
            self._follow_into(method, call, scope, params if has_decorator(method, "staticmethod") else params[1:],
                              force=force)
            return True
        cls = self._class_named(func, scope)
        if cls is None:
            return False
        init = inherited_method(self.model, cls, "__init__")
        if init is not None:
            if positional_params(init) and not init.decorators and init not in self.jitted_defs:
                self._follow_into(init, call, scope, positional_params(init)[1:], force=force)
            return True
        declared = [field.target.value for field in annotated_fields(cls)]
        fields = frozenset(field for field, value in fields_passed(cls, declared, call) if self.hands_traced(value, scope))
        for hook in VALIDATION_HOOKS:
            method = class_methods(cls).get(hook)
            if fields and method is not None and positional_params(method) and not method.decorators:
                self._follow_into(method, call, scope, [], fields=fields)
        return True

    def _class_level_method(self, func: cst.Attribute, scope: Scope) -> Optional[cst.FunctionDef]:
        """``Cls.from_factors`` / ``TimeAxis.from_medium``: a classmethod or staticmethod of a
        class of this module, called on the class (its body runs in this trace)."""
        cls = self._class_named(func.value, scope)
        method = class_methods(cls).get(func.attr.value) if cls is not None else None
        if method is None or method in self.jitted_defs \
                or [dotted_name(d.decorator) for d in method.decorators] not in (["classmethod"], ["staticmethod"]) \
                or has_decorator(method, "classmethod") and not positional_params(method):
            return None
        return method

    def _plain_helper(self, func: cst.BaseExpression, scope: Scope) -> Optional[FunctionLike]:
        """``helper`` named by ``func``: an undecorated, unjitted def of this module outside
        this function and outside a class body, or a lambda bound to a module-level name."""
        # (``utils_validate = validate_normalization``: a rename of the def)
        binding = self.model.through_aliases(self.model.single_binding(func.value, scope)) \
            if isinstance(func, cst.Name) else None
        if binding is not None and binding.kind == "assign" and isinstance(binding.value, cst.Call) \
                and id(binding.scope) not in self.scope_ids:
            # ``learning_rate_fn = make_schedule(config)``: the def the factory returns (also a
            # method of an object of this module: ``energy = force.generate_get_energy()``)
            made = calling_context(self.ctx).made_function(binding.value, binding.scope)
            if isinstance(made, cst.FunctionDef) and not made.decorators and made not in self.jitted_defs \
                    and made is not self.func:
                return made
            return None
        if binding is not None and binding.kind == "assign" and isinstance(binding.value, cst.Lambda) \
                and binding.scope.kind == "module" and binding.value is not self.func:
            # ``message_array = lambda value, xp: Model.to_form(value, xp=xp)``: a named lambda
            return binding.value  # type: ignore[return-value]
        if binding is None or binding.kind != "def" or not isinstance(binding.node, cst.FunctionDef):
            return None
        helper = binding.node
        if not self._keeps_tracedness(helper, binding.scope) or helper in self.jitted_defs or helper is self.func \
                or id(binding.scope) in self.scope_ids or binding.scope.kind == "class":
            return None
        return helper

    def _keeps_tracedness(self, helper: cst.FunctionDef, scope: Scope) -> bool:
        """No decorator, or only transforms that call the function with the arguments they get,
        position for position (``@jax.vmap``, ``@partial(jax.vmap, in_axes=(0, None))``,
        ``@jax.grad``: jaxfacts.SIGNATURE_PRESERVING_TRANSFORMS): called from traced code with a
        traced argument, the parameter is traced inside too (vmap passes an unmapped one as it is)."""
        for decorator in helper.decorators:
            expr = decorator.decorator
            keywords: list[cst.Arg] = []
            if isinstance(expr, cst.Call) and self.model.qualified_name(expr.func, scope) in PARTIAL_CONSTRUCTORS \
                    and expr.args and expr.args[0].keyword is None:
                keywords = [a for a in expr.args[1:]]
                expr = expr.args[0].value
            if self.model.qualified_name(expr, scope) not in SIGNATURE_PRESERVING_TRANSFORMS or any(
                    a.keyword is None or a.keyword.value not in TRACEDNESS_KEEPING_KEYWORDS for a in keywords):
                return False
        return True

    def instance_method(self, func: cst.BaseExpression, scope: Scope) -> Optional[cst.FunctionDef]:
        """``lookup(i)`` / ``lookup.get(i)`` where ``lookup`` is bound once to an instance of a
        class of this module (``lookup = Lookup()``): its ``__call__`` / ``get``, a plain
        method (first parameter ``self``)."""
        name, method_name = (func, "__call__") if isinstance(func, (cst.Name, cst.Call)) else \
            (func.value, func.attr.value) if isinstance(func, cst.Attribute) else (None, "")
        if isinstance(name, cst.Call):  # ``Sinkhorn()(prob)``: an instance made in place
            cls = self._class_named(name.func, scope)
        elif isinstance(name, cst.Name):
            binding = self.model.single_binding(name.value, scope) or self.flow.single(name, scope)
            held = self.held_object(name, scope) if binding is not None and binding.kind in ("param", "assign") \
                and not (self._is_self(name, scope) and self._class_of(self.func) is not None) else None
            if held is not None:  # ``y.normalize()`` of a traced pytree parameter
                cls = held.cls
            elif binding is None or binding.kind != "assign":  # (``self``: not followed here)
                return None
            else:
                cls = calling_context(self.ctx).instance_class(name, scope)
        else:
            return None
        # (also a method the class inherits from a base of this module: ``gp.compute(t, yerr)``)
        method = inherited_method(self.model, cls, method_name) if cls is not None else None
        params = positional_params(method) if method is not None else []
        if not params or params[0].name.value != "self":
            return None
        return method

    def own_methods(self, func: cst.BaseExpression, scope: Scope) -> list[cst.FunctionDef]:
        """``self.prepare`` in a method of a class of this module: the plain method of that
        class (not this one, not a jitted or decorated one), else of a base class of this
        module, else the defs of the subclasses that supply it (a base class's ``step``
        calling ``self.step_env``, defined by each environment)."""
        if not isinstance(func, cst.Attribute):
            return []
        if self._is_self(func.value, scope):
            class_scope = self.model.scope_of[self.func].parent
        else:  # ``self._score(...)`` in a def nested in a method (a loss handed to a solver)
            class_scope = self._enclosing_class_of_self(func.value, scope)
        if class_scope is None or class_scope.kind != "class" or not isinstance(class_scope.node, cst.ClassDef):
            return []
        cls, name = class_scope.node, func.attr.value
        found = inherited_method(self.model, cls, name)
        methods = [found] if found is not None else overriding_methods(self.model, cls, name)
        return [m for m in methods if m is not self.func and not m.decorators and m not in self.jitted_defs
                and positional_params(m)]

    def _own_staticmethod(self, func: cst.BaseExpression, scope: Scope) -> Optional[cst.FunctionDef]:
        """``self.name`` in a method, where ``name`` is a staticmethod of its class (or a base of
        this module), not this function, not jitted."""
        if not isinstance(func, cst.Attribute) or not self._is_self(func.value, scope):
            return None
        cls = self._class_of(self.func)
        method = inherited_method(self.model, cls, func.attr.value) if cls is not None else None
        if method is None or method is self.func or method in self.jitted_defs \
                or [dotted_name(d.decorator) for d in method.decorators] != ["staticmethod"]:
            return None
        return method

    def host_callback_defs(self) -> set[int]:
        """The defs in this function's body that it hands to a host callback
        (``jax.pure_callback(host_call, shapes, x)``: jaxfacts.HOST_CALLBACKS), by id."""
        if self._host_defs is None:
            scope = self.model.scope_of.get(self.func, self.model.module_scope)
            self._host_defs = {
                id(binding.node) for node in iter_nodes(self.func.body)
                if isinstance(node, cst.Call) and node.args and node.args[0].keyword is None
                and isinstance(node.args[0].value, cst.Name)
                and self.model.qualified_name(node.func, scope) in HOST_CALLBACKS
                for binding in self.model.lookup(node.args[0].value.value, scope) if binding.kind == "def"}
        return self._host_defs

    def _enclosing_class_of_self(self, expr: cst.BaseExpression, scope: Scope) -> Optional[Scope]:
        """The class scope of the method whose ``self`` a nested def of it reads (a closure)."""
        method = method_of_self(self.model, expr, scope) if isinstance(expr, cst.Name) else None
        if method is None or method is self.func or method.decorators:
            return None
        return self.model.scope_of[method].parent

    def own_property(self, expr: cst.Attribute, scope: Scope) -> Optional[cst.FunctionDef]:
        """``self.n_actions`` in a staged trace, a ``property`` / ``cached_property`` of this
        method's class (also inherited): reading it runs its body in the trace."""
        if not self.staged or self.depth >= MAX_HELPER_DEPTH or not self._is_self(expr.value, scope):
            return None
        cls = self._class_of(self.func)
        prop = inherited_method(self.model, cls, expr.attr.value) if cls is not None else None
        if prop is None or prop is self.func or not any(
                dotted_name(d.decorator) == "property" or self.model.qualified_name(
                    d.decorator, self.model.scope_of[prop].parent) == "functools.cached_property"
                for d in prop.decorators):
            return None
        return prop

    def runs_staged(self, call: cst.Call, scope: Scope) -> bool:
        """``call`` runs a plain function or method of this module in this staged trace, with no
        traced argument: its ``jax.numpy`` calls still give tracers (omnistaging), so
        ``int(jnp.ceil(t / dt))`` there raises."""
        if not self.staged or self.depth >= MAX_HELPER_DEPTH:
            return False
        return bool(self.own_methods(call.func, scope)) or self._plain_helper(call.func, scope) is not None \
            or self._constructed_class(call.func, scope) is not None \
            or isinstance(call.func, cst.Attribute) and (
                self._class_level_method(call.func, scope) is not None
                or self.instance_method(call.func, scope) is not None)  # ``keys.next_key()``

    def _record_imported(self, call: cst.Call, scope: Scope) -> None:
        """``relu(x)`` / ``ops.relu(x)`` / ``from .ops import relu`` with traced arguments in
        traced code, where the name is imported (not a library's: those are facts, jaxfacts):
        the positions and keywords that get traced values, for the callee's module."""
        if not self.staged:
            return  # under jax.grad alone the tracers carry values: Python tests work there
        root = call.func
        while isinstance(root, cst.Attribute):
            root = root.value
        if not isinstance(root, cst.Name):
            return
        binding = self.model.single_binding(root.value, scope)
        if binding is None or binding.kind != "import":
            return
        qualname = self.model.qualified_name(call.func, scope)
        if qualname is None or qualname.startswith(LIBRARIES):
            return
        positions, keywords = set(), set()
        for index, arg in enumerate(call.args):
            if arg.star:
                break
            if self.traced(arg.value, scope):
                if arg.keyword is not None:
                    keywords.add(arg.keyword.value)
                else:
                    positions.add(index)
        if not (positions or keywords):
            return
        _record_traced_call(self.ctx, qualname, positions, keywords, self.root.where)

    def follow_transformed(self, call: cst.Call, scope: Scope) -> None:
        """``jax.value_and_grad(loss)(params, batch, training)`` in traced code: the transform's
        function runs in this trace, its parameters receiving the traced arguments traced (and
        nested: ``jax.vmap(jax.grad(f))(xs)``'s ``f``); ``Block(4)(x)`` with a class of this
        module: its ``__call__`` (``self`` static)."""
        cls = calling_context(self.ctx).class_of(call.func.func, scope)
        method = class_methods(cls).get("__call__") if isinstance(cls, cst.ClassDef) else None
        if method is not None and method is not self.func and not method.decorators \
                and method not in self.jitted_defs and self.depth < MAX_HELPER_DEPTH:
            self._follow_into(method, call, scope, positional_params(method)[1:])
            return
        inner = call.func
        while isinstance(inner, cst.Call):
            qualname = self.model.qualified_name(inner.func, scope)
            fact = TRACING_CALLS.get(qualname) if qualname is not None else None
            if fact is None or not fact.wraps:
                return
            inner = argument_value(inner, *fact.functions[0])
        if isinstance(inner, cst.Name):
            self.follow(cst.Call(inner, call.args), scope)

    def follow_table_entries(self, call: cst.Call, scope: Scope) -> None:
        """``ACTIVATIONS[name](x)`` where ``ACTIVATIONS`` is bound once to a dict, list or tuple
        display: each plain def of this module in it, with the parameters receiving traced
        arguments traced (whichever entry the key picks)."""
        table = call.func.value if isinstance(call.func, cst.Subscript) else None
        binding = self.model.single_binding(table.value, scope) if isinstance(table, cst.Name) else None
        display = binding.value if binding is not None and binding.kind == "assign" else None
        if not isinstance(display, (cst.Dict, cst.List, cst.Tuple)) or self.depth >= MAX_HELPER_DEPTH:
            return
        for element in display.elements:
            value = element.value if isinstance(element, (cst.DictElement, cst.Element)) else None
            helper = self._plain_helper(value, binding.scope) if value is not None else None
            if helper is not None and helper is not self.func:
                self._follow_into(helper, cst.Call(value, call.args), scope, positional_params(helper))

    def follow_tree_map(self, call: cst.Call, scope: Scope, fact) -> None:
        """``jax.tree.map(clip, params)`` with a plain def of this module: ``clip`` with the
        parameters the traced trees' leaves reach traced (a nested lambda or def is part of
        this analysis: ``_mapped_nested_params``)."""
        slot, first_tree, first_param = fact
        function = argument_value(call, *slot)
        helper = self._plain_helper(function, scope) if function is not None else None
        if helper is None or helper is self.func or self.depth >= MAX_HELPER_DEPTH:
            return
        trees = [a for a in call.args if a.keyword is None and not a.star][first_tree:]
        leaves = [a.with_changes(value=cst.Subscript(a.value, [cst.SubscriptElement(cst.Index(cst.Integer("0")))]))
                  if self.elements_traced(a.value, scope) else a for a in trees]  # a leaf of a list of tracers
        self._follow_into(helper, cst.Call(function, leaves), scope, positional_params(helper)[first_param:])

    def follow_apply(self, call: cst.Call, scope: Scope) -> None:
        """``model.apply(variables, x)`` of a flax.linen Module of this module: its ``__call__``
        with ``x`` and the rest (``self`` is the module, static); ``net.apply(params, rng, x)``
        of a FUNCTION_TRANSFORMS object: its function with ``x``."""
        if self.depth >= MAX_HELPER_DEPTH:
            return
        method = _applied_module_call(self.ctx, call.func, scope, call)
        if method is not None and method is not self.func:
            self._follow_into(method, call, scope, [None, *positional_params(method)[1:]],
                              fields=self.built_fields(call.func.value, scope))
        transformed = transformed_function(self.ctx, call.func, scope) if method is None else None
        if transformed is not None and transformed[0] is not self.func:
            function, leading = transformed  # ``net.apply(params, rng, x)``: ``forward(x)``
            self._follow_into(function, call, scope, [None] * leading + positional_params(function))

    def built_fields(self, receiver: cst.BaseExpression, scope: Scope) -> frozenset[str]:
        """The fields a Module of this module gets traced values for where it is built:
        ``Net(training=t)`` (here, or bound once to the name ``receiver``), by keyword or in the
        order of the class's annotated fields."""
        built = receiver
        if isinstance(receiver, cst.Name):
            binding = self.model.single_binding(receiver.value, scope)
            built = binding.value if binding is not None and binding.kind == "assign" else None
            scope = binding.scope if binding is not None else scope
        if not isinstance(built, cst.Call):
            return frozenset()
        cls = calling_context(self.ctx).class_of(built.func, scope)
        if not isinstance(cls, cst.ClassDef):
            return frozenset()
        fields = [small.target.value for line in cls.body.body if isinstance(line, cst.SimpleStatementLine)
                  for small in line.body if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name)]
        traced = set()
        for index, arg in enumerate(built.args):
            if arg.star:
                break
            name = arg.keyword.value if arg.keyword is not None else fields[index] if index < len(fields) else None
            if name is not None and self.traced(arg.value, scope):
                traced.add(name)
        return frozenset(traced)

    def follow_field_function(self, call: cst.Call, scope: Scope) -> None:
        """``pipeline.transform(x)`` where ``pipeline`` is bound once to an instance of a class
        of this module built with a def of this module for the field ``transform``
        (``Pipeline(clip)``, by keyword or in the order of the annotated fields): that def, with
        the parameters receiving traced arguments traced."""
        func = call.func
        if self.depth >= MAX_HELPER_DEPTH or not isinstance(func, cst.Attribute) \
                or not isinstance(func.value, cst.Name):
            return
        binding = self.model.single_binding(func.value.value, scope)
        built = binding.value if binding is not None and binding.kind == "assign" else None
        if not isinstance(built, cst.Call):
            return
        cls = calling_context(self.ctx).class_of(built.func, binding.scope)
        if not isinstance(cls, cst.ClassDef) or func.attr.value in class_methods(cls):
            return
        fields = [small.target.value for line in cls.body.body if isinstance(line, cst.SimpleStatementLine)
                  for small in line.body if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name)]
        for index, arg in enumerate(built.args):
            if arg.star:
                return
            name = arg.keyword.value if arg.keyword is not None else fields[index] if index < len(fields) else None
            if name == func.attr.value:
                helper = function_value(self.model, arg.value, binding.scope)
                if isinstance(helper, cst.FunctionDef) and not helper.decorators \
                        and helper not in self.jitted_defs and helper is not self.func:
                    self._follow_into(helper, call, scope, positional_params(helper))
                return

    def called_module(self, func: cst.BaseExpression, scope: Scope) -> Optional[cst.FunctionDef]:
        """``model(x)`` (or ``model.score(x)``) where ``model`` is a traced parameter holding a
        pytree Module of this module: that class's ``__call__`` (or ``score``)."""
        name, method_name = (func, "__call__") if isinstance(func, cst.Name) else \
            (func.value, func.attr.value) if isinstance(func, cst.Attribute) else (None, "")
        if not isinstance(name, cst.Name) or not self.module_params:
            return None
        bindings = self.model.lookup(name.value, scope)
        if len(bindings) != 1 or self.param_bindings.get(id(bindings[0])) not in self.module_params:
            return None
        method = class_methods(self.module_params[bindings[0].name]).get(method_name)
        return method if method is not None and positional_params(method) else None

    def follow_submodule(self, call: cst.Call, scope: Scope, method: cst.FunctionDef) -> None:
        """``self.encoder(x)``: the submodule's ``__call__`` with the parameters receiving
        traced arguments (its ``self`` is not traced)."""
        if self.depth < MAX_HELPER_DEPTH:
            receiver = call.func.value if isinstance(call.func, cst.Attribute) else call.func
            self._follow_into(method, call, scope, positional_params(method)[1:],
                              receiver_arrays=self._receiver_arrays(receiver, scope, method))

    def _receiver_arrays(self, receiver: cst.BaseExpression, scope: Scope, method: cst.FunctionDef
                         ) -> Optional[tuple[str, frozenset[str]]]:
        """``driver(t)`` of an object bound outside the trace to ``Driver(jnp.linspace(...))``:
        (the method's ``self``, the fields holding those concrete jax arrays); every jax
        operation on ``self.x_a`` there gives a tracer (adept's wave driver)."""
        own = positional_params(method)
        arrays = self.constant_array_fields(receiver, scope) if isinstance(receiver, cst.Name) and self.staged else None
        return (own[0].name.value, arrays) if arrays and own else None

    def follow_module_call(self, call: cst.Call, scope: Scope, method: cst.FunctionDef) -> None:
        """Analyse the Module's ``__call__`` with ``self`` traced (its array fields are) and the
        parameters receiving traced arguments."""
        if self.depth < MAX_HELPER_DEPTH and method is not self.func:
            self._follow_into(method, call, scope, positional_params(method)[1:],
                              also=positional_params(method)[0].name.value)

    def _follow_into(self, helper: cst.FunctionDef, call: cst.Call, scope: Scope, params: list,
                     also: str = "", fields: frozenset[str] = frozenset(), force: bool = False,
                     receiver_arrays: Optional[tuple[str, frozenset[str]]] = None) -> None:
        """Analyse ``helper`` with the parameters (``params``, in the order of the call's
        positional arguments; None: an argument that binds none) that receive traced arguments
        traced; ``receiver_arrays``: a method's ``self`` and the fields of it that hold concrete
        jax arrays."""
        passed: list[tuple[str, cst.Arg]] = []  # (the parameter it fills, the argument), up to a star
        traced: set[str] = set()
        for index, arg in enumerate(call.args):
            if arg.star == "*" and self.hands_traced(arg.value, scope):
                # ``helper(*state)`` of a traced tuple: the parameters from here on get tracers
                keywords = {a.keyword.value for a in call.args if a.keyword is not None}
                traced |= {p.name.value for p in params[index:] if p is not None} - keywords
            if arg.star:
                break
            name = arg.keyword.value if arg.keyword is not None else \
                params[index].name.value if index < len(params) and params[index] is not None else None
            if name is not None:
                passed.append((name, arg))
        traced |= {name for name, arg in passed if self.hands_traced(arg.value, scope)}
        names = {p.name.value for p in (*params, *helper.params.kwonly_params) if p is not None}
        if any(arg.star == "**" and self.hands_traced(arg.value, scope) for arg in call.args):
            # ``model(dataset, **hyper)`` of a traced dict: each value a tracer
            traced |= names - {name for name, _ in passed}
        traced &= names
        if also:
            traced.add(also)
        held: dict[str, HeldObject] = {}
        for name, arg in passed:
            obj = self.held_object(arg.value, scope) if name not in traced else None
            if obj is not None:
                held[name] = obj
        records: dict[str, frozenset[str]] = {}
        for name, arg in passed:
            keys = self._record_keys(arg.value, scope) if name in traced else None
            if keys is not None:
                records[name] = keys
        arrays = frozenset(name for name, arg in passed if self._made_array(arg.value, scope)) & traced
        constants = frozenset(name for name, arg in passed
                              if name not in traced and self.jax_array_constant(arg.value, scope)) & names
        objects = {name: arrays_held for name, arg in passed if name not in traced and name in names
                   and isinstance(arg.value, cst.Name) and self.staged
                   and (arrays_held := self.constant_array_fields(arg.value, scope)) is not None}
        if receiver_arrays is not None:
            objects[receiver_arrays[0]] = receiver_arrays[1]
        # for ``if p is None:`` and ``if p == "numpy":``, decided by the call that leads here
        # (``if p:`` of ``runtime_validate=False`` too: the literal's truth)
        nones = frozenset((name, "value" if self._annotated_not_none(arg.value, scope) else _none_kind(arg.value),
                           arg.value.value if isinstance(arg.value, (cst.SimpleString, cst.Integer))
                           else literal_truth(arg.value)) for name, arg in passed)
        namespaces = self._namespaces_passed(helper, dict(passed), params, call, scope)
        key = (id(helper), frozenset(traced), fields, arrays, nones, constants,
               frozenset(namespaces.items())) + (
            (frozenset((n, id(o.cls), o.fields) for n, o in held.items()),) if held else ()) + (
            (frozenset(records.items()),) if records else ()) + (
            (frozenset(objects.items()),) if objects else ())
        if not (traced or fields or force or held or objects) or key in self.followed:
            return
        analysis = _FunctionAnalysis(self.ctx, JittedFunction(helper, [], traced, set(traced)),
                                     self.jitted_defs, self, self.depth + 1, traced_fields=fields,
                                     array_params=arrays, object_params=held, record_params=records,
                                     constant_params=constants, constant_objects=objects,
                                     namespace_params=namespaces)
        for name, arg in passed:
            origin = self.root_param(arg.value, scope) if name in traced else None
            if origin is not None:
                analysis.param_origins[name] = origin
        analysis.entry_call = call
        self.followed[key] = analysis
        analysis.solve()

    def _namespaces_passed(self, helper: FunctionLike, passed: dict[str, cst.Arg], params: list,
                           call: cst.Call, scope: Scope) -> dict[str, "Namespace"]:
        """The helper's parameters that get an array module (``numpy``, ``jax.numpy``): the
        argument ``call`` passes (``xp=jnp``, or this function's own such parameter), else the
        default (``xp=np``); each with the call that chose it."""
        found = {}
        defining = self.model.scope_of.get(helper, scope).parent or scope if isinstance(helper, cst.FunctionDef) else scope
        for param in (*params, *helper.params.kwonly_params):
            if param is None:
                continue
            arg = passed.get(param.name.value)
            chosen = self.array_namespace(arg.value, scope, call) if arg is not None else \
                self.array_namespace(param.default, defining, call, left_out=True) if param.default is not None else None
            if chosen is not None:
                found[param.name.value] = chosen
        return found

    def array_namespace(self, expr: cst.BaseExpression, scope: Scope, call: Optional[cst.Call] = None,
                        left_out: bool = False) -> Optional["Namespace"]:
        """``np`` / ``jnp`` (a module alias; chosen by ``call``, which passes it or, ``left_out``,
        leaves the parameter at it), or a parameter of this function holding one (chosen where
        that was)."""
        if not isinstance(expr, (cst.Name, cst.Attribute)):
            return None
        qualname = self.model.qualified_name(expr, scope)
        if qualname in ARRAY_NAMESPACES:
            return Namespace(qualname, call, left_out)
        if isinstance(expr, cst.Name) and expr.value in self.namespace_params \
                and any(b.kind == "param" for b in self.model.lookup(expr.value, scope)):
            return self.namespace_params[expr.value]
        return None

    def namespace_function(self, func: cst.BaseExpression, scope: Scope) -> Optional[tuple[str, "Namespace"]]:
        """(``numpy.sqrt``, how NumPy was chosen) for ``xp.sqrt`` where ``xp`` is such a
        parameter."""
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) \
                and func.value.value in self.namespace_params:
            chosen = self.array_namespace(func.value, scope)
            return (f"{chosen.module}.{func.attr.value}", chosen) if chosen is not None else None
        return None

    def sized_by_conversion(self, conversion: cst.Call) -> Optional[tuple[str, cst.CSTNode]]:
        """``n`` of ``n = int(...)``, with the use, when this function then uses ``n`` where JAX
        needs a Python value (a shape or size argument: ``jaxfacts.CONCRETE_PARAMS``,
        ``range(n)``, a slice bound): the conversion cannot move out of jit, the value must stay
        static."""
        scope = self.model.scope_of.get(self.func)
        if scope is None:
            return None
        target = next((node.targets[0].target.value for node in iter_nodes(self.func)
                       if isinstance(node, cst.Assign) and len(node.targets) == 1
                       and isinstance(node.targets[0].target, cst.Name)
                       and any(inner is conversion for inner in iter_nodes(node.value))), None)
        if target is None:
            return None

        def reads(expr: Optional[cst.CSTNode]) -> bool:
            return expr is not None and any(isinstance(n, cst.Name) and n.value == target for n in iter_nodes(expr))

        for node in iter_nodes(self.func):
            if isinstance(node, cst.Subscript) and any(
                    isinstance(e.slice, cst.Slice) and (reads(e.slice.lower) or reads(e.slice.upper)) for e in node.slice):
                return target, node
            if not isinstance(node, cst.Call):
                continue
            if isinstance(node.func, cst.Name) and node.func.value == "range" and any(reads(arg.value) for arg in node.args):
                return target, node
            facts = CONCRETE_PARAMS.get(self.model.qualified_name(node.func, scope)
                                        or self.jax_namespace_function(node.func, scope) or "")
            for index, arg in enumerate(node.args if facts else ()):
                if arg.star:
                    break
                fact = concrete_param(facts, index if arg.keyword is None else None,
                                      arg.keyword.value if arg.keyword is not None else None)
                if fact is not None and not fact.flag and reads(arg.value):
                    return target, node
        return None

    def jax_namespace_function(self, func: cst.BaseExpression, scope: Scope) -> Optional[str]:
        """``jax.numpy.sum`` for ``xp.sum`` where every binding of ``xp`` reaching here is the
        array module of a traced array (``xp = array_api_compat.array_namespace(x)``,
        ``jaxfacts.ARRAY_NAMESPACE_GETTERS``) or the result of a def of this module that returns
        ``jax.numpy`` (a backend switch)."""
        if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)):
            return None
        bindings = self.flow.reaching(func.value, scope)
        if not bindings or not all(b.kind == "assign" and isinstance(b.value, cst.Call)
                                   and self._makes_jax_namespace(b.value, b.scope) for b in bindings):
            return None
        return f"jax.numpy.{func.attr.value}"

    def _makes_jax_namespace(self, call: cst.Call, scope: Scope) -> bool:
        if self.model.qualified_name(call.func, scope) in ARRAY_NAMESPACE_GETTERS:
            return self._any_arg_traced(call, scope)
        helper = self._class_level_method(call.func, scope) if isinstance(call.func, cst.Attribute) \
            else self._callee(call.func, scope)
        if not isinstance(helper, cst.FunctionDef):
            return False
        inner = self.model.scope_of.get(helper, scope)
        returned = [node.value for node in own_nodes(helper.body) if isinstance(node, cst.Return)]
        return bool(returned) and all(value is not None and self.model.qualified_name(value, inner) == "jax.numpy"
                                      for value in returned)

    def arrays_passed(self) -> frozenset[str] | set[str]:
        """This function's parameters that every call leading here fills with a jax array: for
        the jitted def, those every jitted call fills with an array it makes."""
        if self.caller is not None:
            return self.array_params
        if self._root_arrays is None:
            self._root_arrays = _passed_arrays(self.ctx, self.jitted)
        return self._root_arrays

    def _made_array(self, expr: cst.BaseExpression, scope: Scope) -> bool:
        """``jnp.array([a, b])``, or a name bound once to such a call, or this function's own
        parameter known to hold an array: a jax array, never a container."""
        if isinstance(expr, cst.Name) and expr.value in self.arrays_passed():
            binding = self.flow.single(expr, scope)
            if binding is not None and binding.kind == "param":
                return True
        return _made_jax_array(self.model, self.flow, expr, scope)

    def has_axis(self, expr: cst.BaseExpression, scope: Scope, depth: int = 0) -> bool:
        """``expr`` is an array with at least one axis: made by a function whose result always
        has one (``jnp.concatenate``, ``jnp.unique``: jaxfacts.AXIS_KEEPING_RESULTS), directly or
        through every name binding that reaches it."""
        if isinstance(expr, cst.Call):
            return self.model.qualified_name(expr.func, scope) in AXIS_KEEPING_RESULTS
        if not isinstance(expr, cst.Name) or depth > 3:
            return False
        bindings = self.flow.reaching(expr, scope)
        return bool(bindings) and all(b.kind == "assign" and b.value is not None
                                      and self.has_axis(b.value, b.scope, depth + 1) for b in bindings)

    def known_array(self, expr: cst.BaseExpression, scope: Scope, depth: int = 0) -> bool:
        """The code says ``expr`` is an array, not a pytree of them: a jax array function's
        result, a parameter or a held field annotated as one (``omegas: Optional[Float[Array,
        "w"]]``), or arithmetic on one."""
        if depth > 3:
            return False
        if isinstance(expr, cst.Call):
            return makes_jax_array(self.model.qualified_name(expr.func, scope))
        if isinstance(expr, cst.BinaryOperation):
            return self.known_array(expr.left, scope, depth + 1) or self.known_array(expr.right, scope, depth + 1)
        if isinstance(expr, cst.Attribute):
            held = self.held_object(expr.value, scope)
            annotation = _field_annotations(self.model, held.cls).get(expr.attr.value) if held is not None else None
            return annotation is not None and strict_array_annotation(annotation, optional=True)
        if not isinstance(expr, cst.Name):
            return False
        bindings = self.flow.reaching(expr, scope)
        return bool(bindings) and all(
            strict_array_annotation(b.node.annotation.annotation, optional=True)
            if b.kind == "param" and isinstance(b.node, cst.Param) and b.node.annotation is not None
            else b.kind == "assign" and self.known_array(b.value, b.scope, depth + 1)
            for b in bindings)

    # ------------------------------------------------------------------ dataflow
    def _bindings(self) -> list[Binding]:
        result = []
        for scope in {id(s): s for s in self.model.scope_of.values() if id(s) in self.scope_ids}.values():
            for bindings in scope.bindings.values():
                result.extend(bindings)
        return result

    def solve(self) -> None:
        """Greatest fixed point: assume every computed binding traced, drop those whose value is
        not, until stable (so ``x = x / 2`` next to a traced parameter ``x`` stays traced)."""
        own_scope = self.model.scope_of[self.func]
        handed = self._handed_nested_params()
        self.mapped = self._mapped_nested_params()
        candidates = []
        for binding in self._bindings():
            if binding.kind == "param":
                if binding.scope is own_scope and binding.name in self.jitted.traced_params:
                    self.traced_bindings.add(id(binding))
                    self.param_bindings[id(binding)] = binding.name
                elif binding.name in handed.get(id(binding.scope), ()):
                    self.traced_bindings.add(id(binding))  # a lax body's counter or carry
                elif binding.name in self.mapped.get(id(binding.scope), {}):
                    self.traced_bindings.add(id(binding))  # a leaf of a tree a tree map walks
                    candidates.append(binding)
            elif binding.kind in ("assign", "other", "loop-target"):
                self.traced_bindings.add(id(binding))
                candidates.append(binding)
        changed = True
        while changed:
            changed = False
            for binding in candidates:
                if id(binding) in self.traced_bindings and not self.binding_traced(binding):
                    self.traced_bindings.discard(id(binding))
                    changed = True

    def _handed_nested_params(self) -> dict[int, set[str]]:
        """Functions nested in this one and handed to a ``TRACING_CALLS`` call here (the body of
        a ``lax.fori_loop`` in a jitted def): scope -> the parameters that call gives tracers,
        so the body's ``v.reshape(shapes[i])`` sees both ``v`` and the closed-over ``shapes``
        traced."""
        handed: dict[int, set[str]] = {}
        model = self.model
        for site in model.calls:
            call, scope = site.node, site.frame.scope
            if id(scope) not in self.scope_ids or _last_name(call.func) not in _TRACING_CALL_LAST_NAMES:
                continue
            qualname = model.qualified_name(call.func, scope)
            fact = TRACING_CALLS.get(qualname) if qualname is not None else None
            for param in fact.functions if fact is not None else ():
                func = function_value(model, argument_value(call, *param), scope)
                if func is not None and func is not self.func and id(model.scope_of[func]) in self.scope_ids:
                    handed.setdefault(id(model.scope_of[func]), set()).update(_handed_params(call, fact, func))
        return handed

    def _mapped_nested_params(self) -> dict[int, dict[str, list[tuple[cst.BaseExpression, Scope]]]]:
        """Functions nested in this one and mapped over trees by a TREE_MAPS call here
        (``jax.tree.map(lambda p: ..., params)``): scope -> parameter -> the trees whose leaves
        it receives (it is traced when one of them is)."""
        mapped: dict[int, dict[str, list[tuple[cst.BaseExpression, Scope]]]] = {}
        model = self.model
        for site in model.calls:
            call, scope = site.node, site.frame.scope
            if id(scope) not in self.scope_ids or _last_name(call.func) not in _TREE_MAP_LAST_NAMES:
                continue
            fact = TREE_MAPS.get(model.qualified_name(call.func, scope) or "")
            func = function_value(model, argument_value(call, *fact[0]), scope) if fact is not None else None
            if func is None or func is self.func or id(model.scope_of[func]) not in self.scope_ids:
                continue
            _, first_tree, first_param = fact  # type: ignore[misc]
            params = positional_params(func)
            trees = [a.value for a in call.args if a.keyword is None and not a.star][first_tree:]
            for index, tree in enumerate(trees):
                if first_param + index < len(params):
                    name = params[first_param + index].name.value
                    mapped.setdefault(id(model.scope_of[func]), {}).setdefault(name, []).append((tree, scope))
        return mapped

    def binding_traced(self, binding: Binding) -> bool:
        node = binding.node
        if binding.kind == "param":
            return any(self.traced(tree, scope) or self.elements_traced(tree, scope)
                       for tree, scope in self.mapped.get(id(binding.scope), {}).get(binding.name, ()))
        if binding.kind == "assign":
            if isinstance(node, cst.Assign):
                return any(self._target_value_traced(t.target, node.value, binding.name, binding.scope)
                           for t in node.targets)
            if isinstance(node, cst.AnnAssign) and node.value is not None:
                return self._target_value_traced(node.target, node.value, binding.name, binding.scope)
            if isinstance(node, cst.NamedExpr):
                return self.traced(node.value, binding.scope)
            return False
        if binding.kind == "other" and isinstance(node, cst.AugAssign):
            return self.traced(node.value, binding.scope) or self.traced(node.target, binding.scope)
        if binding.kind == "loop-target":
            if isinstance(node, cst.For):
                return self._iterated_traced(node.target, node.iter, binding.name, binding.scope)
            if isinstance(node, cst.CompFor):
                # the first iterable is evaluated in the enclosing scope
                scope = binding.scope.parent if binding.scope.parent is not None else binding.scope
                return self._iterated_traced(node.target, node.iter, binding.name, scope)
        return False

    def _iterated_traced(self, target, iterable: cst.BaseExpression, name: str, scope: Scope) -> bool:
        """Does ``for target in iterable`` bind ``name`` to a traced value: iterating a traced
        array or a display of traced values, or the traced one of ``zip(params, grads)`` /
        ``enumerate(xs)``?"""
        if isinstance(iterable, cst.Name) and self._read_by_str_keys(iterable, scope):
            return False  # ``for key in batch`` over a dict the code reads as ``batch["x"]``: str keys
        if self.traced(iterable, scope) or self.elements_traced(iterable, scope):
            return True
        if not isinstance(iterable, cst.Call) or any(arg.star or arg.keyword for arg in iterable.args):
            return False
        func = iterable.func
        if isinstance(func, cst.Attribute) and func.attr.value in ("values", "items") and not iterable.args \
                and self.traced(func.value, scope):  # the leaves of a traced dict (``params.values()``)
            return func.attr.value == "values" or (isinstance(target, (cst.Tuple, cst.List))
                                                   and len(target.elements) == 2
                                                   and binds_name(target.elements[1].value, name))
        if self.model.qualified_name(func, scope) in TREE_LEAVES and iterable.args \
                and self.traced(iterable.args[0].value, scope):
            return True
        builtin = self._builtin(iterable.func, scope)
        if builtin in ("reversed", "sorted", "list", "tuple") and len(iterable.args) == 1:
            return self._iterated_traced(target, iterable.args[0].value, name, scope)
        parts = [a.value for a in iterable.args] if builtin == "zip" else \
            [None, iterable.args[0].value] if builtin == "enumerate" and iterable.args else []
        if not (parts and isinstance(target, (cst.Tuple, cst.List)) and len(target.elements) == len(parts)):
            return False
        return any(part is not None and binds_name(element.value, name)
                   and self._iterated_traced(element.value, part, name, scope)
                   for element, part in zip(target.elements, parts))

    def _target_value_traced(self, target, value, name: str, scope: Scope) -> bool:
        if isinstance(target, cst.Name):
            return target.value == name and self.traced(value, scope)
        if isinstance(target, (cst.Tuple, cst.List)):
            if isinstance(value, (cst.Tuple, cst.List)) and len(value.elements) == len(target.elements) \
                    and not any(isinstance(e, cst.StarredElement) for e in (*target.elements, *value.elements)):
                return any(self._target_value_traced(t.value, v.value, name, scope)
                           for t, v in zip(target.elements, value.elements))
            return binds_name(target, name) and self.traced(value, scope)
        return False

    def name_traced(self, name: cst.Name, scope: Scope) -> bool:
        """Every binding that reaches this read is traced (``state = step(state)`` further down
        does not make ``range(state.n)`` at the top concrete)."""
        bindings = [b for b in self.flow.reaching(name, scope)
                    if not self._replaced_default(b, scope) and not self._in_untaken_branch(b)]
        return bool(bindings) and all(id(b.scope) in self.scope_ids and id(b) in self.traced_bindings
                                      for b in bindings)

    def _in_untaken_branch(self, binding: Binding) -> bool:
        """``first = min(first, max_to_take)`` under ``if max_to_take is not None:`` where the
        calls that lead here leave ``max_to_take`` at its ``None`` default (root_flag): that
        value never reaches a later read under this trace."""
        if binding.frame is None or binding.kind != "assign":
            return False
        if self.ctx.model.span(binding.node) is None:
            return False
        for enclosing in binding.frame:
            if enclosing.node is self.func or isinstance(enclosing.node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
                return False
            if not isinstance(enclosing.node, cst.If) \
                    or any(n.value == binding.name for n in iter_nodes(enclosing.node.test) if isinstance(n, cst.Name)):
                continue  # ``if x[i] < 0: x = ...``: a test of the value itself is no flag
            truth = self.root_flag(enclosing.node.test, enclosing.scope)
            if truth is not None and self.ctx.model.encloses(enclosing.node.body, binding.node) != truth:
                return True
        return False

    def _replaced_default(self, binding: Binding, scope: Scope) -> bool:
        """A parameter left at its ``None`` default by the calls that lead here, which ``if p is
        None: p = ...`` always replaces: its own value never reaches a later read."""
        if binding.kind != "param" or binding.scope.node is not self.func or not isinstance(self.func, cst.FunctionDef) \
                or not isinstance(binding.node, cst.Param) or not is_none(binding.node.default):
            return False
        known = self._replaced_defaults.get(id(binding))
        if known is not None:
            return known
        self._replaced_defaults[id(binding)] = found = self._replaced_by_none_test(binding, scope)
        return found

    def _replaced_by_none_test(self, binding: Binding, scope: Scope) -> bool:
        for node in own_nodes(self.func.body):
            if isinstance(node, cst.If) and isinstance(node.test, cst.Comparison) \
                    and isinstance(node.test.left, cst.Name) and node.test.left.value == binding.name \
                    and len(node.test.comparisons) == 1 and isinstance(node.test.comparisons[0].operator, cst.Is) \
                    and is_none(node.test.comparisons[0].comparator) and self.root_flag(node.test, scope) is True \
                    and any(isinstance(line, cst.SimpleStatementLine) and isinstance(line.body[0], cst.Assign)
                            and binding.name in target_names(line.body[0].targets[0].target)
                            for line in node.body.body):
                return True
        return False

    def traced(self, expr: cst.BaseExpression, scope: Scope) -> bool:
        if isinstance(expr, cst.Name):
            return self.name_traced(expr, scope)
        if isinstance(expr, cst.Attribute):
            # Other attributes may be static fields of a custom pytree (flax.struct fields
            # with pytree_node=False): only the array fields of this module's pytrees.
            return ((expr.attr.value in ARRAY_ATTRIBUTES or expr.attr.value in self.array_fields)
                    and self.traced(expr.value, scope)) or self.leaf_field_class(expr, scope) is not None \
                or (expr.attr.value in self.traced_fields and self._is_self(expr.value, scope)) \
                or self._library_result_field(expr, scope) or self._held_attribute_traced(expr, scope) \
                or self._wrapped_result_field(expr, scope) or self._attribute_written_traced(expr)
        if isinstance(expr, cst.Subscript):
            entry = self._record_entry_traced(expr, scope)
            if entry is not None:
                return entry  # ``parameter["key"]`` of a record whose "key" holds no tracer
            if isinstance(expr.value, cst.Name) and self._item_written_traced(expr.value, _literal_key(expr)):
                return True  # ``params[key] = x * 2`` earlier in the trace, then ``params["a"]``
            # anything indexed by a traced value is a tracer too: a jax Array made outside the
            # function gives one; a list, a dict or a NumPy array raises there instead (JIT802)
            return self._staged_operand(expr.value, scope, expr) or any(
                isinstance(e.slice, cst.Index) and self.traced(e.slice.value, scope) for e in expr.slice)
        if isinstance(expr, cst.BinaryOperation):
            if isinstance(expr.operator, cst.Modulo) \
                    and isinstance(expr.left, (cst.SimpleString, cst.FormattedString)):
                return False  # "%s" % x is a str
            return self._staged_operand(expr.left, scope, expr) or self._staged_operand(expr.right, scope, expr)
        if isinstance(expr, cst.UnaryOperation):
            return not isinstance(expr.operator, cst.Not) and self._staged_operand(expr.expression, scope, expr)
        if isinstance(expr, cst.Comparison):
            if any(isinstance(c.operator, (cst.Is, cst.IsNot, cst.In, cst.NotIn)) for c in expr.comparisons):
                return False
            if any(isinstance(side, STRINGS) for side in (expr.left, *(c.comparator for c in expr.comparisons))):
                return False  # ``mode == "add"``: the code expects a str (JIT807 if it is passed traced)
            return self._staged_operand(expr.left, scope, expr) or any(
                self._staged_operand(c.comparator, scope, expr) for c in expr.comparisons)
        if isinstance(expr, cst.BooleanOperation):
            return self.traced(expr.left, scope) or self.traced(expr.right, scope)
        if isinstance(expr, cst.IfExp):
            return self.traced(expr.body, scope) or self.traced(expr.orelse, scope)
        if isinstance(expr, cst.NamedExpr):
            return self.traced(expr.value, scope)
        if isinstance(expr, cst.Call):
            return self._call_traced(expr, scope)
        return False

    def _wrapped_result_field(self, expr: cst.Attribute, scope: Scope) -> bool:
        """``eta.array`` where ``eta`` is traced (arithmetic with a traced operand, or a
        parameter handed such a value) and ``array`` is a field of a value-wrapper class of
        this module (one whose arithmetic dunders return a new instance: ``__rmul__`` returning
        ``ArrayIrregular(other * self.array)``): an array has no such attribute, so ``eta`` is
        the wrapper, and its arithmetic stored the tracer there."""
        return isinstance(expr.value, cst.Name) and expr.attr.value in wrapper_fields(self.ctx) \
            and self.traced(expr.value, scope)

    def _item_written_traced(self, name: cst.Name, key: Optional[str]) -> bool:
        """A container of this trace whose item ``key`` (None: any) is written with a traced
        value (``params[k] = params[k].at[i].set(v)``): reading that item may give a tracer.
        A write to another literal key (``site["value"] = ...``) leaves ``site["type"]`` alone."""
        if name.value in self._writing:
            return False  # ``d["a"] = d["a"] + x``: the write reads what it writes
        self._writing.add(name.value)
        try:
            return any((key is None or written is None or written == key) and self.traced(value, scope)
                       for written, value, scope in self._item_writes.get(name.value, ()))
        finally:
            self._writing.discard(name.value)

    def _attribute_written_traced(self, read: cst.Attribute) -> bool:
        """``self.pop_size`` read after this trace stored a traced value in it
        (``self.pop_size = jnp.ceil(...).astype(int)`` then ``int(self.pop_size / k)``: evox
        bfcdd0d): the attribute holds the tracer from then on.  Only writes that come before
        the read in this function count."""
        if not isinstance(read.value, cst.Name):
            return False
        key = f"{read.value.value}.{read.attr.value}"
        writes = self._attribute_writes.get(key)
        if not writes or key in self._writing:
            return False
        start = self.model.span(read)
        self._writing.add(key)
        try:
            return start is not None and any(
                end < start[0] and self.traced(value, scope) for end, value, scope in writes)
        finally:
            self._writing.discard(key)

    @cached_property
    def _attribute_writes(self) -> dict[str, list[tuple[int, cst.BaseExpression, Scope]]]:
        """``name.attr = value`` in this function, by ``"name.attr"``: (where the write ends,
        the value, the scope it runs in)."""
        values = {id(target): node.value for node in iter_nodes(self.func) if isinstance(node, cst.Assign)
                  for target in node.targets}
        writes: dict[str, list[tuple[int, cst.BaseExpression, Scope]]] = {}
        for _, frame, write in self.model.item_writes:
            target = write.target if isinstance(write, cst.AssignTarget) else None
            span = self.model.span(write)
            if id(write) not in values or id(frame.scope) not in self.scope_ids or span is None \
                    or not (isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name)):
                continue
            writes.setdefault(f"{target.value.value}.{target.attr.value}", []).append(
                (span[1], values[id(write)], frame.scope))
        return writes

    @cached_property
    def _item_writes(self) -> dict[str, list[tuple[Optional[str], cst.BaseExpression, Scope]]]:
        """The item writes in this function, by container name: (the literal key written, None
        for any other index; the value; the scope), from ``d[k] = v`` and ``d[k] += v``."""
        values: dict[int, cst.BaseExpression] = {}
        for node in iter_nodes(self.func):
            if isinstance(node, cst.Assign):
                values.update((id(target), node.value) for target in node.targets)
            elif isinstance(node, cst.AugAssign):
                values[id(node)] = node.value
        writes: dict[str, list[tuple[Optional[str], cst.BaseExpression, Scope]]] = {}
        for root, frame, write in self.model.item_writes:
            value = values.get(id(write))
            if value is None or id(frame.scope) not in self.scope_ids:
                continue
            target = write.target if isinstance(write, (cst.AssignTarget, cst.AugAssign)) else None
            # ``d["a"] = v`` writes "a"; ``d[k]``, ``d["a"]["b"]`` may write any item of ``d``
            written = _literal_key(target) if isinstance(target, cst.Subscript) \
                and isinstance(target.value, cst.Name) else None
            writes.setdefault(root, []).append((written, value, frame.scope))
        return writes

    def _read_by_str_keys(self, name: cst.Name, scope: Scope) -> bool:
        """The value ``name`` holds here is read as ``name["key"]`` somewhere in this function:
        a dict, whose iteration gives its str keys."""
        if self._str_key_reads is None:
            self._str_key_reads = {}
            for node in iter_nodes(self.func):
                if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name) \
                        and _literal_key(node) is not None:
                    self._str_key_reads.setdefault(node.value.value, []).append(node.value)
        reaching = {id(b) for b in self.flow.reaching(name, scope)}
        return bool(reaching) and any({id(b) for b in self.flow.reaching(read, scope)} == reaching
                                      for read in self._str_key_reads.get(name.value, ()))

    def _record_entry_traced(self, expr: cst.Subscript, scope: Scope) -> Optional[bool]:
        """``record["key"]`` where ``record`` is a record parameter (``record_params``) or the
        loop target over one: whether that entry holds a tracer; None when not such a read."""
        key = _literal_key(expr)
        if not self.record_params or key is None or not isinstance(expr.value, cst.Name):
            return None
        binding = self.flow.single(expr.value, scope)
        if binding is None:
            return None
        name = binding.name if binding.kind == "param" and binding.scope.node is self.func else None
        if binding.kind == "loop-target" and isinstance(binding.node, cst.For) \
                and isinstance(binding.node.target, cst.Name) and isinstance(binding.node.iter, cst.Name):
            over = self.flow.single(binding.node.iter, binding.scope)  # ``for record in records``
            name = over.name if over is not None and over.kind == "param" and over.scope.node is self.func else None
        keys = self.record_params.get(name) if name is not None else None
        return None if keys is None else key in keys

    def _record_keys(self, expr: cst.BaseExpression, scope: Scope) -> Optional[frozenset[str]]:
        """The keys that hold tracers, when ``expr`` is a dict display with literal str keys (or
        a list of such displays, or a comprehension building them) some of whose entries do
        not: ``[{"key": t["key"], "val": p[t["key"]]} for t, p in zip(trainables, params)]``."""
        if isinstance(expr, cst.Name):
            binding = self.flow.single(expr, scope)
            if binding is None or binding.kind != "assign" or binding.value is None or id(binding.scope) not in self.scope_ids:
                return None
            expr, scope = binding.value, binding.scope
        if isinstance(expr, cst.ListComp):
            inner = self.model.scope_of.get(expr, scope)
            return self._record_keys(expr.elt, inner) if isinstance(expr.elt, cst.Dict) else None
        if isinstance(expr, cst.List) and expr.elements and all(isinstance(e.value, cst.Dict) for e in expr.elements):
            found = [self._record_keys(e.value, scope) for e in expr.elements]
            return frozenset().union(*found) if all(k is not None for k in found) else None  # type: ignore[arg-type]
        if not isinstance(expr, cst.Dict) or not expr.elements or not all(
                isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString) for e in expr.elements):
            return None
        traced = frozenset(e.key.evaluated_value for e in expr.elements  # type: ignore[union-attr]
                           if self.hands_traced(e.value, scope))
        return traced if len(traced) < len(expr.elements) else None

    def held_object(self, expr: cst.BaseExpression, scope: Scope, depth: int = 0) -> Optional["HeldObject"]:
        """An instance of a class of this module some of whose attributes hold tracers: ``self``
        with this method's traced fields, a parameter handed one, or a name bound once in this
        trace to ``Cls(...)`` given traced values (the attributes ``__init__`` stores them in,
        or the fields a dataclass-style class fills: ``prob = LinearProblem(geom, tau_a=t)``);
        also one made in place (``NFW(scale_radius=r).potential(grid)``)."""
        if depth > 3:
            return None
        if isinstance(expr, cst.Call):
            return self._held_made(expr, scope, depth)
        if not isinstance(expr, cst.Name):
            return None
        if self._is_self(expr, scope) and (cls := self._class_of(self.func)) is not None:
            return HeldObject(cls, self.traced_fields) if self.traced_fields else None
        bindings = self.model.lookup(expr.value, scope)
        if len(bindings) != 1:
            reaching = self.flow.single(expr, scope)  # ``state = state.merge(...)`` rebinds it
            if reaching is None or reaching.kind not in ("assign", "param"):
                return None
            bindings = [reaching]
        binding = bindings[0]
        if binding.kind == "param":
            if binding.scope.node is not self.func:
                return None
            return self.object_params.get(binding.name) or self._traced_pytree_param(binding.name)
        made = binding.value
        if binding.kind != "assign" or id(binding.scope) not in self.scope_ids or not isinstance(made, cst.Call):
            return None
        return self._held_made(made, binding.scope, depth)

    def _held_made(self, made: cst.Call, scope: Scope, depth: int) -> Optional["HeldObject"]:
        """``Cls(...)`` evaluated in this trace: the instance, with the fields given tracers."""
        rebuilt = self._same_class_result(made, scope, depth)
        if rebuilt is not None:
            return rebuilt
        cls = self._class_named(made.func, scope)
        if cls is None:
            return None
        declared = [field.target.value for field in annotated_fields(cls)]
        fields = frozenset(field for field, value in fields_passed(cls, declared, made)
                           if self.hands_traced(value, scope))
        return HeldObject(cls, fields) if fields else None

    def _same_class_result(self, call: cst.Call, scope: Scope, depth: int) -> Optional["HeldObject"]:
        """``state.merge(other)`` / ``state.replace(step=...)`` on a held object, where the
        method rebuilds its own class from its fields (every return is ``type(self)(...)``,
        ``self.__class__(...)``, ``Cls(...)`` or ``self.replace(...)``; ``replace`` of a flax
        struct or chex dataclass is one): an instance of that class whose fields hold tracers."""
        func = call.func
        if not isinstance(func, cst.Attribute) or not isinstance(func.value, cst.Name):
            return None
        held = self.held_object(func.value, scope, depth + 1)
        if held is None:
            return None
        method = inherited_method(self.model, held.cls, func.attr.value)
        if method is None:
            return held if func.attr.value == "replace" else None
        params = positional_params(method)
        returns = function_returns(self.model, method)
        if not params or not returns:
            return None
        me = params[0].name.value

        def rebuilds(value: Optional[cst.BaseExpression]) -> bool:
            if not isinstance(value, cst.Call):
                return False
            maker = value.func
            return (isinstance(maker, cst.Call) and isinstance(maker.func, cst.Name) and maker.func.value == "type"
                    and len(maker.args) == 1 and isinstance(maker.args[0].value, cst.Name)
                    and maker.args[0].value.value == me) \
                or (isinstance(maker, cst.Attribute) and isinstance(maker.value, cst.Name) and maker.value.value == me
                    and maker.attr.value in ("__class__", "replace")) \
                or (isinstance(maker, cst.Name) and maker.value == held.cls.name.value)

        return held if all(rebuilds(r.value) for r in returns) else None

    def _traced_pytree_param(self, param: str) -> Optional["HeldObject"]:
        """A traced parameter given instances of one pytree class of this module: its leaf
        fields hold tracers (``cosmo.k``, a property reading them, is traced too)."""
        if param not in self.jitted.traced_params:
            return None
        classes = list(self.param_classes().get(param, {}))
        under_jax_jit = self.root.jitted.apps and all(app.jit.qualname in ARGNUM_JITS for app in self.root.jitted.apps)
        table = self.ctx.shared("jax-jit-leaf-fields", _jax_jit_leaf_fields) if under_jax_jit \
            else self.ctx.shared("pytree-leaf-fields", _leaf_fields)
        leaves = table.get(classes[0]) if len(classes) == 1 else None
        return HeldObject(classes[0], leaves) if leaves else None

    def hands_held(self, call: cst.Call, scope: Scope) -> bool:
        """``call`` hands a held object (``held_object``) on, as an argument or its receiver."""
        receiver = call.func.value if isinstance(call.func, cst.Attribute) else None
        return any(self.held_object(e, scope) is not None
                   for e in (receiver, *(arg.value for arg in call.args if not arg.star)) if e is not None)

    def _class_of(self, method: cst.FunctionDef) -> Optional[cst.ClassDef]:
        outer = self.model.scope_of[method].parent
        return outer.node if outer is not None and isinstance(outer.node, cst.ClassDef) else None

    def _held_attribute_traced(self, expr: cst.Attribute, scope: Scope) -> bool:
        """``prob.tau_a`` of an object holding a tracer there, or ``prob.is_balanced``, a
        property of its class that returns a value built from one."""
        held = self.held_object(expr.value, scope)
        if held is None:
            return False
        if expr.attr.value in held.fields:
            return True
        prop = class_methods(held.cls).get(expr.attr.value)
        if prop is None or not any(dotted_name(d.decorator) == "property" for d in prop.decorators) \
                or prop is self.func or self.depth >= MAX_HELPER_DEPTH:
            return False
        analysis = self._follow_held(prop, held.fields)
        if any(use.kind in RAISING_KINDS for use in analysis.run()):
            return False  # it raises inside the property: its value never reaches this read
        inner = self.model.scope_of[prop]
        return any(isinstance(node, cst.Return) and node.value is not None
                   and analysis.traced(node.value, inner) for node in own_nodes(prop.body))

    def _follow_held(self, method: cst.FunctionDef, fields: frozenset[str]) -> "_FunctionAnalysis":
        """Analyse a property or method of a held object, its traced attributes ``fields``."""
        key = (id(method), frozenset(), fields, frozenset())
        analysis = self.followed.get(key)
        if analysis is None:
            analysis = _FunctionAnalysis(self.ctx, JittedFunction(method, [], set(), set()), self.jitted_defs,
                                         self, self.depth + 1, traced_fields=fields)
            cls = self._class_of(method)
            analysis.held_property = cls.name.value if cls is not None else "?"
            self.followed[key] = analysis
            analysis.solve()
        return analysis

    def _library_result_field(self, expr: cst.Attribute, scope: Scope) -> bool:
        """``sol.ys`` of ``sol = diffrax.diffeqsolve(...)`` given a traced argument: an array
        field of a library solver's result (jaxfacts.ARGUMENT_TRACED_LIBRARY_FUNCTIONS)."""
        made = self.model.value_origin(expr.value, scope, None)
        if made is None or not isinstance(made[0], cst.Call):
            return False
        fields = ARGUMENT_TRACED_LIBRARY_FUNCTIONS.get(self.model.qualified_name(made[0].func, made[1]) or "")
        return fields is not None and expr.attr.value in fields and self._fed_traced(made[0], made[1])

    def _fed_traced(self, call: cst.Call, scope: Scope) -> bool:
        """An argument of ``call`` is traced, or holds tracers (``args={"beta": beta}``)."""
        return self._any_arg_traced(call, scope) or any(self.elements_traced(arg.value, scope)
                                                        for arg in call.args)

    def _call_traced(self, call: cst.Call, scope: Scope) -> bool:
        func = call.func
        if self.jit_outputs and self.nested_jit_spec(call) is not None:
            if not any(seen is call for seen in self.root.nested_calls):
                self.root.nested_calls.append(call)
            return True
        if self._jitted_call_of_traced(call, scope):
            return True
        if isinstance(func, cst.Call) and (self.model.qualified_name(func.func, scope) or "").startswith(LAYER_NAMESPACES):
            return self._any_arg_traced(call, scope)  # nn.Dense(4)(x)
        if isinstance(func, cst.Call) and self._transform(func, scope):
            # jax.grad(loss)(params): staged out like a jax.numpy call, a tracer on constants too
            return self.staged or self._any_arg_traced(call, scope)
        if isinstance(func, cst.Name) and (made := self.flow.single(func, scope)) is not None \
                and made.kind == "assign" and isinstance(made.value, cst.Call) and self._transform(made.value, made.scope):
            # ``grad_fn = jax.value_and_grad(loss_fn, has_aux=True)`` ... ``grad_fn(params)``
            return self.staged or self._any_arg_traced(call, scope)
        if isinstance(func, cst.Attribute) and (self.layer_attribute(func, scope) is not None
                                                or self.submodule_method(func, scope) is not None):
            return self._any_arg_traced(call, scope)  # self.linear(x): a layer built in __init__
        if isinstance(func, cst.Attribute) and func.attr.value in self.traced_fields and self._is_self(func.value, scope):
            return True  # self.a1(t): a field holding a pytree of tracers (an equinox Module), called
        if isinstance(func, cst.Attribute) and func.attr.value == "apply" and (
                _applied_module_call(self.ctx, func, scope, call) is not None
                or transformed_function(self.ctx, func, scope) is not None):
            return self._any_arg_traced(call, scope)  # model.apply(params, x) of a linen Module / hk.transform
        if isinstance(func, cst.Attribute) and func.attr.value == "apply" and call.args \
                and call.args[0].keyword is None and not call.args[0].star and self.traced(call.args[0].value, scope):
            # ``self.actor.apply(params, obs)`` of a wrapper this file cannot see into: an apply
            # given traced variables runs the model on them (arrays, or an object holding them)
            return True
        if isinstance(func, cst.Attribute) and self._staged_operand(func.value, scope, call):
            # a method of a traced array, or of a traced distribution (``policy.sample(seed=key)``
            # of what a traced apply returned)
            return func.attr.value in ARRAY_METHODS or func.attr.value in DISTRIBUTION_METHODS
        if isinstance(func, cst.Attribute) and _is_update_ref(func.value) and self._any_arg_traced(call, scope):
            return True  # ``x.at[i].set(v)`` of a concrete ``x`` with a traced ``v``
        builtin = self._builtin(func, scope)
        if builtin is not None:
            return builtin in TRACED_BUILTINS and (self._any_arg_traced(call, scope) or any(
                self.elements_traced(arg.value, scope) for arg in call.args))
        if self._helper_returns_traced(call, scope):
            return True
        qualname = self.model.qualified_name(func, scope) or self.jax_namespace_function(func, scope)
        result = TRACED_RESULT_CALLS.get(qualname) if qualname is not None else None
        if result is not None:  # numpyro.sample: a tracer unless it returns an argument
            observed = argument_value(call, *result.observed) if result.observed is not None else None
            passed = argument_value(call, *result.passes) if result.passes is not None else observed
            return self.traced(passed, scope) if passed is not None else result.passes is None
        if qualname in ARGUMENT_TRACED_LIBRARY_FUNCTIONS and not ARGUMENT_TRACED_LIBRARY_FUNCTIONS[qualname]:
            return self._fed_traced(call, scope)  # diffrax.is_okay(sol.result)
        if qualname in ARGUMENT_TRACED_LIBRARY_FUNCTIONS:  # a Solution: traced through its fields
            return False
        if qualname in NUMPY_ARRAY_METHOD_FUNCTIONS:
            # np.sum(x) is x.sum(): traced when the array is
            return bool(call.args) and not call.args[0].star and call.args[0].keyword is None \
                and self.traced(call.args[0].value, scope)
        if qualname is None or qualname in CONCRETE_FUNCTIONS or qualname.startswith(CONCRETE_NAMESPACES) \
                or not (qualname.startswith(JAX_ARRAY_NAMESPACES) or qualname in STAGED_LIBRARY_FUNCTIONS):
            # (a JAX operation is staged whatever the arguments: omnistaging)
            return False
        if qualname in ARGUMENT_TRACED_FUNCTIONS or id(call) in self.compile_time_eval_nodes:
            return self._any_arg_traced(call, scope)  # (run eagerly on concrete operands)
        # a class (jax.lax.Precision, jax.random.PRNGKey) is not followed: precision first
        return not qualname.rpartition(".")[2][:1].isupper()

    def layer_attribute(self, func: cst.Attribute, scope: Scope) -> Optional[str]:
        """``self.linear`` in a method of a class whose ``__init__`` (or linen ``setup``) sets
        ``self.linear = nnx.Linear(...)``: the qualified name of that library layer
        (LAYER_NAMESPACES), which returns arrays."""
        built = self._built_attribute(func, scope)
        qualname = self.model.qualified_name(built[0].func, built[1]) or "" if built is not None else ""
        return qualname if qualname.startswith(LAYER_NAMESPACES) else None

    def submodule_method(self, func: cst.BaseExpression, scope: Scope) -> Optional[cst.FunctionDef]:
        """``self.encoder(x)`` where ``__init__`` / ``setup`` sets ``self.encoder = Encoder(...)``,
        a class of this module, or ``Encoder(...)(x)`` (a linen compact submodule), or a name
        bound once to ``Encoder(...)``: its ``__call__`` (also inherited from a base of this
        module)."""
        if isinstance(func, cst.Attribute):
            built = self._built_attribute(func, scope)
        elif isinstance(func, cst.Call):
            built = (func, scope)
        elif isinstance(func, cst.Name) and (binding := self.flow.single(func, scope)) is not None \
                and binding.kind == "assign" and isinstance(binding.value, cst.Call):
            built = (binding.value, binding.scope)
        else:
            built = None
        if built is None or not isinstance(built[0].func, cst.Name):
            return None
        binding = self.model.single_binding(built[0].func.value, built[1])
        if binding is None or binding.kind != "class" or not isinstance(binding.node, cst.ClassDef):
            return None
        method = inherited_method(self.model, binding.node, "__call__")
        return method if method is not None and positional_params(method) and method is not self.func else None

    def numpy_converting_method(self, func: cst.BaseExpression, scope: Scope) -> Optional[tuple[str, str]]:
        """``solver.run`` of an object a NUMPY_CONVERTING_METHODS class built (the call written
        there, bound to a name, or assigned to ``self.<attr>`` in ``__init__``): the class and
        the advice."""
        if not isinstance(func, cst.Attribute):
            return None
        receiver = func.value
        if isinstance(receiver, cst.Call):  # jaxopt.ScipyMinimize(...).run(x)
            built = (receiver, scope)
        elif isinstance(receiver, cst.Attribute):  # self.solver.run(x)
            built = self._built_attribute(receiver, scope)
        else:  # solver.run(x)
            origin = self.model.value_origin(receiver, scope, None)
            built = origin[:2] if origin is not None else None
        if built is None or not isinstance(built[0], cst.Call):
            return None
        qualname = self.model.qualified_name(built[0].func, built[1])
        fact = NUMPY_CONVERTING_METHODS.get(qualname) if qualname is not None else None
        return (qualname, fact[1]) if fact is not None and fact[0] == func.attr.value else None

    def _built_attribute(self, func: cst.Attribute, scope: Scope) -> Optional[tuple[cst.Call, Scope]]:
        """The call ``__init__`` (or linen ``setup``) assigns to ``self.<attr>`` that ``func``
        reads in a method of that class, with the class's scope."""
        if not isinstance(func.value, cst.Name):
            return None
        bindings = self.model.lookup(func.value.value, scope)
        if len(bindings) != 1 or bindings[0].kind != "param" or bindings[0].scope.parent is None \
                or bindings[0].scope.parent.kind != "class":
            return None
        method = bindings[0].scope.node
        if not (isinstance(method, cst.FunctionDef) and positional_params(method)
                and positional_params(method)[0].name.value == func.value.value):
            return None
        cls = bindings[0].scope.parent.node
        class_scope = bindings[0].scope.parent
        for name in ("__init__", "setup"):
            init = class_methods(cls).get(name) if isinstance(cls, cst.ClassDef) else None
            if init is None or not positional_params(init):
                continue
            me = positional_params(init)[0].name.value
            for node in own_nodes(init.body):
                if isinstance(node, cst.Assign) and isinstance(node.value, cst.Call) and any(
                        isinstance(t.target, cst.Attribute) and isinstance(t.target.value, cst.Name)
                        and t.target.value.value == me and t.target.attr.value == func.attr.value
                        for t in node.targets):
                    return node.value, class_scope
        return None

    def int_leaf_declaration(self, read: cst.Attribute, scope: Scope
                             ) -> Optional[tuple[cst.ClassDef, cst.AnnAssign]]:
        """(class, field declaration) when ``read`` is a leaf field of a class of this module
        that a parameter's annotation names (no call passes one), declared as Python ints
        only (``Tuple[int, int]``, ``Sequence[Tuple[int, int]]``)."""
        leaf = self.leaf_field_class(read, scope)
        if leaf is None or leaf[1]:
            return None
        declared = _declared_fields(self.model, leaf[0]).get(read.attr.value)
        if declared is None or not _python_ints_annotation(declared[0].annotation.annotation):
            return None
        return leaf[0], declared[0]

    def holds_none(self, expr: cst.BaseExpression, scope: Scope) -> bool:
        """``None``, or the jitted def's own parameter that every jitted call in the module
        passes as None or leaves at a None default (``jnp.where(mask, size=size)`` of
        ``size=None``: unsized; ``if batch is None: return`` with ``batch=None`` at every call)."""
        if is_none(expr):
            return True
        values = self.param_values(expr, scope) if self.caller is None else None
        return values is not None and all(is_none(value) for value in values)

    def root_flag(self, expr: cst.BaseExpression, scope: Scope) -> Optional[bool]:
        """The truth value of the jitted def's own parameter that every jitted call in the
        module passes as a literal of one truth value, or leaves at such a default (``if
        verbose:`` with ``verbose=False`` never passed): None when unknown.  Also ``if not
        self.no_cutoff:`` where ``__init__`` sets the attribute from a parameter that every
        construction of the class in the module gives a literal of one truth value."""
        if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Not):
            inner = _instance_flag(self.ctx, expr.expression, scope)
            if inner is not None:
                return not inner
        elif isinstance(expr, cst.Attribute):
            inner = _instance_flag(self.ctx, expr, scope)
            if inner is not None:
                return inner
        if isinstance(expr, cst.Comparison) and len(expr.comparisons) == 1 and is_none(expr.comparisons[0].comparator) \
                and isinstance(expr.comparisons[0].operator, (cst.Is, cst.IsNot)):
            # ``if offsets is None:`` where every call passes a tuple display (or None), or the
            # call that led here does (``_unique(x, size=x.size)``): known
            verdict = _none_verdict(self.param_values(expr.left, scope))
            if verdict is None and self.entry_call is not None:
                site = self.model.call_site_of.get(self.entry_call)
                verdict = _none_verdict(self.entry_values(expr.left, scope), lambda value: site is not None
                                        and self._annotated_not_none(value, site.frame.scope))
            return None if verdict is None else verdict == isinstance(expr.comparisons[0].operator, cst.Is)
        if isinstance(expr, cst.Comparison) and len(expr.comparisons) == 1 \
                and isinstance(expr.comparisons[0].operator, (cst.Equal, cst.NotEqual)) \
                and isinstance(expr.comparisons[0].comparator, (cst.SimpleString, cst.Integer)) \
                and not self.traced(expr.left, scope):  # a literal passed at a traced position is a tracer
            # ``if backend == "numpy":`` where every call passes another string, or leaves the
            # parameter at a default of one (a stand-in's ``backend=None``): known
            verdict = _equal_verdict(self.param_values(expr.left, scope), expr.comparisons[0].comparator)
            if verdict is None and self.entry_call is not None:  # the call that led here (in the follow key)
                verdict = _equal_verdict(self.param_values(expr.left, scope, entry_only=True),
                                         expr.comparisons[0].comparator)
            return None if verdict is None else verdict == isinstance(expr.comparisons[0].operator, cst.Equal)
        if self.traced(expr, scope):
            return None  # a literal passed at a traced position arrives a tracer: the test raises
        if self.caller is not None:  # a helper: the call that led here (its literal is in the follow key)
            return _one_truth(self.param_values(expr, scope, entry_only=True)) if self.entry_call is not None else None
        return _one_truth(self.param_values(expr, scope))

    def _annotated_not_none(self, value: cst.BaseExpression, scope: Scope) -> bool:
        """A parameter of the caller annotated with a Python scalar type and without a None
        default (``def _run(key, features, settings, n_chains: int)`` handing ``n_chains=n_chains``
        on): the caller's own contract says it is never None."""
        binding = self.flow.single(value, scope) if isinstance(value, cst.Name) else None
        param = binding.node if binding is not None and binding.kind == "param" else None
        annotation = param.annotation.annotation if isinstance(param, cst.Param) and param.annotation else None
        return isinstance(annotation, cst.Name) and annotation.value in PYTHON_SCALAR_TYPES | {"str"} \
            and not self.model.lookup(annotation.value, binding.scope) \
            and (param.default is None or not is_none(param.default))

    def entry_values(self, expr: cst.BaseExpression, scope: Scope) -> Optional[list[cst.BaseExpression]]:
        """What the call that led here passes the parameter ``expr``; an instance attribute
        passed on (``steps_pol=self.steps_pol``) stands for what every construction of the class
        gives the ``__init__`` parameter that sets it."""
        values = self.param_values(expr, scope, entry_only=True)
        site = self.model.call_site_of.get(self.entry_call) if self.entry_call is not None else None
        if values is None or site is None:
            return values
        resolved: list[cst.BaseExpression] = []
        for value in values:
            given = _init_param_values(self.ctx, value, site.frame.scope) if isinstance(value, cst.Attribute) else None
            resolved.extend([v for v, _ in given] if given is not None else [value])
        return resolved

    def param_values(self, expr: cst.BaseExpression, scope: Scope,
                     entry_only: bool = False) -> Optional[list[cst.BaseExpression]]:
        """What every call of this function in the module gives its own parameter ``expr``
        (the default where a call leaves it out): the jitted calls of the jitted def, the calls
        by name of a helper followed from traced code (``entry_only``: the call that led here,
        whose kind of value the follow key holds); None when unknown (no call, ``*args``, a
        parameter without a default left out)."""
        func = self.func
        if not isinstance(expr, cst.Name) or not isinstance(func, cst.FunctionDef) \
                or (self.caller is None and self.root.traced_by):
            return None
        bindings = self.flow.reaching(expr, scope)  # the parameter, here (rebound after: ``offsets = ...``)
        node = bindings[0].node if len(bindings) == 1 and bindings[0].kind == "param" \
            and bindings[0].scope.node is func else None
        if not isinstance(node, cst.Param):
            return None
        if entry_only and self.entry_call is not None:
            positional = [p.name.value for p in positional_params(func)]
            position = positional.index(node.name.value) if node.name.value in positional else None
            calls = [(self.entry_call, argument_value(self.entry_call, position, node.name.value))]
        elif self.caller is None:
            calls = [(jc.call, jc.argument(node.name.value)) for jc in jitted_calls(self.ctx) if jc.func is func]
        else:
            positional = [p.name.value for p in positional_params(func)]
            position = positional.index(node.name.value) if node.name.value in positional else None
            calls = [(site.node, argument_value(site.node, position, node.name.value))
                     for site in self.model.calls_named(func.name.value) if isinstance(site.node.func, cst.Name)
                     and any(b.node is func for b in self.model.bindings_at(site.node.func, site.frame.scope))]
        values: list[cst.BaseExpression] = []
        for call, value in calls:
            if any(arg.star for arg in call.args) or (value is None and node.default is None):
                return None
            values.append(value if value is not None else node.default)
        return values or None

    def leaf_fix(self, cls: cst.ClassDef) -> str:
        """How to keep a leaf field of ``cls`` a Python value."""
        if any(self.model.qualified_name(base.value, self.model.classes[cls].scope) in NAMED_TUPLE_BASES
               for base in cls.bases):
            return ("a NamedTuple has no static fields: pass the value as a static argument of its own, "
                    "or hold it in a flax.struct dataclass field with pytree_node=False")
        return ("declare the field static (`flax.struct.field(pytree_node=False)`, `eqx.field(static=True)`) "
                "or pass it as a static argument of its own")

    def leaf_read(self, expr: Optional[cst.BaseExpression], scope: Scope, depth: int = 0) -> Optional[cst.Attribute]:
        """The attribute read ``expr`` comes from, through subscripts and names bound once in
        this function (``hw = grids.resolutions[level]``: ``grids.resolutions``)."""
        while isinstance(expr, cst.Subscript):
            expr = expr.value
        if isinstance(expr, cst.Name) and depth < 3:
            binding = self.flow.single(expr, scope)
            if binding is None or binding.kind != "assign" or id(binding.scope) not in self.scope_ids:
                return None
            value = assigned(binding).value
            if value is None and isinstance(binding.node, cst.Assign):  # ``height, width = grids.resolution``
                value = binding.node.value
            return self.leaf_read(value, binding.scope, depth + 1) if value is not None else None
        return expr if isinstance(expr, cst.Attribute) else None

    def leaf_field_class(self, expr: cst.Attribute, scope: Scope) -> Optional[tuple[cst.ClassDef, list[cst.Arg]]]:
        """``c.n`` of a traced parameter ``c`` that an instance of a class of this module is
        passed to (at a call of the jitted def, or by annotation), whose ``n`` is a leaf
        (LEAF_FIELD_DATACLASSES): that class's name, with the call arguments that pass one
        (empty: the annotation says so)."""
        leaves = self.ctx.shared("pytree-leaf-fields", _leaf_fields)
        if not leaves:
            return None
        for cls, passed in self._subtree_classes(expr.value, scope, leaves).items():
            if expr.attr.value in leaves.get(cls, ()):
                return cls, passed
        return None

    def _subtree_classes(self, expr: cst.BaseExpression, scope: Scope, leaves: dict, depth: int = 0
                         ) -> dict[cst.ClassDef, list[cst.Arg]]:
        """The pytree dataclasses of this module ``expr`` holds: a traced parameter's classes,
        or a field of one that holds another (``data.core`` of ``core: SimCore``)."""
        if isinstance(expr, cst.Attribute) and depth < 4:
            found: dict[cst.ClassDef, list[cst.Arg]] = {}
            for cls, passed in self._subtree_classes(expr.value, scope, leaves, depth + 1).items():
                annotation = _field_annotations(self.model, cls).get(expr.attr.value)
                inner = _local_class(self.model, annotation, self.model.classes[cls].scope) \
                    if isinstance(annotation, cst.Name) else None
                if inner is not None and inner in leaves:
                    found[inner] = passed
            return found
        param = self._is_bare_param(expr, scope)
        return self.param_classes().get(param, {}) if param is not None else {}

    def param_classes(self) -> dict[str, dict[cst.ClassDef, list[cst.Arg]]]:
        """Parameter of the jitted def -> classes of this module it receives instances of: by
        its annotation, or at the def's jitted calls in this module (``do_scan(D(...))``)."""
        if self._param_classes is not None:
            return self._param_classes
        found: dict[str, dict[cst.ClassDef, list[cst.Arg]]] = {}
        model, func = self.model, self.func
        params = positional_params(func)
        for param in (*params, *func.params.kwonly_params):
            annotation = param.annotation.annotation if param.annotation is not None else None
            cls = self._class_named(annotation, model.scope_of[func]) if annotation is not None else None
            if cls is not None:
                found.setdefault(param.name.value, {})[cls] = []
        own_calls = {id(jc.call) for jc in jitted_calls(self.ctx) if jc.func is func}
        for jc in jitted_calls(self.ctx):
            if jc.func is not func:
                continue
            site = model.call_site_of[jc.call]
            for name, arg in jc.passed():
                origin = model.value_origin(arg.value, site.frame.scope, site.frame)
                if origin is None and isinstance(arg.value, cst.Name):
                    # ``state, avg = eval_step(state, ...)`` in a loop: what the step hands back
                    # is fed in again; the state it starts from tells the class
                    starts = [b for b in self.flow.reaching(arg.value, site.frame.scope)
                              if not (isinstance(b.node, cst.Assign) and id(b.node.value) in own_calls)]
                    if len(starts) == 1 and starts[0].frame is not None and assigned(starts[0]).value is not None:
                        origin = model.value_origin(assigned(starts[0]).value, starts[0].scope, starts[0].frame)
                if name is not None and origin is not None and isinstance(origin[0], cst.Call):
                    cls = self._class_named(origin[0].func, origin[1])
                    if cls is not None:
                        found.setdefault(name, {}).setdefault(cls, []).append(arg)
        self._param_classes = found
        return found

    def _class_named(self, expr: cst.BaseExpression, scope: Scope) -> Optional[cst.ClassDef]:
        if not isinstance(expr, cst.Name):
            return None
        binding = self.model.single_binding(expr.value, scope)
        if binding is None or binding.kind != "class" or not isinstance(binding.node, cst.ClassDef):
            return None
        return binding.node

    def _helper_returns_traced(self, call: cst.Call, scope: Scope) -> bool:
        """A call of a function of this module (a def, a lambda bound to a name, or one kept in
        a ``types.SimpleNamespace`` of helpers) with traced arguments that returns a traced
        value (``npad = index_update(npad, i, n)`` returning ``x.at[i].set(n)``)."""
        if self.depth >= MAX_HELPER_DEPTH:
            return False
        helper = self._callee(call.func, scope)
        if helper is None or helper is self.func or helper in self.jitted_defs:
            return False
        params = positional_params(helper)
        traced = {params[index].name.value if arg.keyword is None else arg.keyword.value
                  for index, arg in enumerate(call.args)
                  if not arg.star and (arg.keyword is not None or index < len(params))
                  and self.traced(arg.value, scope)}
        if not traced or any(arg.star for arg in call.args):
            return False
        key = (id(helper), frozenset(traced))
        analysis = self._returns.get(key)
        if analysis is None:
            analysis = _FunctionAnalysis(self.ctx, JittedFunction(helper, [], traced, set(traced)),
                                         self.jitted_defs, self, self.depth + 1)
            self._returns[key] = analysis
            analysis.solve()
        inner = self.model.scope_of[helper]
        if isinstance(helper, cst.Lambda):
            return analysis.traced(helper.body, inner)
        return any(isinstance(node, cst.Return) and node.value is not None
                   and analysis.traced(node.value, inner) for node in own_nodes(helper.body))

    def _callee(self, func: cst.BaseExpression, scope: Scope):
        """The undecorated def or lambda of this module that ``func`` names, if known."""
        model = self.model
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
            holder = model.single_binding(func.value.value, scope)
            value = holder.value if holder is not None and holder.kind == "assign" else None
            if not isinstance(value, cst.Call) \
                    or model.qualified_name(value.func, holder.scope) != "types.SimpleNamespace":
                return None
            member = next((arg.value for arg in value.args if arg.keyword is not None
                           and arg.keyword.value == func.attr.value), None)
            return member if isinstance(member, cst.Lambda) else \
                self._callee(member, holder.scope) if isinstance(member, cst.Name) else None
        if not isinstance(func, cst.Name):
            return None
        binding = model.single_binding(func.value, scope)
        if binding is None or binding.scope.kind == "class" or id(binding.scope) in self.scope_ids:
            return None
        if binding.kind == "def" and isinstance(binding.node, cst.FunctionDef) and not binding.node.decorators:
            return binding.node
        if binding.kind == "assign" and isinstance(binding.value, cst.Lambda):
            return binding.value
        return None

    def _transform(self, call: cst.Call, scope: Scope) -> bool:
        """``jax.grad(f)`` / ``jax.vmap(f)``: a JAX transform that returns the transformed function."""
        qualname = self.model.qualified_name(call.func, scope)
        fact = TRACING_CALLS.get(qualname) if qualname is not None else None
        return fact is not None and fact.wraps and qualname.startswith("jax.")

    def elements_traced(self, expr: cst.BaseExpression, scope: Scope, depth: int = 0) -> bool:
        """A list, tuple or set display, or a comprehension, with a traced element:
        ``sum(jnp.add(1, 1) for _ in range(n))`` adds tracers."""
        if isinstance(expr, (cst.List, cst.Tuple, cst.Set)):
            return any(not isinstance(e, cst.StarredElement)
                       and (self.traced(e.value, scope) or self.elements_traced(e.value, scope))
                       for e in expr.elements)
        if isinstance(expr, cst.Dict):  # ``{"h": [h], "tau": [tau]}``: its values
            return any(isinstance(e, cst.DictElement)
                       and (self.traced(e.value, scope) or self.elements_traced(e.value, scope, depth + 1))
                       for e in expr.elements)
        if isinstance(expr, (cst.ListComp, cst.GeneratorExp, cst.SetComp)):
            inner = self.model.scope_of.get(expr, scope)
            return self.traced(expr.elt, inner) or self.elements_traced(expr.elt, inner)
        if (inner := self._sequence_of(expr, scope)) is not None:  # ``tuple(x)`` of a traced array: its rows
            return self.traced(inner, scope) or self.elements_traced(inner, scope, depth + 1)
        if _sequence_arithmetic(expr) and depth < 3:
            # ``[(0, 0)] * (ndim - 1) + [(pad, pad)]``: the elements of the lists joined
            return any(self.elements_traced(side, scope, depth + 1) for side in (expr.left, expr.right))
        if _values_view(expr) and depth < 3:  # ``samples_dict.values()`` of a traced dict: its leaves
            return self.traced(expr.func.value, scope) or self.elements_traced(expr.func.value, scope, depth + 1)  # type: ignore[attr-defined]
        if isinstance(expr, cst.Name) and depth < 3:  # ``heads = [x * 0.5, x * 2.0]``
            bindings = self.flow.reaching(expr, scope)
            if len(bindings) == 1 and self._traced_star_param(bindings[0]):
                return True
            if len(bindings) == 1 and bindings[0].kind == "assign" and _values_view(bindings[0].value):
                return self.elements_traced(bindings[0].value, bindings[0].scope, depth + 1)  # ``samples = d.values()``
            displays = bool(bindings) and all(
                b.kind == "assign" and id(b.scope) in self.scope_ids
                and (isinstance(b.value, (cst.List, cst.Tuple, cst.Set, cst.ListComp, cst.SetComp, cst.Dict))
                     or _sequence_arithmetic(b.value) or self._sequence_of(b.value, b.scope) is not None)
                for b in bindings)
            return displays and (all(self.elements_traced(b.value, b.scope, depth + 1) for b in bindings)
                                 or self._appended_traced(bindings))
        return False

    def _appended_traced(self, bindings: list[Binding]) -> bool:
        """``x = []`` then ``x.append(index % base)`` of a traced value in this function (also
        ``insert``, ``extend`` of a display holding one): the list holds a tracer."""
        names = {b.name for b in bindings}
        for call, scope in self._growing_calls:
            if call.func.value.value not in names \
                    or not any(b in bindings for b in self.flow.reaching(call.func.value, scope)):
                continue
            added = call.args[-1].value
            if self.traced(added, scope) or (call.func.attr.value == "extend" and self.elements_traced(added, scope, 2)):
                return True
        return False

    @cached_property
    def _growing_calls(self) -> list[tuple[cst.Call, Scope]]:
        """The ``name.append(v)`` / ``insert`` / ``extend`` calls in this function, with their scopes."""
        found = []
        for node in iter_nodes(self.func):
            if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.args \
                    and isinstance(node.func.value, cst.Name) and node.func.attr.value in GROW_METHODS:
                site = self.model.call_site_of.get(node)
                if site is not None:
                    found.append((node, site.frame.scope))
        return found

    def _traced_star_param(self, binding: Binding) -> bool:
        """``state`` of ``def step(*state)`` jitted with no static positions: a tuple of tracers."""
        star = self.func.params.star_arg
        return self.caller is None and not self.root.traced_by and isinstance(star, cst.Param) \
            and binding.kind == "param" and binding.node is star \
            and not any(k.keyword is not None and k.keyword.value == "static_argnums"
                        for app in self.jitted.apps for k in app.keywords)

    def _sequence_of(self, expr: Optional[cst.BaseExpression], scope: Scope) -> Optional[cst.BaseExpression]:
        """``tuple(x)`` / ``list(x)`` (the builtins): the iterable it unpacks."""
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value in ("tuple", "list") \
                and len(expr.args) == 1 and not expr.args[0].keyword and not expr.args[0].star \
                and not self.model.lookup(expr.func.value, scope):
            return expr.args[0].value
        return None

    def shape_parts(self, expr: cst.BaseExpression, scope: Scope, depth: int = 0) -> list[cst.BaseExpression]:
        """A shape or pad-width argument's parts (``_elements``), also through a name bound once
        in this trace to a list built by joining or repeating displays (``pad_config = [(0, 0)]
        * (ndim - 1) + [(padl, padr)]``)."""
        if depth < 3 and _sequence_arithmetic(expr):  # ``(4,) + grids.resolution`` too: its elements
            return [part for side in (expr.left, expr.right) for part in self.shape_parts(side, scope, depth + 1)]
        if depth < 3 and (inner := self._sequence_of(expr, scope)) is not None:
            return self.shape_parts(inner, scope, depth + 1)  # ``tuple(hw)``: the elements of ``hw``
        if depth < 3 and isinstance(expr, cst.Name):
            binding = self.flow.single(expr, scope)
            if binding is not None and binding.kind == "assign" and id(binding.scope) in self.scope_ids \
                    and (_sequence_arithmetic(binding.value) or isinstance(binding.value, (cst.List, cst.Tuple))):
                return self.shape_parts(binding.value, binding.scope, depth + 1)
        return _elements(expr) if not isinstance(expr, (cst.List, cst.Tuple)) else [
            part for e in expr.elements for part in self.shape_parts(e.value, scope, depth + 1)]

    def hands_traced(self, expr: cst.BaseExpression, scope: Scope) -> bool:
        """``expr`` hands a called function tracers: traced itself, or a list, tuple or dict of
        traced values (a traced pytree for the callee), or an instance of a pytree class of
        this module built from one (``_Param(a1)``, an equinox Module holding a tracer)."""
        if self.traced(expr, scope) or self.elements_traced(expr, scope):
            return True
        return isinstance(expr, cst.Call) and self._class_named(expr.func, scope) in self.ctx.shared(
            "pytree-dataclass-set", lambda c: set(_pytree_dataclasses(c))) and any(
            not arg.star and self.hands_traced(arg.value, scope) for arg in expr.args)

    def _any_arg_traced(self, call: cst.Call, scope: Scope) -> bool:
        return any(self.traced(arg.value, scope) for arg in call.args)

    def nested_jit_spec(self, call: cst.Call) -> Optional[StaticArgSpec]:
        """The spec of the jitted function (``jax.jit`` and its kin, ``nnx.jit``; not
        ``eqx.filter_jit``, which hands non-array outputs back as they are: measured) that ``call`` calls, when this code runs
        under a jit's trace (not only ``jax.vmap`` or ``jax.grad``): that call returns tracers."""
        if self.root.traced_by or self.root.rebuilt or self.root.schedule_of:
            return None
        return self.called_jit_spec(call)

    def called_jit_spec(self, call: cst.Call) -> Optional[StaticArgSpec]:
        """The spec of the jitted function ``call`` calls (``jax.jit`` and its kin, ``nnx.jit``;
        not ``eqx.filter_jit``, which traces a tracer wherever it is passed)."""
        site = self.model.call_site_of.get(call)
        found = jitted_callee(self.ctx, site) if site is not None else None
        if found is None or found[0].filtering or found[0].jit not in NESTED_TRACING_JITS:
            return None
        return found[0]

    def _jitted_call_of_traced(self, call: cst.Call, scope: Scope) -> bool:
        """``energy(w, x)`` with jitted ``energy`` and traced ``w``: a jitted function given a
        tracer at one of its traced positions returns tracers, whether or not the outer code is
        under jit (so it is not JIT204's jit-only case)."""
        if self.called_jit_spec(call) is None:
            return False
        site = self.model.call_site_of.get(call)
        spec, shift = jitted_callee(self.ctx, site)  # type: ignore[arg-type,misc]
        if not spec.checkable:
            return self._any_arg_traced(call, scope)
        return any(self.traced(use.value, scope) for use in map_arguments(site, spec, shift, traced=True,
                                                                            model=self.model))

    def reaches_nested_jit(self, call: cst.Call, scope: Scope) -> bool:
        """``call`` calls a module function (a plain def) that calls a jitted function: followed
        with no traced argument too, since what the inner jit returns is traced."""
        if not isinstance(call.func, cst.Name) or self.depth >= MAX_HELPER_DEPTH:
            return False
        binding = self.model.single_binding(call.func.value, scope)
        if binding is None or binding.kind != "def" or not isinstance(binding.node, cst.FunctionDef):
            return False
        return calls_jitted(self.ctx, binding.node)

    def boolean_traced(self, expr: cst.BaseExpression, scope: Scope, seen: frozenset = frozenset()) -> bool:
        """A traced boolean array: a comparison of traced values, ``~``, ``&``, ``|``, ``^`` of
        such, a jax.numpy predicate (``jnp.isnan``), ``.astype(bool)``, or a name every binding
        of which is one."""
        if not self.traced(expr, scope):
            return False
        if isinstance(expr, cst.Comparison):
            return True  # traced() already excludes is / in
        if isinstance(expr, cst.UnaryOperation):
            return isinstance(expr.operator, cst.BitInvert) and self.boolean_traced(expr.expression, scope, seen)
        if isinstance(expr, cst.BinaryOperation):
            return isinstance(expr.operator, (cst.BitAnd, cst.BitOr, cst.BitXor)) and (
                self.boolean_traced(expr.left, scope, seen) or self.boolean_traced(expr.right, scope, seen))
        if isinstance(expr, cst.Subscript):  # ``mask[:-1]``: a slice of a mask is a mask
            return all(isinstance(e.slice, cst.Slice) for e in expr.slice) \
                and self.boolean_traced(expr.value, scope, seen)
        if isinstance(expr, cst.Call):
            func = expr.func
            if isinstance(func, cst.Attribute) and func.attr.value == "astype" and len(expr.args) == 1:
                return self._bool_dtype(expr.args[0].value, scope)
            if isinstance(func, cst.Attribute) and func.attr.value in MASK_KEEPING_METHODS:
                return self.boolean_traced(func.value, scope, seen)  # ``mask.ravel()``
            dtype = next((a.value for a in expr.args if a.keyword is not None and a.keyword.value == "dtype"), None)
            qualname = self.model.qualified_name(func, scope)
            if dtype is not None and makes_jax_array(qualname):
                return self._bool_dtype(dtype, scope)  # ``jnp.zeros((n, 1), dtype=bool)``: staged under jit
            if qualname in SHAPE_JOINING_CALLS and qualname.startswith("jax.numpy.") and expr.args and isinstance(expr.args[0].value, (cst.List, cst.Tuple)):
                parts = expr.args[0].value.elements  # ``jnp.concatenate([mask_a, mask_b])``
                return bool(parts) and all(not isinstance(p, cst.StarredElement)
                                           and self.boolean_traced(p.value, scope, seen) for p in parts)
            return qualname in BOOLEAN_RESULT_FUNCTIONS
        if isinstance(expr, cst.Name):
            bindings = self.model.lookup(expr.value, scope)
            if not bindings or any(id(b) in seen for b in bindings):
                return False  # m = m & (x > 0): decided by the other bindings
            seen = seen | {id(b) for b in bindings}
            if len(bindings) == 1 and id(bindings[0]) in self.param_bindings:
                return self._passed_boolean(bindings[0].name)
            return all(b.kind == "assign" and b.value is not None
                       and self.boolean_traced(b.value, b.scope, seen) for b in bindings)
        return False

    def _bool_dtype(self, dtype: cst.BaseExpression, scope: Scope) -> bool:
        return (isinstance(dtype, cst.Name) and dtype.value == "bool" and not self.model.lookup("bool", scope)) \
            or self.model.qualified_name(dtype, scope) in BOOL_DTYPES

    def _passed_boolean(self, param: str) -> bool:
        """Every call of this jitted def in the module passes a boolean array as ``param``
        (``masked_mean(x, x > 0)``, ``f(x, jnp.array([True, False]))``), and there is one."""
        if self.caller is not None or self.root.traced_by:
            return False
        calls = [call for call in jitted_calls(self.ctx) if call.func is self.func]
        return bool(calls) and all(
            _boolean_array(self.model, call.argument(param), self.model.call_site_of[call.call].frame.scope)
            for call in calls)

    def _builtin(self, func: cst.BaseExpression, scope: Scope) -> Optional[str]:
        if isinstance(func, cst.Name) and not self.model.lookup(func.value, scope):
            return func.value
        return None

    def _stated_container(self, expr: cst.BaseExpression, scope: Scope) -> bool:
        """A name bound to a parameter the code states is a container (``params: dict``,
        ``opts={}``), also after ``params = params or {}`` rebinds it; a field of a held object
        its class annotates as one (``self.data`` of ``data: dict[int, Array]``)."""
        if isinstance(expr, cst.Attribute):
            held = self.held_object(expr.value, scope)
            annotation = _field_annotations(self.model, held.cls).get(expr.attr.value) if held is not None else None
            return annotation is not None and container_annotation(annotation)
        return isinstance(expr, cst.Name) and any(
            b.kind == "param" and isinstance(b.node, cst.Param) and (states_container(b.node) or self._used_as_mapping(b))
            for b in self.model.lookup(expr.value, scope))

    def _used_as_mapping(self, param: Binding) -> bool:
        """The function calls a mapping's own method on the parameter (``lora_layer.get(key)``,
        ``.items()``): an array has none of them, so it is a dict (or None), whose truth is
        Python's."""
        function = param.scope.node
        return isinstance(function, cst.FunctionDef) and any(
            isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)
            and node.func.attr.value in MAPPING_METHODS and isinstance(node.func.value, cst.Name)
            and node.func.value.value == param.name
            and any(b is param for b in self.model.lookup(param.name, self.model.scope_of.get(node, param.scope)))
            for node in iter_nodes(function.body))

    def _is_self(self, expr: cst.BaseExpression, scope: Scope) -> bool:
        """``expr`` names this method's first parameter."""
        if not isinstance(expr, cst.Name) or not positional_params(self.func):
            return False
        bindings = self.model.lookup(expr.value, scope)
        return len(bindings) == 1 and bindings[0].kind == "param" and bindings[0].scope.node is self.func \
            and bindings[0].name == positional_params(self.func)[0].name.value

    def root_param(self, expr: cst.BaseExpression, scope: Scope) -> Optional[str]:
        """The jitted root's own parameter ``expr`` is, handed down unchanged (``flag`` in the
        root, or a helper parameter that was handed it)."""
        bare = self._is_bare_param(expr, scope)
        if bare is not None or self.caller is None or not isinstance(expr, cst.Name):
            return bare
        bindings = self.model.lookup(expr.value, scope)
        if len(bindings) == 1 and bindings[0].kind == "param" and bindings[0].scope.node is self.func:
            return self.param_origins.get(expr.value)
        return None

    def outer_jit_position(self, expr: cst.BaseExpression, scope: Scope) -> Optional[int]:
        """The position in the outer jit's call (``jax.jit(jax.vmap(f))``) of the parameter of
        ``f`` that ``expr`` names."""
        if self.caller is not None or not isinstance(expr, cst.Name):
            return None
        bindings = self.model.lookup(expr.value, scope)
        if len(bindings) == 1 and id(bindings[0]) in self.param_bindings:
            return self.outer_jit_positions.get(bindings[0].name)
        return None

    def _is_bare_param(self, expr: cst.BaseExpression, scope: Scope) -> Optional[str]:
        """The jitted def's own parameter ``expr`` names (one a caller can mark static)."""
        if self.caller is not None or self.root.traced_by or not isinstance(expr, cst.Name):
            return None
        bindings = self.model.lookup(expr.value, scope)
        if len(bindings) == 1 and id(bindings[0]) in self.param_bindings:
            return bindings[0].name
        return None

    # ------------------------------------------------------------------ findings
    def run(self) -> list[TracerUse]:
        """The findings, with those in the module functions it calls; ``solve`` first."""
        if not (self.traced_bindings or self.staged or self.traced_fields):
            return []
        if not self.uses:
            _UseFinder(self, self.model.scope_of[self.func]).walk(self.func.body)
        found = list(self.uses.values())
        # a block stops at its first statement that surely raises: what follows never runs
        dead = self._unreachable_after_raises(found)
        if dead:
            found = [use for use in found if not _within(self.model.order(use.node), dead)]
        for helper in list(self.followed.values()):
            if helper.entry_call is None or not _within(self.model.order(helper.entry_call), dead):
                found.extend(helper.run())
        return found

    def _unreachable_after_raises(self, uses: list[TracerUse]) -> list[tuple[int, int]]:
        """The rest of each block after its first simple statement (also inside a ``with``)
        that raises on every trace: a raising use outside any lambda, comprehension,
        conditional expression or ``and``/``or`` operand. As (after, end) source orders."""
        raising = [self.model.order(use.node) for use in uses if use.kind in RAISING_AT_THE_USE]
        if not raising:
            return []
        dead = []
        for block in iter_nodes(self.func):
            if not isinstance(block, cst.IndentedBlock) or (block_span := self.model.span(block)) is None:
                continue
            for statement in _straight_line(block):
                span = self.model.span(statement)
                if span is None or not isinstance(statement, cst.SimpleStatementLine):
                    continue
                held = [order for order in raising if span[0] <= order <= span[1]]
                conditional = [self.model.span(n) for n in iter_nodes(statement) if isinstance(n, CONDITIONAL_EVALUATION)]
                if any(not any(c is not None and c[0] < order <= c[1] for c in conditional) for order in held):
                    dead.append((span[1], block_span[1]))
                    break
        return dead

    def report(self, kind: str, node: cst.CSTNode, message: str, operation: str = "",
               evidence: tuple[tuple[cst.CSTNode, str], ...] = (), anchor: Optional[cst.CSTNode] = None) -> None:
        related = evidence + tuple((app.anchor, JITTED_HERE) for app in self.root.jitted.apps)
        self.uses.setdefault(id(node), TracerUse(kind, node, self.func, message, related, operation, anchor))

    def check_truth(self, expr: cst.BaseExpression, scope: Scope, construct: str, fix: str) -> None:
        """``expr`` is converted to bool (an if/while/assert test, an and/or operand, not)."""
        if isinstance(expr, cst.BooleanOperation):
            if not _container_fallback(expr):
                self.check_truth(expr.left, scope, construct, fix)
            conjunction = isinstance(expr.operator, cst.And)
            if self.tracer_guard(expr.left, scope) != ("untraced" if conjunction else "traced") \
                    and self.constant_flag(expr.left, scope) is not (not conjunction):
                self.check_truth(expr.right, scope, construct, fix)
            return
        if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Not):
            self.check_truth(expr.expression, scope, construct, fix)
            return
        if not self.traced(expr, scope) or self._stated_container(expr, scope):
            return
        param = self._is_bare_param(expr, scope)
        if param is not None and param not in self.jitted.array_params:
            return  # annotated as a container (dict, tuple ...): its truth value is concrete
        where = self.where
        if param is not None:
            self.report("bool", expr, f"{construct} on `{param}`, a traced (non-static) argument of "
                                      f"{where}, raises {TRUTH_ERROR}; "
                                      f"{static_fix(param)}, else {fix}")
            return
        origin = self.root_param(expr, scope)
        if origin is not None:  # the root's flag handed down: the fix is the root's static spec
            root = _name(self.root.func)
            self.report("bool", expr, f"{construct} on `{_src(expr)}` in `{_name(self.func)}`, which holds "
                                      f"`{origin}`, a traced (non-static) argument of jitted `{root}`, "
                                      f"raises {TRUTH_ERROR}; if it is a Python value, mark it static in "
                                      f"`{root}` (static_argnames=(\"{origin}\",)), else {fix}")
            return
        constant = next((n for n in name_loads(expr) if self.jax_array_constant(n, scope)), None)
        staged = (f" (`{constant.value}` is a concrete jax array, but a jax operation on it is staged "
                  f"out in traced code)") if constant is not None else ""
        self.report("bool", expr, f"{construct} on `{_src(expr)}`, a traced value in {where}{staged}, "
                                  f"raises {TRUTH_ERROR}; {fix}")


    def constant_flag(self, expr: cst.BaseExpression, scope: Scope) -> Optional[bool]:
        """The truth value of ``expr``, a parameter of this helper (followed from traced code)
        that every call of it in the module passes as the same kind of literal
        (``simplify(op, approx=False)``) or leaves at such a default; None when unknown.  Such a
        flag decides an ``and`` / ``or`` before its traced operand is evaluated."""
        if self.caller is None:
            return None
        return _one_truth(self.param_values(expr, scope))

    def tracer_guard(self, test: cst.BaseExpression, scope: Scope) -> Optional[str]:
        return tracer_test(self.model, test, scope)


def tracer_test(model: SemanticModel, test: cst.BaseExpression, scope: Scope, depth: int = 0) -> Optional[str]:
    """"traced" for ``isinstance(v, jax.core.Tracer)`` (jaxfacts.TRACER_TYPES), "untraced" for
    its negation and for a test that jit is disabled (jaxfacts.JIT_DISABLED_FLAGS): what
    follows on the true side of the test never sees a tracer when it is "untraced", and runs
    only under a trace when it is "traced"."""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And) and depth < 4:
        # ``not _is_traced(x) and bool(x > 0)``: the true side needs both operands true
        sides = {tracer_test(model, side, scope, depth + 1) for side in (test.left, test.right)}
        return "untraced" if "untraced" in sides else "traced" if "traced" in sides else None
    negated = isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not)
    call = test.expression if negated else test
    if isinstance(call, cst.Call) and isinstance(call.func, cst.Name) and call.func.value == "any" \
            and not model.lookup("any", scope) and len(call.args) == 1 \
            and isinstance(call.args[0].value, cst.GeneratorExp) and depth < 4:
        # ``any(isinstance(v, jax.core.Tracer) for v in values)``: true when one of them is traced
        found = tracer_test(model, call.args[0].value.elt, scope, depth + 1)
        return found if found is None or not negated else ("traced" if found == "untraced" else "untraced")
    if isinstance(call, (cst.Name, cst.Attribute)) and model.qualified_name(call, scope) in JIT_DISABLED_FLAGS:
        return "traced" if negated else "untraced"  # ``if jax.config.jax_disable_jit:``: jit is off there
    predicate = _predicate_helper(model, call, scope) if depth < 2 else None
    if predicate is not None:  # ``_is_tracer(x)`` whose one line is ``return isinstance(v, jax.core.Tracer)``
        found = tracer_test(model, *predicate, depth + 1)
        return found if found is None or not negated else ("traced" if found == "untraced" else "untraced")
    if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Name) and call.func.value == "isinstance"
            and not model.lookup("isinstance", scope) and len(call.args) == 2):
        return None
    types = call.args[1].value
    members = [e.value for e in types.elements] if isinstance(types, cst.Tuple) else [types]
    if not all(model.qualified_name(t, scope) in TRACER_TYPES for t in members):
        return None
    return "untraced" if negated else "traced"


def _predicate_helper(model: SemanticModel, call: cst.BaseExpression, scope: Scope
                      ) -> Optional[tuple[cst.BaseExpression, Scope]]:
    """``_is_tracer(x)`` calling a plain function of this module whose body is one ``return``
    of a test on its one parameter: that test, with the parameter in the helper's scope (the
    argument is the value the test reads: ``isinstance`` does not depend on which name holds it)."""
    if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Name) and len(call.args) == 1
            and call.args[0].keyword is None and not call.args[0].star):
        return None
    binding = model.single_binding(call.func.value, scope)
    helper = binding.node if binding is not None and binding.kind == "def" else None
    params = helper.params if isinstance(helper, cst.FunctionDef) else None
    one_parameter = params is not None and (len(params.params) == 1 and not isinstance(params.star_arg, cst.Param)
                                            or not params.params and isinstance(params.star_arg, cst.Param))
    if not isinstance(helper, cst.FunctionDef) or helper.decorators or not one_parameter \
            or not isinstance(helper.body, cst.IndentedBlock):
        return None
    statements = [line for line in helper.body.body if not is_docstring(line)]
    if len(statements) != 1:
        return None
    line = statements[0]
    statement = line.body[0] if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 else None
    inner = model.scope_of.get(helper)
    if not isinstance(statement, cst.Return) or statement.value is None or inner is None:
        return None
    return statement.value, inner


def _equal_verdict(values: Optional[list[cst.BaseExpression]], literal: cst.BaseExpression) -> Optional[bool]:
    """Whether every one of ``values`` (literals or None) equals ``literal``: True / False when
    they all agree, None when one is not a literal or they differ."""
    wanted = literal.evaluated_value if isinstance(literal, cst.SimpleString) else literal.value  # type: ignore[attr-defined]
    verdicts = set()
    for value in values or [None]:  # type: ignore[list-item]
        if value is not None and is_none(value):
            verdicts.add(False)
        elif isinstance(value, cst.SimpleString) and isinstance(literal, cst.SimpleString):
            verdicts.add(value.evaluated_value == wanted)
        elif isinstance(value, cst.Integer) and isinstance(literal, cst.Integer):
            verdicts.add(value.value == wanted)
        else:
            return None
    return verdicts.pop() if len(verdicts) == 1 else None


def _one_truth(values: Optional[list[cst.BaseExpression]]) -> Optional[bool]:
    """The truth value every one of ``values`` (literals) has; None when they differ or one is
    not a literal."""
    truths = {literal_truth(value) for value in values} if values else {None}
    return truths.pop() if len(truths) == 1 else None


_INT_CONTAINERS = frozenset({"Tuple", "tuple", "Sequence", "List", "list"})
PYTHON_SCALAR_TYPES = frozenset({"int", "float", "bool", "complex"})  # a tracer is an instance of none


def _python_ints_annotation(annotation: cst.BaseExpression) -> bool:
    """``int``, ``Tuple[int, int]``, ``Sequence[Tuple[int, int]]``: Python ints, nothing else."""
    if isinstance(annotation, cst.Subscript):
        return _last_name(annotation.value) in _INT_CONTAINERS and all(
            isinstance(e.slice, cst.Index) and (_python_ints_annotation(e.slice.value)
                                                or isinstance(e.slice.value, cst.Ellipsis))
            for e in annotation.slice)
    return _last_name(annotation) == "int"


def _values_view(expr: Optional[cst.BaseExpression]) -> bool:
    """``d.values()``: a view of a mapping's values (no arguments)."""
    return isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "values" \
        and not expr.args


def _sequence_arithmetic(expr) -> bool:
    """``[a] + [b]`` or ``[a] * n``: a list or tuple display joined or repeated; also a shape
    joined with one (``x.shape[:2] + tuple(hw) + (1,)``)."""
    if not isinstance(expr, cst.BinaryOperation) or not isinstance(expr.operator, (cst.Add, cst.Multiply)):
        return False
    sides = (expr.left, expr.right)
    displays = (cst.List, cst.Tuple, cst.ListComp)
    if isinstance(expr.operator, cst.Multiply):
        return any(isinstance(side, displays) for side in sides)
    return any(isinstance(side, displays) or _sequence_arithmetic(side) for side in sides) \
        or (all(_shape_sequence(side) for side in sides))


def _shape_sequence(expr) -> bool:
    """``x.shape``, ``x.shape[:2]``, ``tuple(...)`` / ``list(...)``: a sequence, not an array."""
    if isinstance(expr, cst.Subscript):
        expr = expr.value
    if isinstance(expr, cst.Attribute):
        return expr.attr.value == "shape"
    return isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value in ("tuple", "list")


def makes_jax_array(qualname: Optional[str]) -> bool:
    """A call of this function returns a jax array (``jnp.ones``, ``jax.random.normal``), not a
    dtype, a shape or a class instance."""
    return qualname is not None and qualname.startswith(JAX_ARRAY_NAMESPACES) and qualname not in CONCRETE_FUNCTIONS \
        and not qualname.startswith(CONCRETE_NAMESPACES) and not qualname.rpartition(".")[2][:1].isupper()


def _container_fallback(node: cst.BooleanOperation) -> bool:
    """``params or {}``: a container fallback says the left operand is a container or None."""
    right = node.right
    if not isinstance(node.operator, cst.Or):
        return False
    if isinstance(right, cst.Call) and isinstance(right.func, cst.Name) and not right.args:
        return right.func.value in ("dict", "list", "tuple", "set")
    return isinstance(right, (cst.Dict, cst.List, cst.Tuple, cst.Set))


IF_FIX = "use jnp.where or jax.lax.cond"
WHILE_FIX = "use jax.lax.while_loop or jax.lax.fori_loop"


FORMAT_FIX = ("format it outside jit, or print it with jax.debug.print(\"{x:.3f}\", x=...), which "
              "formats the value when it runs")
_PERCENT_CONVERSION = re.compile(r"%(?:\((?P<key>[^)]*)\))?[#0 +-]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?(?P<kind>[diouxXeEfFgGcrsa%])")


def _format_spec_arguments(template: str, args: Sequence[cst.Arg]) -> list[tuple[cst.Arg, str]]:
    """The arguments of ``template.format(*args)`` whose field has a format spec (``{:.2f}``,
    ``{0:>8}``, ``{loss:.3f}``)."""
    try:
        fields = [(name, spec) for _, name, spec, _ in string.Formatter().parse(template) if name is not None]
    except (ValueError, TypeError):  # not a valid template, or bytes
        return []
    positional = [arg for arg in args if arg.keyword is None and not arg.star]
    keywords = {arg.keyword.value: arg for arg in args if arg.keyword is not None}
    found, auto = [], 0
    for name, spec in fields:
        if name == "":
            index, auto = auto, auto + 1
            arg = positional[index] if index < len(positional) else None
        elif name.isdigit():
            arg = positional[int(name)] if int(name) < len(positional) else None
        else:  # ``{loss:.3f}``; ``{state.loss:.3f}`` and ``{a[0]}`` read a part: not followed
            arg = keywords.get(name) if name.isidentifier() else None
        if spec and arg is not None:
            found.append((arg, spec))
    return found


def _numeric_percent_operands(template: str, operand: cst.BaseExpression) -> list[tuple[cst.BaseExpression, str]]:
    """The operands of ``template % operand`` that a numeric conversion (``%d``, ``%.2f``)
    turns into a Python number (``%s`` / ``%r`` only call str / repr)."""
    if not isinstance(template, str):
        return []  # bytes
    conversions = [m for m in _PERCENT_CONVERSION.finditer(template) if m["kind"] != "%"]
    if any(m["key"] is not None for m in conversions):
        return []  # a mapping operand: not read here
    values = [e.value for e in operand.elements] if isinstance(operand, cst.Tuple) \
        and not any(isinstance(e, cst.StarredElement) for e in operand.elements) else [operand]
    if len(values) != len(conversions):
        return []
    return [(value, m[0]) for value, m in zip(values, conversions) if m["kind"] not in "rsa"]


def static_fix(param: str) -> str:
    return f'if it is a Python value, mark it static (static_argnames=("{param}",))'

ASSERT_FIX = "check it outside jit, or use jax.experimental.checkify / equinox.error_if"
BOOL_OP_FIX = "use jnp.logical_and / jnp.logical_or / jnp.logical_not (or & | ~)"


class _UseFinder(Walker):
    def __init__(self, analysis: _FunctionAnalysis, scope: Scope) -> None:
        self.a = analysis
        self.scopes = [scope]
        self.bool_context: set[int] = set()  # BooleanOperation/not nodes already checked as tests
        self.numpy_stores: set[tuple[str, int]] = set()  # NumPy arrays a tracer was stored in

    @property
    def scope(self) -> Scope:
        return self.scopes[-1]

    def _enter(self, node) -> None:
        self.scopes.append(self.a.model.scope_of.get(node, self.scope))

    def _leave(self, node) -> None:
        self.scopes.pop()

    visit_Lambda = visit_ListComp = visit_GeneratorExp = _enter

    def visit_FunctionDef(self, node: cst.FunctionDef) -> Optional[bool]:
        outer = self.scope
        self._enter(node)
        if id(node) not in self.a.host_callback_defs():
            return None
        # a def handed to a host callback runs later on the host, with concrete arrays: its
        # own values are NumPy's, but a tracer of this trace it closes over cannot become one
        own = self.a.model.scope_of.get(node)
        for name in name_loads(node.body):
            bindings = self.a.model.lookup(name.value, own) if own is not None else []
            if bindings and all(b.scope is not own for b in bindings) and self.a.traced(name, outer):
                self.a.report("numpy", name, (
                    f"`{node.name.value}` runs on the host with concrete arrays after the trace, but "
                    f"reads `{name.value}`, a tracer of {self.a.where} that it closes over: the "
                    f"callback raises TracerArrayConversionError (JaxRuntimeError at the jitted "
                    f"call); pass `{name.value}` to the callback as an argument"))
                break
        return False

    def visit_Attribute(self, node: cst.Attribute) -> None:
        """``x.device`` / ``x.sharding`` of a traced value: a tracer has no such attribute or
        cannot give it (jaxfacts.PYTHON_VALUE_ATTRIBUTES)."""
        error = PYTHON_VALUE_ATTRIBUTES.get(node.attr.value)
        if error is not None and self.a.traced(node.value, self.scope):
            self.a.report("convert", node, f"`{_src(node)}` needs a concrete array but `{_src(node.value)}` "
                                           f"is traced in {self.a.where}: it raises {error}; read it "
                                           f"outside jit (or from a static argument)", node.attr.value)
        prop = self.a.own_property(node, self.scope)
        if prop is not None:  # ``self.n_actions``: its body runs here, first read in the trace
            self.a._follow_held(prop, self.a.traced_fields)

    def _iterates_param(self, node) -> bool:
        """A comprehension over a bare parameter, which may be a dict: its keys are str."""
        clause = node.for_in
        while clause is not None:
            if isinstance(clause.iter, cst.Name) and any(
                    b.kind == "param" for b in self.a.model.lookup(clause.iter.value, self.scopes[-2])):
                return True
            clause = clause.inner_for_in
        return False

    def visit_SetComp(self, node: cst.SetComp) -> None:
        self._enter(node)
        if self.a.traced(node.elt, self.scope) and not self._iterates_param(node):
            self._report_hash(node, f"the set comprehension `{_src(node)}` hashes its elements",
                              _hash_fix("set"), "set element")

    def visit_DictComp(self, node: cst.DictComp) -> None:
        self._enter(node)
        if self.a.traced(node.key, self.scope) and not self._iterates_param(node):
            self._report_hash(node, f"the dict comprehension `{_src(node)}` hashes its keys", _hash_fix("dict"))
    leave_FunctionDef = leave_Lambda = leave_ListComp = leave_SetComp = _leave
    leave_GeneratorExp = leave_DictComp = _leave

    def visit_ClassDef(self, node) -> bool:
        return False  # class bodies inside a jitted function: not followed

    def _test(self, expr: cst.BaseExpression, construct: str, fix: str) -> None:
        self._mark(expr)
        self.a.check_truth(expr, self.scope, construct, fix)

    def _mark(self, expr: cst.BaseExpression) -> None:
        if isinstance(expr, cst.BooleanOperation):
            self.bool_context.add(id(expr))
            self._mark(expr.left)
            self._mark(expr.right)
        elif isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Not):
            self.bool_context.add(id(expr))
            self._mark(expr.expression)

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> bool:
        """The statements in order, up to an ``if batch is None: return ...`` that every call
        takes (``batch=None``): what follows it never runs."""
        for statement in node.body:
            self.walk(statement)
            if isinstance(statement, cst.If) and self._always_returns(statement):
                break
        return False

    def _always_returns(self, node: cst.If) -> bool:
        test = node.test
        if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1
                and isinstance(test.comparisons[0].operator, cst.Is) and is_none(test.comparisons[0].comparator)
                and self.a.holds_none(test.left, self.scope)):
            return False
        body = node.body.body if isinstance(node.body, cst.IndentedBlock) else ()
        last = body[-1] if body else None
        return isinstance(last, cst.SimpleStatementLine) and any(isinstance(s, (cst.Return, cst.Raise)) for s in last.body)

    def visit_If(self, node: cst.If) -> Optional[bool]:
        flag = self.a.root_flag(node.test, self.scope)
        if flag is not None:  # ``if verbose:`` that no jitted call turns on: that branch never runs
            self.walk(node.test)
            if flag:
                self.walk(node.body)
            elif node.orelse is not None:
                self.walk(node.orelse)
            return False
        self._test(node.test, "Python `if`", IF_FIX)
        guard = self.a.tracer_guard(node.test, self.scope)
        if guard is not None:  # ``if isinstance(v, jax.core.Tracer):``: one branch sees no tracer
            self.walk(node.test)
            if guard == "traced":
                self.walk(node.body)
            elif node.orelse is not None:
                self.walk(node.orelse)
            return False
        if not (self._numpy_guard(node.test) or self._container_guard(node.test)):
            return None
        # ``if isinstance(x, np.ndarray):``: the branch runs only for NumPy values, never tracers;
        # ``if isinstance(x, dict):`` of a parameter every traced call fills with an array
        self.walk(node.test)
        if node.orelse is not None:
            self.walk(node.orelse)
        return False

    def visit_Try(self, node: cst.Try) -> Optional[bool]:
        """``try: if jnp.any(x > 0): ... except jax.errors.ConcretizationTypeError: ...``: the
        tracer error is caught at trace time (the check is skipped under jit), so nothing in
        the ``try`` body raises (jaxfacts.TRACE_ERROR_CATCHERS)."""
        if not any(self._catches_trace_errors(handler.type) for handler in node.handlers):
            return None
        for handler in node.handlers:
            self.walk(handler)
        for part in (node.orelse, node.finalbody):
            if part is not None:
                self.walk(part)
        return False

    def _catches_trace_errors(self, caught: Optional[cst.BaseExpression]) -> bool:
        if caught is None:
            return True  # a bare ``except:``
        members = [e.value for e in caught.elements] if isinstance(caught, cst.Tuple) else [caught]
        for member in members:
            builtin = self.a._builtin(member, self.scope)
            qualname = f"builtins.{builtin}" if builtin else self.a.model.qualified_name(member, self.scope)
            if qualname in TRACE_ERROR_CATCHERS:
                return True
        return False

    def visit_While(self, node: cst.While) -> None:
        self._test(node.test, "Python `while`", WHILE_FIX)

    def visit_Assert(self, node: cst.Assert) -> None:
        test = node.test
        if isinstance(test, cst.Call) and self.a._builtin(test.func, self.scope) == "isinstance" \
                and len(test.args) == 2 and self.a.traced(test.args[0].value, self.scope):
            types = test.args[1].value
            members = [e.value for e in types.elements] if isinstance(types, cst.Tuple) else [types]
            if members and all(isinstance(t, cst.Name) and t.value in PYTHON_SCALAR_TYPES
                               and not self.a.model.lookup(t.value, self.scope) for t in members):
                # ``assert isinstance(y, int)``: a tracer is never a Python number
                value = _src(test.args[0].value)
                self.a.report("bool", node, f"`assert {_src(test)}` in {self.a.where}: under jit `{value}` "
                                            f"is a tracer, never a Python {_src(types)}, so the assertion "
                                            f"fails while tracing (AssertionError); check the type before "
                                            f"jit, or test the dtype (jnp.issubdtype({value}.dtype, ...))")
                return
        self._test(test, "`assert`", ASSERT_FIX)

    def visit_IfExp(self, node: cst.IfExp) -> Optional[bool]:
        flag = self.a.root_flag(node.test, self.scope)
        if flag is not None:  # ``int(...) if self.use_dynamic_sel else 0`` with the flag never set
            self.walk(node.test)
            self.walk(node.body if flag else node.orelse)
            return False
        self._test(node.test, "a conditional expression", "use jnp.where or jax.lax.select")
        guard = self.a.tracer_guard(node.test, self.scope)
        if guard is not None:  # ``None if isinstance(v, jax.core.Tracer) else float(v)``
            self.walk(node.test)
            self.walk(node.body if guard == "traced" else node.orelse)
            return False
        if not (self._numpy_guard(node.test) or self._container_guard(node.test)):
            return None
        self.walk(node.test)
        self.walk(node.orelse)
        return False

    def _container_guard(self, test: cst.BaseExpression) -> bool:
        """``isinstance(p, dict)`` (or another Python container or scalar type) of a parameter in
        ``array_params``: False for the jax array the traced calls pass."""
        a, scope = self.a, self.scope
        if not (isinstance(test, cst.Call) and a._builtin(test.func, scope) == "isinstance" and len(test.args) == 2
                and isinstance(test.args[0].value, cst.Name) and test.args[0].value.value in a.arrays_passed()):
            return False
        bindings = a.flow.reaching(test.args[0].value, scope)  # the parameter's own value here
        if len(bindings) != 1 or bindings[0].kind != "param":
            return False
        types = test.args[1].value
        members = [e.value for e in types.elements] if isinstance(types, cst.Tuple) else [types]
        return all(isinstance(t, cst.Name) and t.value in PYTHON_CONTAINER_TYPES and not a.model.lookup(t.value, scope)
                   for t in members)

    def _numpy_guard(self, test: cst.BaseExpression) -> bool:
        """``isinstance(x, np.ndarray)`` (``x[0]``, a tuple of NumPy types, or one operand of
        ``and``): true only for NumPy values."""
        if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
            return self._numpy_guard(test.left) or self._numpy_guard(test.right)
        if not (isinstance(test, cst.Call) and self.a._builtin(test.func, self.scope) == "isinstance"
                and len(test.args) == 2):
            return False
        types = test.args[1].value
        members = [e.value for e in types.elements] if isinstance(types, cst.Tuple) else [types]
        return all((self.a.model.qualified_name(t, self.scope) or "").startswith("numpy.")
                   for t in members)

    def visit_CompIf(self, node: cst.CompIf) -> None:
        self._test(node.test, "a comprehension `if`", "use jnp.where or a mask")

    def _unfunctionalized(self, node: cst.Call, qualname: str, fact: UnfunctionalizedCall) -> None:
        """``checkify.check`` in code a jit, pmap or lax control flow stages, in a file that
        never wraps anything in ``checkify.checkify``."""
        a = self.a
        by = a.root.traced_by.split("(")[0]
        if by and by not in STAGING_TRACES and by not in JIT_FUNCTIONS:
            return  # vmap, grad, eval_shape, a library's own trace: not known to stage it
        if any(a.model.qualified_name(site.node.func, site.frame.scope) == fact.functionalized_by
               for site in a.model.calls_named(fact.functionalized_by.rsplit(".", 1)[1])):
            return  # which function that wraps is not followed: any may be this one
        a.report("unfunctionalized", node, f"`{_src(node.func)}` in {a.where} is staged out "
                                           f"without `{'.'.join(fact.functionalized_by.split('.')[-2:])}` around it: the first "
                                           f"call raises {fact.error} (not functionalized); {fact.fix}")

    def visit_BooleanOperation(self, node: cst.BooleanOperation) -> Optional[bool]:
        guard = self.a.tracer_guard(node.left, self.scope)
        if guard == ("untraced" if isinstance(node.operator, cst.And) else "traced"):
            # ``not _is_traced(x) and bool(x > 0)``: the right operand runs only on concrete values
            self.walk(node.left)
            return False
        if id(node) in self.bool_context:
            return None
        # Outside a test only the left operand's truth value is taken.
        if _container_fallback(node):
            return
        op = "and" if isinstance(node.operator, cst.And) else "or"
        self.a.check_truth(node.left, self.scope, f"`{op}`", BOOL_OP_FIX)
        return None

    def visit_UnaryOperation(self, node: cst.UnaryOperation) -> None:
        if isinstance(node.operator, cst.Not) and id(node) not in self.bool_context:
            self.a.check_truth(node.expression, self.scope, "`not`", BOOL_OP_FIX)

    def visit_Call(self, node: cst.Call) -> None:
        a, scope = self.a, self.scope
        name = a.where
        func = node.func
        self._traced_static_args(node)
        self._format_call(node)
        builtin = a._builtin(func, scope)
        if builtin in PYTHON_VALUE_BUILTINS and len(node.args) == 1 and not node.args[0].star \
                and a.traced(node.args[0].value, scope):
            error = PYTHON_VALUE_BUILTINS[builtin]
            param = a._is_bare_param(node.args[0].value, scope)
            if param is not None:
                a.report("convert", node, f"`{_src(node)}` needs a concrete value but `{param}` is a "
                                          f"traced (non-static) argument of {name}: it raises "
                                          f"{error}; {static_fix(param)}", builtin)
            else:
                sized = a.sized_by_conversion(node)
                fix = (f"`{sized[0]}` must stay a Python value (it sizes `{_src(sized[1])}`): compute it "
                       f"from static shapes with Python or NumPy (math.prod, math.ceil) or pass it as a static "
                       f"argument; if it depends on the data, keep a fixed maximum size and mask"
                       if sized is not None else "keep it an array (.astype) and convert the result outside jit")
                a.report("convert", node, f"`{_src(node)}` needs a concrete value but its argument is "
                                          f"traced in {name}: it raises {error}; {fix}", builtin)
        elif isinstance(func, cst.Attribute) and _is_update_ref(func.value):
            return  # x.at[i].min(v), .get(): an indexed update, none of the array's own methods
        elif isinstance(func, cst.Attribute) and func.attr.value in PYTHON_VALUE_METHODS \
                and a.traced(func.value, scope):
            a.report("convert", node, f"`{_src(node)}` needs a concrete value but `{_src(func.value)}` "
                                      f"is traced in {name}: it raises "
                                      f"{PYTHON_VALUE_METHODS[func.attr.value]}; "
                                      f"keep it an array and convert the result outside jit",
                      func.attr.value)
        elif self._hashes_traced(node, builtin):
            return
        elif self._dispatches_on_traced(node):
            return
        elif builtin == "print" and any(_printed_traced(a, arg.value, scope) for arg in node.args):
            a.report("print", node, f"`print` in {name} runs only while tracing: it prints a "
                                    f"tracer once, not the values of each call; use jax.debug.print")
        else:
            namespaced = a.namespace_function(func, scope)
            qualname = a.model.qualified_name(func, scope) or (namespaced[0] if namespaced else None) \
                or a.jax_namespace_function(func, scope)
            numpy_error = _numpy_conversion_error(a.ctx, qualname)
            if qualname in UNFUNCTIONALIZED_CALLS:
                self._unfunctionalized(node, qualname, UNFUNCTIONALIZED_CALLS[qualname])
            elif numpy_error is not None and any(a.traced(arg.value, scope) or a.elements_traced(arg.value, scope)
                                               for arg in node.args):  # ``np.array([a, b])`` of tracers too
                fix = next((hint for prefix, hint in NUMPY_MODULES_WITHOUT_JAX_TWIN.items() if qualname.startswith(prefix)),
                           f"use the jax.scipy function of that name if there is one (`jax.{qualname}`), else "
                           f"call it outside jit" if qualname.startswith("scipy.") else f"use `jax.{qualname}`")
                chosen_by = namespaced[1].call if namespaced is not None else None
                if chosen_by is not None:
                    # ``xp.sqrt`` where a call chose NumPy for ``xp`` (left it out, its default
                    # ``np``): the finding is at that call, the fix passes the jax namespace
                    namespace = func.value.value  # type: ignore[attr-defined]
                    chose = (f"leaves `{namespace}` out, so it is NumPy (the default)"
                             if namespaced[1].left_out else f"passes NumPy as `{namespace}`")
                    a.report("numpy", chosen_by, (
                        f"`{_src(chosen_by)}` {chose}, and `{_src(node)}` in {name} runs "
                        f"`{qualname}` on a traced value: it raises {numpy_error}; pass "
                        f"`{namespace}=jnp` (or the caller's `{namespace}`) here"),
                        evidence=((node, "the NumPy call on the traced value"),))
                else:
                    a.report("numpy", node, f"`{qualname}` on a traced value in {name} raises "
                                            f"{numpy_error}; {fix}")
            elif (converting := a.numpy_converting_method(func, scope)) is not None and any(
                    a.traced(arg.value, scope) or a.elements_traced(arg.value, scope) for arg in node.args):
                built, instead = converting
                a.report("numpy", node, f"`{built}.{func.attr.value}` hands its arguments to NumPy "
                                        f"(SciPy runs on host arrays), but they are traced in {name}: it "
                                        f"raises TracerArrayConversionError; {instead}")
            elif qualname in SEQUENCE_CONVERTING_FUNCTIONS and node.args and node.args[0].keyword is None \
                    and a.elements_traced(node.args[0].value, scope):
                a.report("numpy", node, f"`{_src(node)}` reads a Python sequence holding a traced value "
                                        f"with NumPy in {name}: it raises TracerArrayConversionError; "
                                        f"use len() of the sequence, or stack it first (jnp.stack)")
            elif qualname in PYTHON_CONVERTING_FUNCTIONS:  # ``math.sqrt(x)`` calls ``float(x)``
                error, instead = PYTHON_CONVERTING_FUNCTIONS[qualname]
                self._concrete_args(node, node.args, f"`{qualname}`", error,
                                    f"use `{instead}`" if instead else "keep it a Python number")
            elif builtin in PYTHON_TRUTH_BUILTINS and len(node.args) == 1 and not node.args[0].star \
                    and (a.traced(node.args[0].value, scope) or a.elements_traced(node.args[0].value, scope)):
                error, instead = PYTHON_TRUTH_BUILTINS[builtin]
                a.report("bool", node, f"`{_src(node)}` takes the truth value of each traced element "
                                       f"in {name}: it raises {error}; use `{instead}`")
            elif builtin in PYTHON_COMPARING_BUILTINS:
                self._compared(node, builtin)
            elif builtin in PYTHON_BOUND_BUILTINS:
                self._concrete_args(node, node.args, f"a Python `{builtin}` bound",
                                    PYTHON_BOUND_BUILTINS[builtin], "use jax.lax.fori_loop")
            elif qualname in DATA_SIZED_OUTPUTS:
                self._data_sized(node, DATA_SIZED_OUTPUTS[qualname])
                if qualname in CONCRETE_PARAMS:  # jnp.bincount's minlength too
                    self._concrete_params(node, CONCRETE_PARAMS[qualname], f"`{qualname}`")
            elif isinstance(func, cst.Attribute) and func.attr.value in DATA_SIZED_METHODS \
                    and a.traced(func.value, scope):
                self._data_sized(node, DataSizedOutput(DATA_SIZED_METHODS[func.attr.value], ()))
            elif qualname in CONCRETE_PARAMS:
                self._concrete_params(node, CONCRETE_PARAMS[qualname], f"`{qualname}`")
            elif f"{self._layer_called(func)}.__call__" in CONCRETE_PARAMS:
                # nn.Dropout(0.1)(x, deterministic=d), or self.dropout(x, ...) built in setup
                built = self._layer_called(func)
                self._concrete_params(node, CONCRETE_PARAMS[f"{built}.__call__"], f"a `{built}` call")
            elif isinstance(func, cst.Attribute) and func.attr.value in CONCRETE_METHOD_PARAMS \
                    and a.traced(func.value, scope):
                self._concrete_params(node, CONCRETE_METHOD_PARAMS[func.attr.value],
                                      f"`.{func.attr.value}`")
            elif qualname in TREE_MAPS:
                a.follow_tree_map(node, scope, TREE_MAPS[qualname])
            elif isinstance(func, cst.Subscript) and any(a.traced(arg.value, scope) for arg in node.args):
                a.follow_table_entries(node, scope)
            elif a.called_module(func, scope) is not None:
                a.follow_module_call(node, scope, a.called_module(func, scope))
            elif isinstance(func, (cst.Attribute, cst.Call, cst.Name)) \
                    and any(a.hands_traced(arg.value, scope) for arg in node.args) \
                    and (submodule := a.submodule_method(func, scope)) is not None:
                a.follow_submodule(node, scope, submodule)  # ``self.encoder(x)``, ``Encoder(...)(x)``
            elif self._nondiff_tracer(node):
                return  # reported at the call, where the fix goes
            elif isinstance(func, cst.Name) and any(a.hands_traced(arg.value, scope) for arg in node.args):
                a.follow(node, scope)
            elif a.reaches_nested_jit(node, scope) or a.runs_staged(node, scope):
                a.follow(node, scope, force=True)
            elif isinstance(func, cst.Attribute) and any(a.hands_traced(arg.value, scope) for arg in node.args) \
                    and a.instance_method(func, scope) is not None:
                # ``lookup.get(i)``: a method the class of this module defines itself (a flax
                # Module's inherited ``apply`` is not one: below)
                a.follow(node, scope)
            elif a.hands_held(node, scope) and (isinstance(func, cst.Name) or a.instance_method(func, scope) is not None):
                a.follow(node, scope)  # ``Sinkhorn()(prob)``, ``prob.solve()``: attributes hold tracers
            elif isinstance(func, cst.Call) and any(a.traced(arg.value, scope) for arg in node.args):
                a.follow_transformed(node, scope)
            elif isinstance(func, cst.Attribute) and func.attr.value in ("apply", "init") \
                    and (any(a.traced(arg.value, scope) for arg in node.args[1:])
                         or a.built_fields(func.value, scope)):
                a.follow_apply(node, scope)
            elif isinstance(func, cst.Attribute) and any(a.traced(arg.value, scope) for arg in node.args):
                # ``pipeline.transform(x)``: a def of this module stored in a field; ``ops.relu(x)``:
                # a function of another module (the two bindings differ: an instance, an import)
                a.follow_field_function(node, scope)
                a.follow(node, scope)

    def _nondiff_tracer(self, node: cst.Call) -> bool:
        """A call of a ``jax.custom_vjp`` function of this module with a traced value at one of
        its ``nondiff_argnums`` (jaxfacts.NONDIFF_SPEC_TRANSFORMS): it raises as it is traced."""
        a, scope = self.a, self.scope
        spec = nondiff_spec_of(a.ctx, node.func, scope)
        if spec is None:
            return False
        for position in sorted(spec.nums):
            if position >= len(spec.params):
                continue
            param = spec.params[position]
            value = argument_value(node, position, param)
            if value is None or not a.traced(value, scope):
                continue
            a.report("nondiff", node, f"`{_src(node)}` in {a.where} passes the traced `{_src(value)}` as "
                                      f"`{param}`, a nondiff argument of the jax.custom_vjp "
                                      f"`{_src(node.func)}`: it raises {spec.fact.error}; make "
                                      f"`{param}` a regular argument (bwd returns None for it) or "
                                      f"keep it a Python value")
            return True
        return False

    def _traced_static_args(self, node: cst.Call) -> None:
        """A jitted function called here with a traced value at one of its static positions:
        the inner jit hashes the tracer (JIT301's ``static`` use)."""
        a, scope = self.a, self.scope
        site = a.model.call_site_of.get(node)
        if site is None:
            return
        if a.called_jit_spec(node) is not None:  # under vmap or a lax loop too: a tracer either way
            spec, shift = jitted_callee(a.ctx, site)  # type: ignore[misc]
        elif node.args and node.args[0].keyword is None and not node.args[0].star \
                and a.model.qualified_name(node.func, scope) == "functools.partial" \
                and not a.root.traced_by:
            # ``functools.partial(window, n=k)``: the call of the partial hashes ``k``
            bound = jitted_reference(a.ctx, node.args[0].value, site)
            if bound is None or bound.filtering or bound.jit not in NESTED_TRACING_JITS:
                return
            spec, shift = bound, 0
            site = CallSite(cst.Call(node.args[0].value, list(node.args[1:])), site.frame,
                            statement=site.statement)
        else:
            return
        if not spec.checkable:
            return
        for use in map_arguments(site, spec, shift, model=a.model):
            if not a.traced(use.value, scope) or (spec.name, use.param) in a.static_reached:
                continue
            a.static_reached.add((spec.name, use.param))
            param = a._is_bare_param(use.value, scope)
            what = (f"`{param}`, a traced (non-static) argument of {a.where}," if param is not None
                    else f"`{_src(use.value)}`, traced in {a.where},")
            fix = (f"mark `{param}` static where it comes in too ({static_fix(param).split('(', 1)[1][:-1]})"
                   if param is not None and a.caller is None and not a.root.traced_by else
                   f"pass a Python value here, not one `{a.root.traced_by}` traces" if a.root.traced_by else
                   "pass a Python value here (one the outer jit keeps static)")
            a.report("static", use.arg, (
                f"{what} reaches {use.where()}: jitted `{spec.name}` hashes its static arguments, "
                f"and a tracer is unhashable, so the call raises ValueError (non-hashable static "
                f"argument) while {f'`{a.root.traced_by}`' if a.root.traced_by else 'the outer jit'} "
                f"traces; {fix}"))

    def _layer_called(self, func: cst.BaseExpression) -> Optional[str]:
        """The library layer an instance call calls: built right there, or stored on ``self``."""
        if isinstance(func, cst.Call):
            return self.a.model.qualified_name(func.func, self.scope)
        return self.a.layer_attribute(func, self.scope) if isinstance(func, cst.Attribute) else None

    # ------------------------------------------------------------------ hashing (JIT809)
    def _hashes_traced(self, node: cst.Call, builtin: Optional[str]) -> bool:
        """``hash(x)``, ``set(xs)``, ``Counter(xs)``, ``table.get(x)``, ``cached(x)`` (an
        ``lru_cache`` function) with a traced value: reported, True."""
        a, scope, func = self.a, self.scope, node.func
        args = [arg for arg in node.args if not arg.star]
        first = args[0].value if args and args[0].keyword is None else None
        if builtin in HASHING_BUILTINS and first is not None and self._hashed_traced(first, builtin != "hash"):
            self._report_hash(node, f"`{builtin}` hashes {HASHING_BUILTINS[builtin]}", _hash_fix(builtin))
        elif first is not None and builtin is None and _last_name(func) in _HASHING_LAST_NAMES \
                and self._library_name(func) in HASHING_FUNCTIONS \
                and self._hashed_traced(first, True):
            self._report_hash(node, f"`{_src(func)}` hashes each element", _hash_fix("set"))
        elif isinstance(func, cst.Attribute) and func.attr.value == "get" and first is not None \
                and _python_mapping(a.model, func.value, scope) and a.traced(first, scope):
            self._report_hash(node, "a dict lookup hashes the key", _hash_fix("dict"))
        elif isinstance(func, cst.Name) and args and self._cached(func, scope) is not None \
                and any(a.traced(arg.value, scope) for arg in args):
            self._report_hash(node, f"`{func.value}` is wrapped in `{self._cached(func, scope)}`, which "
                                    f"hashes its arguments to look the result up", _hash_fix("cache"))
        else:
            return False
        return True

    # ------------------------------------------------------------------ type dispatch (JIT817)
    def _dispatches_on_traced(self, node: cst.Call) -> bool:
        """``kind(x)`` of a ``functools.singledispatch`` def of the module registered for an
        array class (jaxfacts.ARRAY_DISPATCH_CLASSES) and not for tracers, whose fallback
        raises, with a traced ``x``: reported, True."""
        a, scope, func = self.a, self.scope, node.func
        if not isinstance(func, cst.Name) or not node.args or node.args[0].star or node.args[0].keyword is not None:
            return False
        binding = a.model.single_binding(func.value, scope)
        registered = dispatch_registrations(a.ctx).get(binding.node) if binding is not None else None
        if registered is None:  # not a module-level singledispatch def
            return False
        dispatcher = binding.node
        arrays = sorted(registered.keys() & ARRAY_DISPATCH_CLASSES)
        raised = _raised_by(dispatcher)
        if not arrays or registered.keys() & TRACER_TYPES or raised is None \
                or not a.traced(node.args[0].value, scope):
            return False
        a.report("dispatch", node, (
            f"`{func.value}` is a functools.singledispatch function registered for `{arrays[0]}`, "
            f"but in {a.where} `{_src(node.args[0].value)}` is a tracer, whose class does not derive "
            f"from it: dispatch falls back to the default `{func.value}`, which raises {raised}; "
            f"register the implementation for `jax.core.Tracer` too "
            f"(`{func.value}.register(jax.core.Tracer, impl)`), or test isinstance(x, jax.Array) "
            f"in one function (tracers pass it)"), anchor=registered[arrays[0]])
        return True

    def _library_name(self, func: cst.BaseExpression) -> Optional[str]:
        """The qualified name of ``func``; ``dict.fromkeys`` for a method of an unshadowed builtin."""
        qualname = self.a.model.qualified_name(func, self.scope)
        if qualname is None and isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) \
                and self.a._builtin(func.value, self.scope) is not None:
            return f"{func.value.value}.{func.attr.value}"
        return qualname

    def _hashed_traced(self, expr: cst.BaseExpression, elements: bool) -> bool:
        """``expr`` is traced; for ``set(xs)`` (``elements``) also iterated into tracers: a list
        or tuple display holding one, or a computed traced array (not a bare parameter, which may
        be a dict of arrays whose keys are str)."""
        a, scope = self.a, self.scope
        if not elements:
            return a.traced(expr, scope)
        if isinstance(expr, (cst.List, cst.Tuple)):
            return any(not isinstance(e, cst.StarredElement) and a.traced(e.value, scope) for e in expr.elements)
        if isinstance(expr, cst.Name) and any(b.kind == "param" for b in a.model.lookup(expr.value, scope)):
            return False
        return a.traced(expr, scope)

    def _cached(self, func: cst.Name, scope: Scope) -> Optional[str]:
        """The caching decorator (``functools.lru_cache``) of the def ``func`` names, if any."""
        binding = self.a.model.single_binding(func.value, scope)
        if binding is None or binding.kind != "def" or not isinstance(binding.node, cst.FunctionDef):
            return None
        for decorator in binding.node.decorators:
            expr = decorator.decorator
            qualname = self.a.model.qualified_name(expr.func if isinstance(expr, cst.Call) else expr, binding.scope)
            if qualname in HASHING_DECORATORS:
                return qualname
        return None

    def _report_hash(self, node: cst.CSTNode, what: str, fix: str, syntax: str = "dict key") -> None:
        self.a.report("hash", node, f"{what} in {self.a.where}, but a traced value is unhashable: it "
                                    f"raises {HASHING_SYNTAX[syntax]}; {fix}")

    def visit_Set(self, node: cst.Set) -> None:
        if any(not isinstance(e, cst.StarredElement) and self.a.traced(e.value, self.scope) for e in node.elements):
            self._report_hash(node, f"the set `{_src(node)}` hashes its elements", _hash_fix("set"), "set element")

    def visit_Dict(self, node: cst.Dict) -> None:
        if any(isinstance(e, cst.DictElement) and self.a.traced(e.key, self.scope) for e in node.elements):
            self._report_hash(node, f"the dict `{_src(node)}` hashes its keys", _hash_fix("dict"))

    def visit_FormattedStringExpression(self, node: cst.FormattedStringExpression) -> None:
        """``f"{loss:.3f}"`` of a traced ``loss``: a tracer's ``__format__`` takes no spec."""
        if node.format_spec is not None:
            spec = "".join(_src(part, 20) for part in node.format_spec)
            self._formatted(node, node.expression, f"the format spec `:{spec}`", "format spec")

    def _formatted(self, node: cst.CSTNode, value: cst.BaseExpression, what: str, operation: str) -> None:
        if self.a.traced(value, self.scope):
            self._report_concrete(node, value, what, PYTHON_VALUE_SYNTAX[operation], FORMAT_FIX)

    def _format_call(self, node: cst.Call) -> None:
        """``"{:.2f}".format(x)`` (the fields with a spec, matched to their arguments) and
        ``format(x, ".2f")`` of a traced ``x``."""
        func = node.func
        if self.a._builtin(func, self.scope) == "format" and len(node.args) == 2 \
                and not any(arg.star or arg.keyword for arg in node.args):
            self._formatted(node, node.args[0].value, f"`{_src(node)}`", "format spec")
        elif isinstance(func, cst.Attribute) and func.attr.value == "format" \
                and isinstance(func.value, cst.SimpleString):
            for arg, spec in _format_spec_arguments(func.value.evaluated_value, node.args):
                self._formatted(node, arg.value, f"the format spec `:{spec}`", "format spec")

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        """``x * 2654435761`` / ``x % 2**32`` with ``x`` traced: the int does not fit int32;
        ``[x] * n`` with ``n`` traced: a Python list repeated by a tracer; ``"%.2f" % x``."""
        if isinstance(node.operator, cst.Modulo) and isinstance(node.left, cst.SimpleString):
            for value, conversion in _numeric_percent_operands(node.left.evaluated_value, node.right):
                self._formatted(node, value, f"the numeric conversion `{conversion}`", "numeric %-format")
            return
        if not isinstance(node.operator, cst.MatrixMultiply):
            self._overflow(node.left, node.right, node)
        if isinstance(node.operator, cst.Multiply):
            for sequence, count in ((node.left, node.right), (node.right, node.left)):
                if _is_python_sequence(self.a.model, sequence, self.scope) and self.a.traced(count, self.scope):
                    self._report_concrete(node, count, "the count a Python list or tuple is repeated by",
                                          PYTHON_VALUE_SYNTAX["sequence repeat"],
                                          "repeat with jnp.tile / jnp.repeat and a static count")
                    return

    def _overflow(self, left: cst.BaseExpression, right: cst.BaseExpression, node: cst.CSTNode) -> None:
        for constant, other in ((left, right), (right, left)):
            value = overflowing_int(self.a.model, constant, self.scope)
            if value is not None and self.a.traced(other, self.scope):
                self.a.report("overflow", constant, overflow_message(
                    constant, value, f"in `{_src(node)}` with traced `{_src(other)}` in {self.a.where}"))
                return

    def visit_Comparison(self, node: cst.Comparison) -> None:
        left, scope = node.left, self.scope
        for comparison in node.comparisons:  # ``x < 2**40``
            self._overflow(left, comparison.comparator, node)
            left = comparison.comparator
        left = node.left
        if len(node.comparisons) > 1 and id(node) not in self.bool_context \
                and self.a.traced(cst.Comparison(node.left, [node.comparisons[0]]), scope):
            # ``0. < x < 1.`` is ``(0. < x) and (x < 1.)``: the ``and`` takes a truth value
            parts = [node.left, *(c.comparator for c in node.comparisons)]
            fix = " & ".join(f"({_src(a)} {_src(c.operator).strip()} {_src(b)})"
                             for a, b, c in zip(parts, parts[1:], node.comparisons))
            self.a.report("bool", node, f"the chained comparison `{_src(node)}` in {self.a.where} is "
                                        f"an `and` of its parts, which takes a traced truth value: it "
                                        f"raises {TRUTH_ERROR}; use {fix}")
            return
        for comparison in node.comparisons:
            if isinstance(comparison.operator, (cst.In, cst.NotIn)) and self.a.traced(left, scope) \
                    and (_python_mapping(self.a.model, comparison.comparator, scope)
                         or _python_set(self.a.model, comparison.comparator, scope)):
                self._report_hash(node, f"`{_src(node)}` hashes `{_src(left)}` to look it up",
                                  _hash_fix("set"), "set or dict membership")
                return
            if isinstance(comparison.operator, (cst.In, cst.NotIn)) and self.a.traced(left, scope) \
                    and _is_python_sequence(self.a.model, comparison.comparator, scope):
                self.a.report("bool", node, f"`{_src(node)}` compares `{_src(left)}` with each element "
                                            f"using `==` and takes the truth value, in {self.a.where}: "
                                            f"it raises {TRUTH_ERROR}; use "
                                            f"jnp.isin({_src(left)}, jnp.asarray({_src(comparison.comparator)}))")
                return
            if isinstance(comparison.operator, (cst.In, cst.NotIn)) \
                    and self.a.traced(comparison.comparator, scope) \
                    and self.a.known_array(comparison.comparator, scope):
                # ``o in self.omegas`` with a traced array: Python iterates it and takes the truth
                # value of each ``==``, whatever ``o`` is
                self.a.report("bool", node, f"`{_src(node)}` compares `{_src(left)}` with each element of "
                                            f"the traced array `{_src(comparison.comparator)}` and takes "
                                            f"the truth value, in {self.a.where}: it raises {TRUTH_ERROR}; "
                                            f"use jnp.isin({_src(left)}, {_src(comparison.comparator)}) as "
                                            f"an array (jnp.where / lax.cond), or check it before jit")
                return
            left = comparison.comparator

    def _compared(self, node: cst.Call, builtin: str) -> None:
        """``max(loss, 0.0)``: Python compares the values, which takes a tracer's truth value."""
        a, scope = self.a, self.scope
        args = [arg for arg in node.args if arg.keyword is None]
        if any(arg.star for arg in args):
            return
        if len(args) == 1 and isinstance(args[0].value, (cst.List, cst.Tuple)):
            values = [e.value for e in args[0].value.elements]
            if any(isinstance(e, cst.StarredElement) for e in args[0].value.elements):
                return
        else:
            values = [arg.value for arg in args]
        if len(values) == 1 and a.traced(values[0], scope) and a.known_array(values[0], scope):
            # ``max(i)`` of a traced array: Python iterates it and compares the elements
            fix = (f"use jnp.{'max' if builtin == 'max' else 'min' if builtin == 'min' else 'sort'}({_src(values[0])}) "
                   f"for an array, or NumPy on a concrete value where a Python number is needed (a shape)")
            a.report("bool", node, f"`{_src(node)}` iterates the traced array `{_src(values[0])}` and "
                                   f"compares its elements with Python's `<` in {a.where}: it raises "
                                   f"{PYTHON_COMPARING_BUILTINS[builtin]}; {fix}")
            return
        if len(values) < 2 or not any(a.traced(value, scope) for value in values):
            return
        fix = f"use jnp.{'maximum' if builtin == 'max' else 'minimum' if builtin == 'min' else 'sort'}"
        a.report("bool", node, f"`{_src(node)}` compares traced values with Python's `<` in "
                               f"{a.where}: it raises {PYTHON_COMPARING_BUILTINS[builtin]}; {fix}")

    def _concrete_params(self, node: cst.Call, facts, where: str) -> None:
        """Report the first argument of ``node`` that ``facts`` say must be concrete and is traced."""
        for index, arg in enumerate(node.args):
            if arg.star:
                break
            fact = concrete_param(facts, index if arg.keyword is None else None,
                                  arg.keyword.value if arg.keyword is not None else None)
            if fact is not None and fact.count_or_edges and self.a.has_axis(arg.value, self.scope):
                continue  # an array of bin edges: data, traced or not
            fix = fact.fix if fact and fact.fix else \
                "pass a Python bool: a static argument, or branch outside the traced code" if fact and fact.flag \
                else "derive it from a static shape (x.shape[0]) with Python or numpy, not jax.numpy"
            if fact is not None and self._concrete_args(
                    node, [arg], f"the `{fact.keyword}` argument of {where}", fact.error, fix):
                return

    def _concrete_args(self, node: cst.Call, args, what: str, error: str, fix: str) -> bool:
        """Report the first argument (or tuple element) that is traced where JAX needs a
        concrete Python value."""
        a, scope = self.a, self.scope
        for arg in args:
            for value in a.shape_parts(arg.value, scope):
                # ``jnp.full(shape, v)`` of ``def alloc(v, *shape)``: a tuple of tracers
                if a.traced(value, scope) or (isinstance(value, cst.Name) and a.elements_traced(value, scope)):
                    self._report_concrete(node, value, what, error, fix)
                    return True
        return False

    def _report_concrete(self, node: cst.CSTNode, value: cst.BaseExpression, what: str,
                         error: str, fix: str) -> None:
        a = self.a
        param = a._is_bare_param(value, self.scope)
        read = a.leaf_read(value, self.scope)
        declared = a.int_leaf_declaration(read, self.scope) if read is not None else None
        if declared is not None:
            self._report_int_leaf(node, value, what, error, *declared)
            return
        leaf = a.leaf_field_class(read, self.scope) if read is not None else None
        star = isinstance(value, cst.Name) and any(a._traced_star_param(b) for b in a.flow.reaching(value, self.scope))
        if star:  # ``def alloc(v, *shape)``: each value the call passes is traced
            fix = (f"`*{value.value}` collects traced arguments: take the shape as one argument and "
                   f"mark it static (a tuple), or mark those positions static with static_argnums")
        position = a.outer_jit_position(value, self.scope) if param is None else None
        if leaf is None:
            advice = static_fix(param) + f", else {fix}" if param is not None else \
                f"if it is a Python value, mark it static on the jit (static_argnums={position}), else {fix}" \
                if position is not None else fix
            a.report("convert", node, f"{what} needs a concrete value but `{_src(value)}` is traced "
                                      f"in {a.where}: it raises {error}; {advice}")
            return
        cls, passed = leaf
        advice = f"`{read.attr.value}` is a pytree leaf of `{cls.name.value}`, traced like its arrays: {a.leaf_fix(cls)}"
        if not passed:
            a.report("convert", node, f"{what} needs a concrete value but `{_src(value)}` is traced "
                                      f"in {a.where}: it raises {error}; {advice}")
            return
        # Shown where a `cls` instance is passed: another class (a static field) may work
        # with the same body (chex#104: the flax.struct twin with the field static does).
        for arg in passed:
            a.report("convert", arg, f"passing a `{cls.name.value}` to {a.where}: there {what} is "
                                     f"`{_src(value)}`, which needs a concrete value but is traced: "
                                     f"it raises {error}; {advice}", ((node, "the use"),))

    def _report_int_leaf(self, node: cst.CSTNode, value: cst.BaseExpression, what: str, error: str,
                         cls: cst.ClassDef, field: cst.AnnAssign) -> None:
        """A field the class declares as Python ints (``resolutions: Sequence[Tuple[int, int]]``)
        that its kind of pytree makes a leaf, so jit traces it: shown at the declaration, where
        the fix goes (tapnet c1b0059)."""
        a = self.a
        name = f"{cls.name.value}.{field.target.value}"  # type: ignore[attr-defined]
        a.report("convert", field, (
            f"`{name}` is declared as Python ints (`{_src(field.annotation.annotation)}`), but every field of "
            f"`{cls.name.value}` is a pytree leaf, so under {a.where} it arrives traced, and {what} "
            f"(`{_src(value)}`) needs a concrete value: it raises {error}; {a.leaf_fix(cls)}"), ((node, "the use"),))

    def _data_sized(self, node: cst.Call, fact: DataSizedOutput) -> None:
        """``jnp.nonzero(x)``: an output sized by traced data, without the size keyword."""
        a, scope = self.a, self.scope
        args = [arg for arg in node.args if not arg.star]
        if len(args) < len(node.args) or any(arg.keyword is not None and arg.keyword.value == fact.size_keyword
                                              and not a.holds_none(arg.value, scope) for arg in args):
            return  # sized, or *args/**kwargs we cannot see into
        positional = [arg for arg in args if arg.keyword is None]
        if (fact.max_positional is not None and len(positional) > fact.max_positional) \
                or (fact.size_position is not None and len(positional) > fact.size_position):
            return
        if fact.data_params:
            data = [arg for arg in args
                    if any((arg.keyword is None and args.index(arg) == position)
                           or (arg.keyword is not None and arg.keyword.value == keyword)
                           for position, keyword in fact.data_params)]
        else:  # a method: the array it is called on is the data
            data = [cst.Arg(node.func.value)]
        traced = any(a.traced(arg.value, scope) for arg in data)
        # a jax.numpy function is staged out on a constant too (measured: jnp.unique(np.array(...))
        # under jit raises); an array method of a constant is NumPy's own
        if not (traced or (a.staged and fact.on_constants and fact.data_params
                           and any(not isinstance(arg.value, (cst.Integer, cst.Float)) for arg in data))):
            return
        padding = "; with fill_value= for the padding" if fact.size_keyword == "size" else ""
        fix = fact.fix or f"pass {fact.size_keyword}= (an upper bound{padding}) for a fixed-size result"
        if fact.max_positional is not None:
            fix = "use the three-argument form jnp.where(cond, x, y), or " + fix
        why = "the values of a traced array" if traced else \
            "the values of its input, which the trace stages out even when it is a constant"
        a.report("shape", node, f"`{_src(node)}` in {a.where}: its output's shape depends on "
                                f"{why}, so tracing raises ConcretizationTypeError; {fix}")

    def visit_Assign(self, node: cst.Assign) -> None:
        """``dt[i] = thi - tlo`` into ``dt = np.zeros(n)``: NumPy converts the stored tracer and
        raises (diffstar PR 1)."""
        a, scope = self.a, self.scope
        for target in node.targets:
            store = target.target
            if isinstance(store, cst.Subscript) and _is_numpy_array(a.model, store.value, scope) \
                    and a.traced(node.value, scope):
                table = _src(store.value)
                if (table, id(scope)) in self.numpy_stores:
                    return  # the first store raises: one finding per array
                self.numpy_stores.add((table, id(scope)))
                a.report("numpy", store, f"`{_src(store)} = ...` stores a traced value in a NumPy array in "
                                         f"{a.where}: numpy converts the tracer and raises (ValueError: setting "
                                         f"an array element with a sequence); build it as a jax array "
                                         f"({table} = {table}.at[...].set(...) on jnp.zeros, or a vectorised jnp expression)")
                return

    def visit_Subscript(self, node: cst.Subscript) -> None:
        a, scope = self.a, self.scope
        if len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index) \
                and _python_mapping(a.model, node.value, scope) and (
                    a.traced(node.slice[0].slice.value, scope) or a.elements_traced(node.slice[0].slice.value, scope)):
            self._report_hash(node, f"`{_src(node)}` looks a traced key up in a dict, which hashes it",
                              _hash_fix("dict"), "dict lookup")
            return
        for element in node.slice:
            index = element.slice
            if isinstance(index, cst.Index) and (_is_numpy_array(a.model, node.value, scope)
                                                 or _numpy_passed_to_init(a.ctx, node.value, scope)
                                                 or _numpy_passed_to_factory(a.ctx, node.value, scope)) \
                    and a.traced(index.value, scope):
                table = _src(node.value)
                a.report("numpy", node, f"`{_src(node)}` indexes a NumPy array with a traced value "
                                        f"in {a.where}: numpy converts the tracer and raises "
                                        f"TracerArrayConversionError; index a jax array instead "
                                        f"(jnp.asarray({table}), made once outside jit)")
                return
            if isinstance(index, cst.Index) and a.boolean_traced(index.value, scope):
                at = isinstance(node.value, cst.Attribute) and node.value.attr.value == "at"
                fix = ("use jnp.where(mask, new_values, x) instead of .at[mask]" if at else
                       "keep the shape fixed: jnp.where(mask, x, fill), or a masked reduction "
                       "(jnp.sum(x, where=mask))")
                a.report("shape", node, f"boolean-mask index `{_src(node)}` in {a.where}: the "
                                        f"result's shape depends on the values of a traced mask, so "
                                        f"tracing raises NonConcreteBooleanIndexError; {fix}")
                return
            if isinstance(index, cst.Slice):
                for bound in (index.lower, index.upper, index.step):
                    if bound is not None and a.traced(bound, scope):
                        self._report_concrete(node, bound, "a slice bound", PYTHON_VALUE_SYNTAX["slice bound"],
                                              "use jax.lax.dynamic_slice with a static size")
                        return
            elif isinstance(index, cst.Index) and _is_python_sequence(a.model, node.value, scope) \
                    and a.traced(index.value, scope):
                self._report_concrete(node, index.value, "an index into a Python list or tuple",
                                      PYTHON_VALUE_SYNTAX["sequence index"],
                                      "make it an array (jnp.asarray) and index that")
                return


def _boolean_array(model: SemanticModel, expr: Optional[cst.BaseExpression], scope: Scope,
                   depth: int = 0) -> bool:
    """An eager expression that certainly makes a boolean array: a comparison, ``~``/``&``/``|``
    of such, a jax.numpy (or numpy) predicate, ``.astype(bool)``, an array of True/False
    literals, or a name bound once to one."""
    if expr is None or depth > 3:
        return False
    if isinstance(expr, cst.Comparison):
        return not any(isinstance(c.operator, (cst.Is, cst.IsNot, cst.In, cst.NotIn)) for c in expr.comparisons)
    if isinstance(expr, cst.UnaryOperation):
        return isinstance(expr.operator, cst.BitInvert) and _boolean_array(model, expr.expression, scope, depth + 1)
    if isinstance(expr, cst.BinaryOperation):
        return isinstance(expr.operator, (cst.BitAnd, cst.BitOr, cst.BitXor)) and (
            _boolean_array(model, expr.left, scope, depth + 1) and _boolean_array(model, expr.right, scope, depth + 1))
    if isinstance(expr, cst.Call):
        func = expr.func
        if isinstance(func, cst.Attribute) and func.attr.value == "astype" and len(expr.args) == 1:
            dtype = expr.args[0].value
            return (isinstance(dtype, cst.Name) and dtype.value == "bool") \
                or model.qualified_name(dtype, scope) in BOOL_DTYPES
        qualname = model.qualified_name(func, scope) or ""
        if qualname in BOOLEAN_RESULT_FUNCTIONS or "jax." + qualname in BOOLEAN_RESULT_FUNCTIONS:
            return True
        if qualname in ("jax.numpy.array", "jax.numpy.asarray", "numpy.array", "numpy.asarray") \
                and len(expr.args) == 1 and isinstance(expr.args[0].value, cst.List):
            elements = expr.args[0].value.elements
            return bool(elements) and all(isinstance(e.value, cst.Name) and e.value.value in ("True", "False")
                                          for e in elements)
        return False
    if isinstance(expr, cst.Name):
        binding = model.single_binding(expr.value, scope)
        return binding is not None and binding.kind == "assign" and binding.value is not None \
            and _boolean_array(model, binding.value, binding.scope, depth + 1)
    return False


def _within(order: int, ranges: list[tuple[int, int]]) -> bool:
    return any(start < order <= end for start, end in ranges)


def _straight_line(block: cst.BaseSuite) -> Iterator[cst.BaseStatement]:
    """The statements of ``block`` that run one after the other, also those of a ``with``."""
    for statement in block.body if isinstance(block, cst.IndentedBlock) else ():
        if isinstance(statement, cst.With):
            yield from _straight_line(statement.body)
        else:
            yield statement


# Expressions whose parts run only sometimes (or later): a raise inside one is not certain.
CONDITIONAL_EVALUATION = (cst.Lambda, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp, cst.IfExp,
                          cst.BooleanOperation)


def _none_kind(expr: cst.BaseExpression) -> str:
    """"none", "value" (an expression that is never None), or "?"."""
    if is_none(expr):
        return "none"
    if isinstance(expr, NOT_NONE_LITERALS + (cst.BinaryOperation, cst.UnaryOperation, cst.Comparison)) or (
            isinstance(expr, cst.Attribute) and expr.attr.value in ("size", "shape", "ndim", "dtype")):
        return "value"
    return "?"


def _none_verdict(values: Optional[list[cst.BaseExpression]],
                  never_none: Callable[[cst.BaseExpression], bool] = lambda value: False) -> Optional[bool]:
    """True when every value is None, False when none is (all never None), else None.
    ``never_none``: what else is known never to be None."""
    kinds = {"value" if never_none(v) else _none_kind(v) for v in values} if values else {"?"}
    return None if len(kinds) != 1 or "?" in kinds else kinds == {"none"}


# Displays and literals that are never None, whatever they hold.
NOT_NONE_LITERALS = (cst.Tuple, cst.List, cst.Dict, cst.Set, cst.Integer, cst.Float, cst.SimpleString,
                     cst.ConcatenatedString, cst.FormattedString, cst.Lambda)


def _literal_key(sub: cst.Subscript) -> Optional[str]:
    """``d["type"]`` -> "type"; None for any other index."""
    index = sub.slice[0].slice if len(sub.slice) == 1 else None
    value = index.value if isinstance(index, cst.Index) else None
    return value.evaluated_value if isinstance(value, cst.SimpleString) else None  # type: ignore[return-value]


def _is_update_ref(expr: cst.BaseExpression) -> bool:
    """``x.at[i]``: its methods (``set``, ``min``, ``get`` ...) are indexed updates."""
    return isinstance(expr, cst.Subscript) and isinstance(expr.value, cst.Attribute) \
        and expr.value.attr.value == "at"


def _elements(expr: cst.BaseExpression) -> list[cst.BaseExpression]:
    """A shape argument's parts: the elements of a tuple or list display (nested, as pad
    widths are: ``((0, n),)``), else itself."""
    if isinstance(expr, (cst.Tuple, cst.List)):
        return [part for e in expr.elements for part in _elements(e.value)]
    return [expr]


_HASHING_LAST_NAMES = frozenset(name.rpartition(".")[2] for name in HASHING_FUNCTIONS)


def _last_name(func: cst.BaseExpression) -> Optional[str]:
    return func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else None


def _hash_fix(kind: str) -> str:
    return {
        "hash": "hash a static value (mark the parameter static), or compute it outside jit",
        "set": "keep it an array: jnp.unique(x, size=n) for the distinct values, jnp.isin for membership",
        "dict": ("make the table an array indexed by position (jnp.asarray of its values) or compare "
                 "with jnp.where / jax.lax.switch"),
        "cache": "call it outside jit or only with static values, or drop the cache (jit caches the trace)",
    }.get(kind, "compute it outside jit, or on a static value")


def _python_mapping(model: SemanticModel, expr: cst.BaseExpression, scope: Scope) -> bool:
    """A dict display or comprehension, ``dict(...)``, or a name every binding of which is one."""
    return _display_of(model, expr, scope, (cst.Dict, cst.DictComp), "dict")


def _python_set(model: SemanticModel, expr: cst.BaseExpression, scope: Scope) -> bool:
    """A set display or comprehension, ``set(...)`` / ``frozenset(...)``, or a name bound to one."""
    return _display_of(model, expr, scope, (cst.Set, cst.SetComp), "set") \
        or _display_of(model, expr, scope, (), "frozenset")


def _display_of(model: SemanticModel, expr: cst.BaseExpression, scope: Scope, displays: tuple,
                builtin: str, depth: int = 0) -> bool:
    if isinstance(expr, displays):
        return True
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value == builtin:
        return not model.lookup(builtin, scope)
    if isinstance(expr, cst.Name) and depth < 2:
        bindings = model.lookup(expr.value, scope)
        return bool(bindings) and all(b.kind == "assign" and b.value is not None
                                      and _display_of(model, b.value, b.scope, displays, builtin, depth + 1)
                                      for b in bindings)
    if isinstance(expr, cst.Attribute) and depth < 2:  # ``self.ignore`` that ``__init__`` sets to ``{0, 1}``
        made = self_attribute_value(model, expr, scope) or class_attribute_value(model, expr, scope)
        return made is not None and _display_of(model, made[0], made[1], displays, builtin, depth + 1)
    return False


def _is_python_sequence(model: SemanticModel, expr: cst.BaseExpression, scope: Scope, depth: int = 0) -> bool:
    """A list or tuple display, a name every binding of which is one (or a parameter whose
    default is one: ``widths=(8, 4)``), or ``self.widths`` that ``__init__`` sets to one."""
    sequences = (cst.List, cst.Tuple, cst.ListComp)
    if isinstance(expr, sequences):
        return True
    if isinstance(expr, cst.Attribute) and expr.attr.value == "shape":
        return True  # ``x.shape[i]``: a tuple of Python ints, under jit too
    if isinstance(expr, cst.Name):
        bindings = model.lookup(expr.value, scope)
        return bool(bindings) and all(
            isinstance(b.value if b.kind == "assign" else
                       b.node.default if b.kind == "param" and isinstance(b.node, cst.Param) else None, sequences)
            for b in bindings)
    if isinstance(expr, cst.Attribute) and depth == 0:
        made = self_attribute_value(model, expr, scope, any_value=True)
        return made is not None and _is_python_sequence(model, *made, depth=1)
    return False


def _init_param_values(ctx: FileContext, expr: cst.BaseExpression, scope: Scope
                       ) -> Optional[list[tuple[cst.BaseExpression, Scope]]]:
    """``self.flag`` that ``__init__`` sets from its parameter: what every construction of the
    class in this module passes there (the default where one leaves it out); None when
    unknown, or when no construction is in view."""
    model = ctx.model
    if not isinstance(expr, cst.Attribute):
        return None
    made = self_attribute_value(model, expr, scope, any_value=True)
    if made is None or not isinstance(made[0], cst.Name):
        return None
    bindings = model.lookup(made[0].value, made[1])
    init = bindings[0].scope.node if len(bindings) == 1 and bindings[0].kind == "param" else None
    if not isinstance(init, cst.FunctionDef) or init.name.value != "__init__":
        return None
    values = calling_context(ctx).passed_to(bindings[0])
    return [(value, site.frame.scope) for value, site in values] if values else None


def _instance_flag(ctx: FileContext, expr: cst.BaseExpression, scope: Scope) -> Optional[bool]:
    """The truth value of ``self.flag`` when every construction gives it one literal's
    (``isNoCut=True`` at the only ``LennardJonesForce(...)``), or ``__init__`` sets it to a
    literal and nothing else writes it (``self.use_dynamic_sel = False``)."""
    if isinstance(expr, cst.Attribute):
        made = self_attribute_value(ctx.model, expr, scope, any_value=True)
        if made is not None and literal_truth(made[0]) is not None:
            return literal_truth(made[0])
    values = _init_param_values(ctx, expr, scope)
    return _one_truth([value for value, _ in values]) if values is not None else None


def _numpy_passed_to_init(ctx: FileContext, expr: cst.BaseExpression, scope: Scope) -> bool:
    """``self.map_prm`` that ``__init__`` sets from its parameter, which every construction of
    the class in this module passes a NumPy array (``LennardJonesForce(..., map_lj, ...)`` with
    ``map_lj = np.array([0, 0])``)."""
    values = _init_param_values(ctx, expr, scope)
    return values is not None and all(_is_numpy_array(ctx.model, value, value_scope) for value, value_scope in values)


def _numpy_passed_to_factory(ctx: FileContext, expr: cst.BaseExpression, scope: Scope) -> bool:
    """A parameter of a def around the traced function (a factory: ``def build(x_np, B):
    @jit def step(key): ... x_np[idx]``) that every call of the factory in this module passes
    a NumPy array, or an element of a tuple of them (``for elem in data`` with ``data =
    (np.array(X),)``)."""
    if not isinstance(expr, cst.Name):
        return False
    binding = ctx.model.single_binding(expr.value, scope)
    elements = False
    if binding is not None and binding.kind == "loop-target" and isinstance(binding.node, cst.CompFor) \
            and isinstance(binding.node.target, cst.Name) and binding.node.target.value == expr.value \
            and isinstance(binding.node.iter, cst.Name):
        binding, elements = ctx.model.single_binding(binding.node.iter.value, binding.scope), True
    if binding is None or binding.kind != "param" or binding.scope is scope or not _encloses(binding.scope, scope):
        return False
    passed = calling_context(ctx).passed_to(binding)
    if not passed:
        return False
    for value, site in passed:
        scope_of_value = site.frame.scope
        if elements:  # ``data = (np.array(X),)`` then ``build(data, ...)``
            made = ctx.model.value_origin(value, site.frame.scope, site.frame)
            value, scope_of_value = (made[0], made[1]) if made is not None else (value, scope_of_value)
        values = [e.value for e in value.elements] if elements and isinstance(value, (cst.Tuple, cst.List)) \
            else [] if elements else [value]
        if not values or not all(_is_numpy_array(ctx.model, v, scope_of_value) for v in values):  # type: ignore[arg-type]
            return False
    return True


def _encloses(outer: Scope, inner: Scope) -> bool:
    current: Optional[Scope] = inner.parent
    while current is not None:
        if current is outer:
            return True
        current = current.parent
    return False


def _is_numpy_array(model: SemanticModel, expr: cst.BaseExpression, scope: Scope, depth: int = 0) -> bool:
    """A numpy constructor call (``np.zeros(3)``), a call of a plain function of this module
    every ``return`` of which is one (``get_table()``), a name every binding of which is one
    (or ``None``: a table initialised lazily, ``if TABLE is None: TABLE = np.array(...)``), or
    ``self.x`` that ``__init__`` sets to one."""
    if depth > 4:
        return False
    if isinstance(expr, cst.Call):
        qualname = model.qualified_name(expr.func, scope)
        if qualname in NUMPY_KEEPING_JNP_FUNCTIONS:  # jnp.reshape(np.zeros(10), (2, 5)) stays NumPy
            return bool(expr.args) and not expr.args[0].star and _is_numpy_array(model, expr.args[0].value, scope, depth + 1)
        if qualname in NUMPY_ARRAY_CONSTRUCTORS:
            return True
        binding = model.single_binding(expr.func.value, scope) if isinstance(expr.func, cst.Name) else None
        if binding is None or binding.kind != "def" or not isinstance(binding.node, cst.FunctionDef) \
                or binding.node.decorators:
            return False
        returns = function_returns(model, binding.node)
        return bool(returns) and all(_is_numpy_array(model, r.value, r.scope, depth + 1) for r in returns)
    if isinstance(expr, cst.Name):
        bindings = model.lookup(expr.value, scope)
        if bindings and bindings[0].scope is model.module_scope:
            bindings = model.global_bindings(expr.value)
        arrays = [b for b in bindings if not is_none(b.value)]
        return bool(arrays) and all(b.kind == "assign" and isinstance(b.value, cst.Call)
                                    and _is_numpy_array(model, b.value, b.scope, depth + 1) for b in arrays)
    if isinstance(expr, cst.Attribute):  # ``self.table``, set once in ``__init__``
        made = self_attribute_value(model, expr, scope)
        return made is not None and isinstance(made[0], cst.Call) and _is_numpy_array(model, *made, depth + 1)
    return False


def _numpy_conversion_error(ctx: FileContext, qualname: Optional[str]) -> Optional[str]:
    """What a numpy function raises on a tracer (None: it is not one that converts, or a SciPy
    function that runs on JAX arrays under jit where the module switches SciPy's array API on)."""
    if qualname is None:
        return None
    if qualname.startswith("scipy.") and enables_scipy_array_api(ctx):
        # SciPy's array-API mode: what fails depends on the function (a NumPy conversion, a
        # boolean mask, a Python branch on a value), all of it while tracing
        return None if qualname in SCIPY_JAX_JIT_FUNCTIONS else (
            "an error while tracing (SciPy's capability table marks it as not running on JAX under jit)")
    for prefix, error in NUMPY_CONVERTING_SUBMODULES.items():
        if qualname.startswith(prefix) and not qualname.rpartition(".")[2][:1].isupper():
            return error
    return NUMPY_CONVERTING_FUNCTIONS.get(qualname)


def _printed_traced(a: _FunctionAnalysis, expr: cst.BaseExpression, scope: Scope) -> bool:
    if a.traced(expr, scope):
        return True
    if isinstance(expr, cst.FormattedString):
        return any(isinstance(part, cst.FormattedStringExpression) and a.traced(part.expression, scope)
                   for part in expr.parts)
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Modulo):
        return a.traced(expr.right, scope) or (
            isinstance(expr.right, cst.Tuple) and any(a.traced(e.value, scope) for e in expr.right.elements))
    if isinstance(expr, cst.Call):
        func = expr.func
        is_format = isinstance(func, cst.Attribute) and func.attr.value == "format" \
            and isinstance(func.value, (cst.SimpleString, cst.ConcatenatedString))
        if is_format or a._builtin(func, scope) in ("str", "repr", "format"):
            return any(a.traced(arg.value, scope) for arg in expr.args)
    return False
