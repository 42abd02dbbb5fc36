"""Shared for JIT5xx/6xx/8xx: which defs are jitted, with which static parameters, and which
calls call a jitted callable.

* ``jitted_functions(ctx)``: every ``FunctionDef`` that jit wraps directly (``@jax.jit``,
  ``@partial(jax.jit, ...)``, ``jax.jit(f)`` naming a def, ``jax.jit(functools.partial(f, ...))``:
  the parameters the partial leaves open), with the parameters that are traced
  under *every* application (non-static, no default, not ``self``, not ``*args``).
* ``jitted_calls(ctx)``: call sites whose callee is a jitted callable (a jit-decorated def, a
  name bound once to ``jax.jit(...)``, or ``jax.jit(f)(...)`` itself), and which of their
  arguments are static.

Static arguments come from the shared ``staticargs.StaticArgSpec`` (jax.jit and pjit, literal
``static_argnums`` / ``static_argnames``, inferred through the signature as JAX does); when it
cannot tell, the rules stay silent.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Optional, Union

import libcst as cst

from jitlint.jaxfacts import ARGUMENT_FORWARDING_TRANSFORMS, ARGUMENT_KEEPING_DECORATORS, GRAPH_STATIC_JITS
from jitlint.jitnames import FILTERING_JIT_FUNCTIONS, JitApplication
from jitlint.rule import FileContext
from jitlint.rules._context import live_applications, PARTIAL_CONSTRUCTORS, calling_context, inherited_method, sole_override
from jitlint.semantic import Scope, SemanticModel, argument_value, dotted_name, has_decorator, is_none
from jitlint.staticargs import ARGNUM_JITS, SPEC_KEYWORDS, StaticArgSpec, signature_kept, spec_of, target_def
from jitlint.values import class_namespace_alias, returned_branches, self_attribute_value, value_flow
from jitlint.walk import Walker, iter_nodes

# jit kinds whose non-static arguments are traced as arrays (JIT8xx); filtering jits make every
# non-array argument static, flax.linen.jit wraps modules: both are left alone there.
TRACING_JITS = ARGNUM_JITS
# jit kinds that trace a plain object passed to them, and so raise TypeError on it: nnx.jit splits
# NNX objects into state, but hands any other argument to jax.jit (a trainer's ``self``: measured,
# fixtures/trace_misuse/nnx_jit_on_method_of_trainer_class.py).
OBJECT_TRACING_JITS = TRACING_JITS | GRAPH_STATIC_JITS
# jit kinds whose calls we analyse for argument churn (JIT5xx).
CALLABLE_JITS = ARGNUM_JITS | FILTERING_JIT_FUNCTIONS | {"jax.pmap", "flax.nnx.jit"}
# Parameter annotations that say "this is an array (or a scalar made one)".
ARRAY_ANNOTATIONS = frozenset({
    "Array", "ArrayLike", "ndarray", "bool", "int", "float", "complex", "Float", "Int", "Bool",
    "Scalar", "Numeric",
})

FunctionLike = Union[cst.FunctionDef, cst.Lambda]


@dataclass(eq=False)
class JittedFunction:
    func: FunctionLike  # a def, or a lambda (jitted_lambdas)
    apps: list[JitApplication] = field(default_factory=list)
    traced_params: set[str] = field(default_factory=set)
    array_params: set[str] = field(default_factory=set)  # traced and not annotated as a container


@dataclass(eq=False)
class JittedCall:
    call: cst.Call
    app: JitApplication
    func: Optional[FunctionLike]  # the wrapped def/lambda when known
    name: str  # how the message names the callee
    static_args: Optional[list[bool]]  # per positional arg; None: unknown
    static_keywords: Optional[set[str]]  # keyword names that are static; None: unknown
    # ``env.step(state, action)`` of a jitted method: the call binds ``self`` (static, or a
    # pytree jit traces), so its arguments start at the parameter after it
    bound: bool = False
    # the jit is what a factory of the module returns (``update = make_update()``): each call
    # of the factory makes a new one
    via_factory: bool = False

    def params(self) -> list[cst.Param]:
        """The parameters the call's positional arguments bind, in order (none when the
        wrapped function is unknown)."""
        params = positional_params(self.func) if self.func is not None else []
        return params[1:] if self.bound else params

    def passed(self) -> Iterator[tuple[Optional[str], cst.Arg]]:
        """(the parameter it binds, argument) for each argument before any ``*args``; the name
        is None past the known positional parameters."""
        names = [p.name.value for p in self.params()]
        position = 0
        for arg in self.call.args:
            if arg.star:
                return
            if arg.keyword is None:
                yield (names[position] if position < len(names) else None), arg
                position += 1
            else:
                yield arg.keyword.value, arg

    def argument(self, param: str) -> Optional[cst.BaseExpression]:
        """The value the call passes to parameter ``param`` (by position or keyword)."""
        names = [p.name.value for p in self.params()]
        return argument_value(self.call, names.index(param) if param in names else None, param)

    def dynamic_args(self) -> Iterator[cst.Arg]:
        """The arguments that are certainly traced (not static); none when unknown."""
        if self.static_args is None or self.static_keywords is None:
            return
        position = 0
        for arg in self.call.args:
            if arg.star:
                return  # positions after *args are unknown
            if arg.keyword is None:
                if not self.static_args[position]:
                    yield arg
                position += 1
            elif arg.keyword.value not in self.static_keywords:
                yield arg


# ------------------------------------------------------------------------------ static args
def static_names(spec: Optional[StaticArgSpec]) -> Optional[frozenset[str]]:
    """Names of the static parameters as jax.jit infers them; None when we cannot tell."""
    if spec is None or not spec.checkable or spec.filtering:
        return None
    nums, names = spec.effective_static()
    if any(n < 0 for n in nums):
        return None  # counted from the number of positional arguments passed
    static = set(names)
    for num in nums:
        param = spec.param_at(num)
        if param is None:
            return None
        static.add(param)
    return frozenset(static)


def binds_name(target: cst.BaseExpression, name: str) -> bool:
    """Does the assignment target ``target`` (``a``, ``a, b``, ``[*a]``) bind ``name``?"""
    if isinstance(target, cst.Name):
        return target.value == name
    if isinstance(target, (cst.Tuple, cst.List)):
        return any(binds_name(e.value, name) for e in target.elements)
    if isinstance(target, cst.StarredElement):
        return binds_name(target.value, name)
    return False


def positional_params(func: FunctionLike) -> list[cst.Param]:
    return [*func.params.posonly_params, *func.params.params]


def called_positions(model: SemanticModel, function: cst.FunctionDef) -> list[str]:
    """The positional parameters a call's arguments fill, in order: a method's call
    (``obj.method(a)``) binds ``self`` first, so ``a`` is the parameter after it."""
    names = [p.name.value for p in positional_params(function)]
    if model.functions[function].scope.kind == "class" and not has_decorator(function, "staticmethod"):
        return names[1:]
    return names


# ------------------------------------------------------------------------------ jitted defs
def jitted_functions(ctx: FileContext) -> dict[cst.FunctionDef, JittedFunction]:
    return ctx.shared("jitted-functions", _find_jitted_functions)


def jitted_def(app: JitApplication, model: SemanticModel) -> Optional[cst.FunctionDef]:
    """The def that ``app`` wraps directly (no other decorator in between), if any."""
    if isinstance(app.target, cst.FunctionDef):
        decorators = app.target.decorators
        index = next((i for i, d in enumerate(decorators) if d is app.anchor), None)
        # a pass-through decorator of this module with functools.wraps in between calls it as is;
        # a signature-keeping transform in between (``@jax.grad``, ``@partial(jnp.vectorize, ...)``)
        # calls it with the jit's tracers and static values, or tracers of its own in their place
        if index is not None and all(signature_kept(d, model, app.frame.scope) for d in decorators[index + 1:]):
            return app.target
        return None
    if isinstance(app.target, cst.Name):
        # (``ljE = potential_fn`` then ``jit(ljE)``: the def the alias names)
        binding = model.through_aliases(model.single_binding(app.target.value, app.frame.scope)
                                        or _rebound_def(app, model) or _reaching_def(app, model))
        if binding is not None and binding.kind == "def" and isinstance(binding.node, cst.FunctionDef):
            if all(model.qualified_name(d.decorator, binding.scope) in ARGUMENT_KEEPING_DECORATORS
                   for d in binding.node.decorators):
                return binding.node
    if isinstance(app.target, cst.Attribute):
        # ``jax.jit(AR.phi_from_roots)`` of a @staticmethod of a class of this module: a plain
        # function (a method taken from its class would trace the instance it is given)
        function = target_def(app, model)
        if isinstance(function, cst.FunctionDef) and function.decorators \
                and all(dotted_name(d.decorator) == "staticmethod" for d in function.decorators):
            return function
    return None


def _reaching_def(app: JitApplication, model: SemanticModel):
    """The one def the jitted name refers to where it is read, when the name is bound more
    than once (a function redefined further down a script or notebook)."""
    bindings = model.bindings_at(app.target, app.frame.scope)
    return bindings[0] if len(bindings) == 1 and bindings[0].kind == "def" else None


def _rebound_def(app: JitApplication, model: SemanticModel):
    """``f = jax.jit(f)`` after ``def f``: the def's binding (its name is then bound twice)."""
    if app.call is None:
        return None
    statement = model.parent_statement.get(app.call)
    bindings = model.lookup(app.target.value, app.frame.scope)
    defs = [b for b in bindings if b.kind == "def"]
    rebinding = [b for b in bindings if b.node is statement]
    if len(defs) != 1 or len(bindings) != 2 or len(rebinding) != 1 or not isinstance(statement, cst.Assign):
        return None
    return defs[0]


def _find_jitted_functions(ctx: FileContext) -> dict[cst.FunctionDef, JittedFunction]:
    return _collect_jitted(ctx, lambda app, model: jitted_def(app, model) or partial_jitted_def(app, model))


def partial_jitted_def(app: JitApplication, model: SemanticModel) -> Optional[cst.FunctionDef]:
    """The plain def of this module that ``jax.jit(functools.partial(f, a, k=v))`` wraps: jit
    traces the parameters the partial leaves open; the bound values are constants of the
    trace (a NumPy array there is staged out like any constant)."""
    found = _partial_of(app, model)
    if found is None:
        return None
    call, scope = found
    if not (call.args and call.args[0].keyword is None and not call.args[0].star
            and isinstance(call.args[0].value, cst.Name)):
        return None
    binding = model.single_binding(call.args[0].value.value, scope)
    if binding is None or binding.kind != "def" or not isinstance(binding.node, cst.FunctionDef) \
            or binding.node.decorators:
        return None
    return binding.node


def _partial_of(app: JitApplication, model: SemanticModel) -> Optional[tuple[cst.Call, Scope]]:
    """The ``functools.partial(f, ...)`` call jit wraps: its target, or the value of a name
    bound once to one (``fit_polynomial = partial(fit, M=12)``, then ``jit(fit_polynomial)``)."""
    target, scope = app.target, app.frame.scope
    if isinstance(target, cst.Name):
        binding = model.single_binding(target.value, scope)
        if binding is None or binding.kind != "assign" or not isinstance(binding.value, cst.Call):
            return None
        target, scope = binding.value, binding.scope
    if isinstance(target, cst.Call) and model.qualified_name(target.func, scope) in PARTIAL_CONSTRUCTORS:
        return target, scope
    return None


def _partial_traced_params(func: cst.FunctionDef, partial: cst.Call) -> Optional[set[str]]:
    """The parameters ``functools.partial(func, ...)`` leaves open, without defaults (None when a
    ``*`` argument hides what it binds)."""
    bound = partial.args[1:]
    if any(a.star for a in bound):
        return None
    positional = sum(1 for a in bound if a.keyword is None)
    keywords = {a.keyword.value for a in bound if a.keyword is not None}
    params = positional_params(func)[positional:] + list(func.params.kwonly_params)
    return {p.name.value for p in params if p.default is None and p.name.value not in keywords}


def jitted_lambdas(ctx: FileContext) -> dict[cst.Lambda, JittedFunction]:
    """Lambdas jit wraps directly: ``jax.jit(lambda i: ...)``, ``g = lambda ...; jax.jit(g)``."""
    return ctx.shared("jitted-lambdas", lambda c: _collect_jitted(c, _jitted_lambda))


def _jitted_lambda(app: JitApplication, model: SemanticModel) -> Optional[cst.Lambda]:
    if isinstance(app.target, cst.Lambda):
        return app.target
    if isinstance(app.target, cst.Name):
        binding = model.single_binding(app.target.value, app.frame.scope)
        if binding is not None and binding.kind == "assign" and isinstance(binding.value, cst.Lambda):
            return binding.value
    return None


def _collect_jitted(ctx: FileContext, wrapped) -> dict:
    """Every function ``wrapped(app, model)`` finds under a jit application, with the parameters
    traced under every application of it (none when one application's statics are unknown)."""
    found: dict = {}
    unknown: set = set()
    for app in live_applications(ctx):
        func = wrapped(app, ctx.model)
        if func is None:
            continue
        entry = found.setdefault(func, JittedFunction(func))
        entry.apps.append(app)
        partial = _partial_of(app, ctx.model) if isinstance(func, cst.FunctionDef) else None
        if partial is not None:  # a partial of it
            traced = _partial_traced_params(func, partial[0])
            if app.jit.qualname not in TRACING_JITS or traced is None or any(
                    k.star or (k.keyword is not None and k.keyword.value in SPEC_KEYWORDS) for k in app.keywords):
                unknown.add(func)
                continue
            entry.traced_params = traced if len(entry.apps) == 1 else entry.traced_params & traced
            continue
        if isinstance(func, cst.Lambda):
            # No spec for lambdas: traced only when the jit names no static arguments at all.
            static = None if any(k.star or (k.keyword is not None and k.keyword.value in SPEC_KEYWORDS)
                                 for k in app.keywords) else frozenset()
            method = False
        else:
            spec = spec_of(app, ctx.model)
            static, method = static_names(spec), spec is not None and spec.method
        if app.jit.qualname not in TRACING_JITS or static is None:
            unknown.add(func)
            continue
        traced = _traced_params(func, static, method)
        entry.traced_params = traced if len(entry.apps) == 1 else entry.traced_params & traced
    for func, entry in found.items():
        if func in unknown:
            entry.traced_params = set()
        entry.array_params = {name for name in entry.traced_params
                              if _annotated_as_array(_param(func, name))}
    return found


def _traced_params(func: FunctionLike, static: frozenset[str], method: bool) -> set[str]:
    params = positional_params(func)
    if method and params:
        params = params[1:]  # self: static or an error of its own
    params += list(func.params.kwonly_params)
    return {p.name.value for p in params if p.default is None and p.name.value not in static}


def _param(func: FunctionLike, name: str) -> cst.Param:
    for param in (*positional_params(func), *func.params.kwonly_params):
        if param.name.value == name:
            return param
    raise KeyError(name)


def _annotated_as_array(param: cst.Param) -> bool:
    if param.annotation is None:
        return True
    annotation = param.annotation.annotation
    if isinstance(annotation, cst.Subscript):  # Float[Array, "n"] (jaxtyping)
        annotation = annotation.value
    if isinstance(annotation, (cst.Name, cst.Attribute)):
        last = annotation.value if isinstance(annotation, cst.Name) else annotation.attr.value
        return last in ARRAY_ANNOTATIONS
    return False


# Annotations that say "an array" and nothing else (no scalar, no ArrayLike): never hashable.
STRICT_ARRAY_ANNOTATIONS = frozenset({"Array", "ndarray", "DeviceArray"})


def annotated_strict_array(param: cst.Param) -> bool:
    """``x: jax.Array`` / ``np.ndarray`` / ``jnp.DeviceArray`` / ``Float[Array, "n"]``."""
    return param.annotation is not None and strict_array_annotation(param.annotation.annotation)


def strict_array_annotation(annotation: cst.BaseExpression, optional: bool = False) -> bool:
    """``jax.Array`` / ``np.ndarray`` / ``Float[Array, "n"]`` / ``Optional[jax.Array]``; with
    ``optional``, also ``jax.Array | None``."""
    if optional and isinstance(annotation, cst.BinaryOperation) and isinstance(annotation.operator, cst.BitOr):
        parts = [p for p in (annotation.left, annotation.right) if not is_none(p)]
        return len(parts) == 1 and strict_array_annotation(parts[0])
    if isinstance(annotation, cst.Subscript) and annotation.slice \
            and isinstance(annotation.slice[0].slice, cst.Index):
        # jaxtyping's Float[Array, "n"], Optional[Array], Optional[Float[Array, "n"]]
        return strict_array_annotation(annotation.slice[0].slice.value, optional)
    return isinstance(annotation, (cst.Name, cst.Attribute)) \
        and dotted_name(annotation).rsplit(".", 1)[-1] in STRICT_ARRAY_ANNOTATIONS


# Annotations that say "a Python container (or None)": its truth value is concrete, never a tracer.
CONTAINER_ANNOTATIONS = frozenset({
    "dict", "Dict", "Mapping", "MutableMapping", "OrderedDict", "defaultdict", "list", "List",
    "Sequence", "MutableSequence", "tuple", "Tuple", "set", "Set", "frozenset", "FrozenSet", "str",
    "bytes", "None", "Optional", "Union",
})
CONTAINER_LITERALS = (cst.Dict, cst.List, cst.Tuple, cst.Set, cst.SimpleString)


def states_container(param: cst.Param) -> bool:
    """The code states that ``param`` holds a Python container (or None), never a tracer: it
    is annotated ``dict`` / ``Mapping`` / ``Optional[dict]`` / ``list[...] | None`` ..., or
    its default is a container literal (``opts={}``)."""
    if param.default is not None and isinstance(param.default, CONTAINER_LITERALS):
        return True
    return param.annotation is not None and _container_annotation(param.annotation.annotation)


def container_annotation(annotation: cst.BaseExpression) -> bool:
    """``dict`` / ``Mapping`` / ``Optional[dict]`` / ``list[...] | None`` ...: a Python container."""
    return _container_annotation(annotation)


def _container_annotation(annotation: cst.BaseExpression) -> bool:
    if isinstance(annotation, cst.BinaryOperation) and isinstance(annotation.operator, cst.BitOr):
        return _container_annotation(annotation.left) and _container_annotation(annotation.right)
    if isinstance(annotation, cst.Subscript):
        head = dotted_name(annotation.value).rsplit(".", 1)[-1]
        if head in ("Optional", "Union"):  # every member a container
            return all(isinstance(e.slice, cst.Index) and _container_annotation(e.slice.value)
                       for e in annotation.slice)
        return head in CONTAINER_ANNOTATIONS
    return isinstance(annotation, (cst.Name, cst.Attribute)) and \
        dotted_name(annotation).rsplit(".", 1)[-1] in CONTAINER_ANNOTATIONS - {"Optional", "Union"}


# ------------------------------------------------------------------------------ jitted calls
def jitted_calls(ctx: FileContext) -> list[JittedCall]:
    return ctx.shared("jitted-calls", _find_jitted_calls)


def _forwarded_through(model: SemanticModel, func: cst.Name, scope: Scope) -> Optional[cst.Name]:
    """The function a name bound once to a transform that forwards its arguments wraps
    (``loss_grad_fn = jax.value_and_grad(cross_entropy_loss)``): calling the name calls it."""
    binding = model.single_binding(func.value, scope)
    value = binding.value if binding is not None and binding.kind == "assign" else None
    if not (isinstance(value, cst.Call) and value.args and value.args[0].keyword is None and not value.args[0].star
            and isinstance(value.args[0].value, cst.Name)
            and model.qualified_name(value.func, binding.scope) in ARGUMENT_FORWARDING_TRANSFORMS):
        return None
    return value.args[0].value


def _find_jitted_calls(ctx: FileContext) -> list[JittedCall]:
    model = ctx.model
    by_call = {app.call: app for app in live_applications(ctx) if app.call is not None}
    by_def = {}
    for app in live_applications(ctx):
        if isinstance(app.target, cst.FunctionDef) and jitted_def(app, model) is not None:
            by_def.setdefault(app.target, []).append(app)
    found = []
    flow = value_flow(ctx)
    def bound_app(binding) -> Optional[JitApplication]:
        if binding.kind == "def" and len(by_def.get(binding.node, ())) == 1:
            return by_def[binding.node][0]
        if binding.kind == "assign" and isinstance(binding.value, cst.Call) \
                and isinstance(binding.node, cst.Assign) and len(binding.node.targets) == 1:
            return by_call.get(binding.value) or factory_app(binding.value, binding.scope)
        return None

    def factory_app(call: cst.Call, scope: Scope) -> Optional[JitApplication]:
        """``make_update(0.1)`` of a module function whose every return is one jit
        application (``return jax.jit(update)``): the call gives a function that one jits."""
        returned = {by_call.get(value) for value in returned_branches(model, flow, call, scope)}  # type: ignore[arg-type]
        return returned.pop() if len(returned) == 1 else None

    for site in model.calls:
        func = site.node.func
        apps: list[JitApplication] = []
        name = "the jitted function"
        bound = False
        via_factory = False
        if isinstance(func, cst.Call) and func in by_call:
            apps = [by_call[func]]
            wrapped = func.args[0].value if func.args and func.args[0].keyword is None else None
            if isinstance(wrapped, cst.Name):  # ``jit(update)(w, b, x)``: the calls are update's
                name = wrapped.value
        elif isinstance(func, cst.Call) and func.args and func.args[0].keyword is None and not func.args[0].star \
                and isinstance(func.args[0].value, cst.Name) \
                and model.qualified_name(func.func, site.frame.scope) in ARGUMENT_FORWARDING_TRANSFORMS:
            # ``jax.grad(loss)(params, batch)``: the transform calls jitted ``loss`` with these arguments
            func = func.args[0].value
        elif isinstance(func, cst.Name) and (forwarded := _forwarded_through(model, func, site.frame.scope)) is not None:
            func = forwarded  # ``loss_grad_fn = jax.value_and_grad(loss)``, then ``loss_grad_fn(params, x, y)``
        if isinstance(func, cst.Name):
            binding = model.single_binding(func.value, site.frame.scope) \
                or _rewrapped(model.lookup(func.value, site.frame.scope), by_call, model) \
                or flow.single(func, site.frame.scope)  # ``f = jax.jit(f)``; ``g = None`` ... ``g = jax.jit(f)``
            name = func.value
            app = bound_app(binding) if binding is not None else None
            via_factory = app is not None and binding.kind == "assign" and binding.value not in by_call
            apps = [app] if app is not None else _aliased_apps(model, flow, func, site.frame.scope, bound_app)
            if not apps and binding is not None:
                apps = _keyword_partial_apps(model, binding, bound_app)
            if not apps and binding is not None and binding.kind == "param":
                apps = _passed_apps(ctx, binding, by_call, bound_app)
            if not apps:  # ``model(x)`` of an instance whose class jits ``__call__``
                cls = calling_context(ctx).instance_class(func, site.frame.scope)
                method = inherited_method(model, cls, "__call__") if cls is not None else None
                if method is not None and len(by_def.get(method, ())) == 1:
                    apps, bound = by_def[method], True
        elif isinstance(func, cst.Attribute):  # ``self.logits(x)`` after ``self.logits = jax.jit(...)`` in __init__
            stored = self_attribute_value(model, func, site.frame.scope)
            # ``self.select_action = select_action`` of a jitted def (one made in ``__init__``)
            named = self_attribute_value(model, func, site.frame.scope, any_value=True) if stored is None else None
            stored_app = bound_app(binding) if named is not None and isinstance(named[0], cst.Name) \
                and (binding := model.single_binding(named[0].value, named[1])) is not None else None
            made = factory_app(stored[0], stored[1]) if stored is not None and isinstance(stored[0], cst.Call) \
                and stored[0] not in by_call else None
            if stored is not None and stored[0] in by_call:
                apps, name = [by_call[stored[0]]], f"self.{func.attr.value}"
            elif made is not None:  # ``self._update_step = _jitted_update_step(network, ...)``
                apps, name, via_factory = [made], f"self.{func.attr.value}", True
            elif stored_app is not None:
                apps, name = [stored_app], f"self.{func.attr.value}"
            elif (aliased := class_namespace_alias(model, func, site.frame.scope)) is not None \
                    and (app := bound_app(aliased)) is not None:
                apps, name = [app], dotted_name(func) or func.attr.value  # ``ops.render(...)``
            else:
                method = _instance_method(ctx, func, site.frame.scope)
                if method is not None and method not in by_def:
                    method = _jitted_override(ctx, method, func, by_def) or method
                if method is not None and len(by_def.get(method, ())) == 1:
                    apps, name, bound = by_def[method], dotted_name(func) or func.attr.value, True
        for app in apps:
            if app.jit.qualname not in CALLABLE_JITS:
                continue
            wrapped = _wrapped_function(app, model, by_call)
            static_args, static_keywords = _call_statics(site.node, app, wrapped, model, bound)
            found.append(JittedCall(site.node, app, wrapped, name, static_args, static_keywords, bound, via_factory))
    return found


def _passed_apps(ctx: FileContext, param, by_call: dict, bound_app, depth: int = 0) -> list[JitApplication]:
    """``def sample(model, params, seq): ... model(params, seq)`` where every call of the
    function passes ``model`` the one jit application (``sample(jax.jit(forward), ...)``, a
    name bound to it, or a parameter of the caller that is given it in turn): calling the
    parameter calls that jitted function."""
    passed = calling_context(ctx).passed_to(param) or [] if depth < 3 else []
    apps: set = set()
    for value, site in passed:
        app = by_call.get(value)
        if app is None and isinstance(value, cst.Name):
            binding = ctx.model.single_binding(value.value, site.frame.scope)
            app = bound_app(binding) if binding is not None else None
            if app is None and binding is not None and binding.kind == "param":
                apps.update(_passed_apps(ctx, binding, by_call, bound_app, depth + 1) or [None])
                continue
        apps.add(app)
    return list(apps) if len(apps) == 1 and None not in apps else []


def _keyword_partial_apps(model: SemanticModel, binding, bound_app) -> list[JitApplication]:
    """``update_fn = partial(update, loss_fn=loss_fn, opt_update=opt_update)`` of a jitted
    ``update``: a call of the partial passes its own arguments to ``update`` in the same places
    (the partial binds keywords only; positional ones would shift them)."""
    value = binding.value if binding.kind == "assign" and isinstance(binding.node, cst.Assign) \
        and len(binding.node.targets) == 1 else None
    if not (isinstance(value, cst.Call) and value.args and value.args[0].keyword is None
            and isinstance(value.args[0].value, cst.Name)
            and all(arg.keyword is not None for arg in value.args[1:])
            and model.qualified_name(value.func, binding.scope) in PARTIAL_CONSTRUCTORS):
        return []
    target = model.single_binding(value.args[0].value.value, binding.scope)
    app = bound_app(target) if target is not None else None
    return [app] if app is not None else []


def _instance_method(ctx: FileContext, func: cst.Attribute, scope) -> Optional[cst.FunctionDef]:
    """The method def of a class of this module that ``obj.method`` binds when ``obj`` is an
    instance of it (``self`` in its methods, ``env = Env()``, a parameter every caller gives
    one): not ``Cls.method`` (unbound), nor a static or class method (no ``self`` bound)."""
    method = calling_context(ctx).instance_method(func, scope)
    if method is None or not positional_params(method) or any(
            has_decorator(method, name) for name in ("staticmethod", "classmethod")):
        return None
    return method


def _jitted_override(ctx: FileContext, method: cst.FunctionDef, func: cst.Attribute,
                     by_def: dict) -> Optional[cst.FunctionDef]:
    """``self._solve(...)`` in a base class whose one subclass override is jitted."""
    owner = ctx.model.functions[method].scope.node
    if not (isinstance(func.value, cst.Name) and func.value.value == "self" and isinstance(owner, cst.ClassDef)):
        return None
    return sole_override(ctx.model, owner, method.name.value, lambda m: m in by_def)


def _aliased_apps(model: SemanticModel, flow, func: cst.Name, scope, bound_app) -> list[JitApplication]:
    """The jits a name stands for when each value reaching the call is another name for one
    (``step_func = eval_step if test else train_step``, or an ``if``/``else`` binding each):
    the call runs one of them, so it is a call of each (evojax PR #62)."""
    apps: list[JitApplication] = []
    for binding in flow.reaching(func, scope):
        value = binding.value if binding.kind == "assign" and isinstance(binding.node, cst.Assign) \
            and len(binding.node.targets) == 1 else None
        names = [value.body, value.orelse] if isinstance(value, cst.IfExp) else [value]
        for alias in names:
            # ``_solve_jit = solve`` just before ``def solve`` is redefined as a wrapper: the def
            # that reaches the alias, not the later one
            target = (model.single_binding(alias.value, binding.scope) or flow.single(alias, binding.scope)) \
                if isinstance(alias, cst.Name) else None
            app = bound_app(target) if target is not None else None
            if app is None:
                return []
            if app not in apps:
                apps.append(app)
    return apps


def _rewrapped(bindings: list, by_call: dict, model: SemanticModel):
    """A name bound several times to the same jit of the same def (``g = jax.jit(f)`` again
    after redefining what ``f`` reads; ``f = jax.jit(f)`` after ``def f``, and again): its
    first jit binding, which every call behaves like."""
    if len(bindings) < 2:
        return None
    if bindings[0].kind == "def":
        bindings = bindings[1:]  # ``def f`` then ``f = jax.jit(f)``: calls in functions run the jit
    apps = []
    for binding in bindings:
        if binding.kind != "assign" or binding.value not in by_call or not isinstance(binding.node, cst.Assign) \
                or len(binding.node.targets) != 1:
            return None
        apps.append(by_call[binding.value])
    wrapped = [_wrapped_function(app, model, by_call) for app in apps]
    same_options = len({tuple(cst.Module([]).code_for_node(k) for k in app.keywords) for app in apps}) == 1
    if len({id(w) for w in wrapped}) != 1 or not isinstance(wrapped[0], cst.FunctionDef) or not same_options:
        return None
    return bindings[0]


def _wrapped_function(app: JitApplication, model: SemanticModel,
                      by_call: dict[cst.Call, JitApplication]) -> Optional[FunctionLike]:
    """The def or lambda that ``app`` runs: also through a jit of a jitted name (``B =
    jax.jit(B)`` again, after ``B = jax.jit(B)``), whose trace runs the inner jit's cached
    program of that def."""
    if isinstance(app.target, cst.Lambda):
        return app.target
    found = jitted_def(app, model)
    if found is None and isinstance(app.target, cst.Name):
        bindings = model.bindings_at(app.target, app.frame.scope)
        inner = by_call.get(bindings[0].value) if len(bindings) == 1 and bindings[0].kind == "assign" \
            and isinstance(bindings[0].value, cst.Call) else None
        if inner is not None and inner is not app and inner.jit.qualname == app.jit.qualname:
            return jitted_def(inner, model)
    return found


def _call_statics(call: cst.Call, app: JitApplication, func: Optional[FunctionLike], model, bound: bool):
    """(static flag per positional argument, static keyword names), or (None, None).
    ``bound``: the call binds ``self`` first, so its argument ``i`` is parameter ``i + 1``."""
    positional = [a for a in call.args if a.keyword is None and not a.star]
    if app.jit.qualname in GRAPH_STATIC_JITS and not any(
            a.keyword is not None and a.keyword.value in SPEC_KEYWORDS for a in app.keywords):
        # ``@nnx.jit`` without static arguments: arrays are traced as jax.jit traces them
        # (their shapes key the cache), Modules split into traced state and a graph definition
        return [False] * len(positional), set()
    if isinstance(func, cst.FunctionDef):
        spec = spec_of(app, model)
        if spec is None or (spec.method and not bound) or not (spec.checkable or spec.filtering) \
                or not spec.readable or not spec.signature_known:
            return None, None
        if spec.filtering:  # arrays are traced, everything else static: decided per value
            return [False] * len(positional), set()
        nums, names = spec.effective_static()
        shift = int(bound)
        count = len(positional) + shift
        flags = [i in nums or (i - count) in nums or (spec.param_at(i) in names) for i in range(shift, count)]
        return flags, set(names)
    if any(a.keyword is not None and a.keyword.value in SPEC_KEYWORDS for a in app.keywords):
        return None, None  # a lambda or unknown callable with static arguments: not followed
    return [False] * len(positional), set()


# ------------------------------------------------------------------------------ walking
def name_loads(node: cst.CSTNode) -> Iterator[cst.Name]:
    """Names in ``node`` that are read (not attribute names, keywords, targets or params)."""
    loads = _NameLoads()
    loads.walk(node)
    return iter(loads.found)


class _NameLoads(Walker):
    def __init__(self) -> None:
        self.found: list[cst.Name] = []

    def visit_Name(self, name: cst.Name) -> None:
        self.found.append(name)

    def visit_Attribute(self, attr: cst.Attribute) -> bool:
        self.walk(attr.value)
        return False

    def visit_Arg(self, arg: cst.Arg) -> bool:
        self.walk(arg.value)
        return False

    def visit_Param(self, param: cst.Param) -> bool:
        if param.default is not None:
            self.walk(param.default)
        return False

    def visit_AssignTarget(self, target: cst.AssignTarget) -> bool:
        self._target_reads(target.target)
        return False

    def visit_AnnAssign(self, assign: cst.AnnAssign) -> bool:
        self._target_reads(assign.target)
        if assign.value is not None:
            self.walk(assign.value)
        return False

    def visit_FunctionDef(self, func: cst.FunctionDef) -> bool:
        for decorator in func.decorators:
            self.walk(decorator)
        self.walk(func.params)
        self.walk(func.body)
        return False

    def visit_ClassDef(self, cls: cst.ClassDef) -> bool:
        self.walk(cls.body)
        return False

    def visit_For(self, loop: cst.For) -> bool:
        self._target_reads(loop.target)
        self.walk(loop.iter)
        self.walk(loop.body)
        if loop.orelse is not None:
            self.walk(loop.orelse)
        return False

    def visit_CompFor(self, comp: cst.CompFor) -> bool:
        self._target_reads(comp.target)
        self.walk(comp.iter)
        for cond in comp.ifs:
            self.walk(cond)
        if comp.inner_for_in is not None:
            self.walk(comp.inner_for_in)
        return False

    def visit_NamedExpr(self, expr: cst.NamedExpr) -> bool:
        self.walk(expr.value)
        return False

    def _skip(self, node) -> bool:
        return False

    visit_AsName = visit_Import = visit_ImportFrom = visit_Global = visit_Nonlocal = _skip

    def _target_reads(self, target: cst.BaseExpression) -> None:
        """In an assignment target only subscript/attribute bases are read: ``a[i].b = ...``."""
        if isinstance(target, cst.Name):
            return
        if isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._target_reads(element.value)
        elif isinstance(target, cst.StarredElement):
            self._target_reads(target.value)
        else:
            self.walk(target)


def scopes_within(model: SemanticModel, node: cst.CSTNode) -> set[int]:
    """ids of the scopes of ``node`` and of every function/lambda/comprehension inside it."""
    scope_of = model.scope_of
    return {id(scope) for child in iter_nodes(node) if (scope := scope_of.get(child)) is not None}
