"""Shared analysis for the static-argument rules (JIT2xx, JIT3xx, JIT4xx, JIT7xx).

``static_uses(ctx)`` finds every call of a jitted function this file can see — defined here, or
imported from another module of the linted tree through ``ctx.index`` — and maps each argument
to its parameter the way ``jax.jit`` does (``StaticArgSpec.effective_static``; a negative
argnum counts from the number of positional arguments passed).  The rules then ask what the
value at a static position is: unhashable (JIT301), created anew on every run (JIT201, JIT402),
a loop counter or another scalar recomputed on every iteration (JIT401, JIT403).  Names are
followed to the definitions that reach the read (``jitlint/values.py``), so a name bound twice is
judged by every binding that can reach the call.  Calls of a jitted method with a static ``self``
are ``ReceiverUse``s (JIT301, JIT402).  Anything not understood stays silent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Callable, Iterator, Optional, TypeVar

import libcst as cst

from jitlint.jaxfacts import (ARGUMENT_FORWARDING_TRANSFORMS, SIGNATURE_KEEPING_JITS, ARRAY_HASHING_OBJECTS, ARRAY_METHODS, ARRAY_LEAF_PARAMS, LIST_RETURNING_METHODS, DICT_RETURNING_FUNCTIONS, EAGER_LAX_FUNCTION_PARAMS, HASHED_FUNCTION_PARAMS,
                              OPTAX_COMBINATORS, OPTAX_SCHEDULES, OPTIMIZER_STATE_INITS, OPTAX_TRANSFORMATIONS, REJECTED_JIT_KEYWORDS, TRACING_CALLS,
                              GRAPH_STATIC_JITS, TracingCall, FRESH_TRANSFORMS,
                              JIT_POSITIONAL_ARGUMENTS)
from jitlint.jitnames import JitApplication, is_foreign
from jitlint.project import absolute, module_name_for, resolve_class
from jitlint.rule import FileContext
from jitlint.rules._arguments import NonJaxValue, field_assignments, first_value, instance_class, narrowed_to_str, non_jax_value
from jitlint.rules._builders import receiver_built_by
from jitlint.rules._lifted import lifted_specs, transformed_calls
from jitlint.rules._context import live_applications, REPEATED, UNKNOWN, bound_method_target, calling_context, inherited_method, sole_override
from jitlint.semantic import Binding, CallSite, Frame, Scope, SemanticModel, argument, argument_value, target_names
from jitlint.rules._jitted import annotated_strict_array, strict_array_annotation, jitted_calls, jitted_functions, static_names
from jitlint.staticargs import (ARGNUM_JITS, IDENTITY, UNHASHABLE, StaticArgSpec, literal, passthrough_decorator,
                                spec_errors, spec_keyword_values, spec_of, target_def)
from jitlint.values import (
    IterationValues, Varying, array_made_by, assigned, builtin_call, class_attribute_value, class_namespace_alias, conditional_within, dict_item_value, elementwise_operands, function_returns, origin,
    reaching_values, statements_in,
    returned_branches, returned_values, attribute_written_elsewhere, fields_made_in_init, fields_set_in_init, self_attribute_value, unpacked_keywords,
    ValueFlow, value_flow,
)
from jitlint.walk import iter_nodes, source_text as _src

T = TypeVar("T")  # what a display's element check returns

PARTIALS = frozenset({"functools.partial", "jax.tree_util.Partial"})
# Partials that are pytrees: their bound arguments are leaves (traced when passed traced).
PYTREE_PARTIALS = frozenset({"jax.tree_util.Partial"})
# builtin name -> (what it makes, the fix)
UNHASHABLE_BUILTINS = {
    "list": ("a list", "pass a tuple"),
    "dict": ("a dict", "pass a tuple of (key, value) pairs or a frozen dataclass"),
    "set": ("a set", "pass a frozenset"),
    "bytearray": ("a bytearray", "pass bytes"),
    "slice": ("a slice", "pass (start, stop, step) as a tuple"),
    # builtins whose result is one of those: ``vars(args)`` of parsed options, ``sorted(keys)``
    "vars": ("a dict (`vars(...)` of an object's attributes)",
             "pass the options it needs, or a frozen dataclass of them"),
    "sorted": ("a list (`sorted(...)` returns one)", "pass a tuple (`tuple(sorted(...))`)"),
}
LITERALS = {
    cst.List: "list", cst.ListComp: "list", cst.Dict: "dict", cst.DictComp: "dict",
    cst.Set: "set", cst.SetComp: "set",
}


@dataclass(eq=False)
class StaticUse:
    """One argument of a call of a jitted function, at a static position (or any, for filter_jit)."""

    site: CallSite
    callee: str
    spec: StaticArgSpec
    arg: cst.Arg
    param: str
    position: Optional[int]  # in the signature (self counted); None for a keyword argument
    traced: bool = False  # the call runs while an outer jit traces (once per trace of it)
    role: str = "static argument"  # or "function argument" of eager lax control flow
    given: Optional[cst.BaseExpression] = None  # the value ``**options`` passes for the keyword
    via: str = ""  # the wrapper whose parameter the jitted call passes on (``mesh_eval``)

    @property
    def value(self) -> cst.BaseExpression:
        return self.given if self.given is not None else self.arg.value

    @property
    def scope(self) -> Scope:
        return self.site.frame.scope

    def where(self) -> str:
        if self.via:
            return replace(self, via="").where() + f", which `{self.via}` passes on,"
        if self.position is None:
            return f"{self.role} `{self.param}` (keyword) of `{self.callee}`"
        if self.spec.bound:  # users often count ``self`` in a bound method's argnums
            return (f"{self.role} `{self.param}` (position {self.position}: a bound method's argnums "
                    f"start after `self`) of `{self.callee}`")
        if self.spec.filtering and self.role == "static argument":  # nothing is declared static there
            return (f"{self.role} `{self.param}` (position {self.position}) of `{self.callee}` "
                    f"(filter_jit keeps non-arrays static)")
        if self.param.startswith("*") and not self.spec.positional:  # a signature we do not see
            return f"{self.role} {self.position} of `{self.callee}`"
        return f"{self.role} `{self.param}` (position {self.position}) of `{self.callee}`"


def static_uses(ctx: FileContext) -> list[StaticUse]:
    """The static arguments of calls that run eagerly: traced calls run once per trace of
    their caller, so what they repeat costs nothing per call."""
    return ctx.shared("static-uses-eager", lambda c: [u for u in all_static_uses(c) if not u.traced])


def all_static_uses(ctx: FileContext) -> list[StaticUse]:
    """Every static argument, traced calls included: an unhashable one raises there too
    (measured: a list at a static position of a jit called inside another jit raises
    ValueError)."""
    return ctx.shared("static-uses", _compute)


def forwarded_static_uses(ctx: FileContext) -> list[StaticUse]:
    """The arguments of calls of a wrapper that passes its parameter on to a static position
    (``def mesh_eval(f, x_limits): return _mesh_eval(f, x_limits)`` with ``x_limits`` static):
    one level up, each call's argument for that parameter, judged like a static argument."""
    return ctx.shared("static-uses-forwarded", _forwarded)


def _forwarded(ctx: FileContext) -> list[StaticUse]:
    model, flow = ctx.model, value_flow(ctx)
    found: list[StaticUse] = []
    for use in all_static_uses(ctx):
        binding = flow.single(use.value, use.scope) if isinstance(use.value, cst.Name) else None
        wrapper = binding.scope.node if binding is not None and binding.kind == "param" else None
        if not isinstance(wrapper, cst.FunctionDef) or wrapper.decorators \
                or model.functions[wrapper].scope.kind == "class":
            continue
        positional = [p.name.value for p in (*wrapper.params.posonly_params, *wrapper.params.params)]
        name = binding.name
        for site in model.calls_named(wrapper.name.value):
            callee = flow.single(site.node.func, site.frame.scope) if isinstance(site.node.func, cst.Name) else None
            if callee is None or callee.node is not wrapper or any(a.star for a in site.node.args):
                continue
            arg = argument(site.node, positional.index(name) if name in positional else None, name)
            if arg is not None:
                found.append(replace(use, site=site, arg=arg, given=None, via=wrapper.name.value))
    return found


def traced_uses(ctx: FileContext) -> list[StaticUse]:
    """Every argument that ``jax.jit`` (or pjit) traces, of calls of a jitted function this file
    can see (defined here, a method with ``self.name(...)``, or imported from a linted module):
    the positions no static_argnums / static_argnames names, keywords no static_argnames names.
    Calls with ``*args`` are followed up to the star only, and not at all when the spec counts
    static positions from the end."""
    return ctx.shared("traced-uses", _compute_traced)


def jitted_call_sites(ctx: FileContext) -> list[tuple[CallSite, StaticArgSpec, int]]:
    """(site, spec, shift) for every call of a jitted function this file can see."""
    def compute(ctx: FileContext) -> list[tuple[CallSite, StaticArgSpec, int]]:
        callees = ctx.shared("static-callees", _Callees)
        # a spec jax.jit rejects raises where it is applied (JIT701-703): its calls never run
        return [(site, *found) for site in ctx.model.calls if (found := callees.lookup(site)) is not None
                and next(spec_errors(found[0]), None) is None]
    return ctx.shared("jitted-call-sites", compute)


def _compute_traced(ctx: FileContext) -> list[StaticUse]:
    uses: list[StaticUse] = []
    for site, spec, shift in jitted_call_sites(ctx):
        if spec.filtering or spec.jit not in ARGNUM_JITS or not spec.checkable:
            continue
        if any(a.star for a in site.node.args) and any(n < 0 for n in spec.effective_static()[0]):
            continue
        uses.extend(map_arguments(site, spec, shift, traced=True, model=ctx.model))
    return uses


def specs(ctx: FileContext) -> list[tuple[object, StaticArgSpec]]:
    """(jit application, spec) for every application whose target this file shows: a def, a
    lambda, or a bound method of a class of this module (``jax.jit(self.fit, static_argnums=0)``,
    where argnum 0 is ``fit``'s parameter after ``self``)."""
    return ctx.shared("static-specs", lambda c: [
        (app, spec) for app in live_applications(c)
        if (spec := spec_of(app, c.model, bound_method_target(c, app.target, app.frame.scope))
            or _all_traced_spec(app, c.model)) is not None])


def _all_traced_spec(app: JitApplication, model: SemanticModel) -> Optional[StaticArgSpec]:
    """``kernel = jax.jit(make_kernel(...))``, ``jax.jit(model.apply)``: a callable whose
    signature this file does not show, jitted with no static argument at all: every argument
    of every call is traced, whatever the signature (``kernel(x1, x2, "ntk")`` raises); the
    positions it donates are as written (``jax.jit(jax.grad(loss), donate_argnums=0)``)."""
    if app.jit.qualname not in ARGNUM_JITS or app.call is None \
            or isinstance(app.target, (cst.FunctionDef, cst.Lambda)) \
            or any(a.keyword is None or a.keyword.value not in ("donate_argnums", "donate_argnames")
                   for a in app.call.args[1:]) or app.jit.via:
        return None
    values, readable = spec_keyword_values(app, model)
    return StaticArgSpec(name=cst.Module([]).code_for_node(app.target), jit=app.jit.qualname,
                         varargs=True, varkw=True, readable=readable,
                         donate_argnums=values.get("donate_argnums"),  # type: ignore[arg-type]
                         donate_argnames=values.get("donate_argnames"))  # type: ignore[arg-type]


def static_array_params(ctx: FileContext) -> Iterator[tuple[object, StaticArgSpec, list[cst.Param]]]:
    """(jit application, spec, parameters) where the spec makes static a parameter annotated as
    an array (``initial_position: jax.Array``): no call can pass it, an array is unhashable."""
    for app, spec in specs(ctx):
        function = bound_method_target(ctx, app.target, app.frame.scope) or target_def(app, ctx.model)
        static = static_names(spec)
        if not isinstance(function, cst.FunctionDef) or not static:
            continue
        # a call that passes a shape or a literal there (``image_shape=image.shape[:2]`` of an
        # ``image_shape: jnp.ndarray``) shows the annotation is loose, not the call wrong
        passed_plain = {use.param for use in all_static_uses(ctx) if use.spec is spec
                        and (_plain_python(use.value) or _plain_parameter(ctx, use.value, use.scope))}
        params = [p for p in (*function.params.posonly_params, *function.params.params, *function.params.kwonly_params)
                  if p.name.value in static and p.name.value != "self"
                  and (annotated_strict_array(p) or _aliased_array_annotation(ctx, p))
                  and p.name.value not in passed_plain]
        if params:
            yield app, spec, params


@dataclass(frozen=True, eq=False)
class ShiftedStatics:
    """A ``static_argnums`` that marks array data and leaves traced as many parameters named
    as static values, or that the body cannot take traced: the positions moved (a parameter
    added or removed before them, or an index off by one)."""

    app: object  # the jit application
    spec: StaticArgSpec
    marked: tuple[str, ...]  # what the numbers mark static: array data
    meant: tuple[str, ...]  # the traced parameters named static (``model_static``) or needed static
    evidence: tuple[tuple[cst.CSTNode, str], ...]  # where the marked ones are shown to be arrays
    call: Optional[cst.CSTNode] = None  # an argument of a call that passes one an array (it raises there)


def shifted_static_argnums(ctx: FileContext) -> list[ShiftedStatics]:
    """(JIT709; JIT301 and JIT807 leave what it explains to it) A spec whose ``static_argnums``
    marks parameters that are array data (annotated as arrays, or given arrays by a call) and
    none named as a static value, while exactly as many traced parameters are named as the
    static part of a split (``model_static``, ``optimizer_static``: ``eqx.partition``'s idiom),
    or, none being named so, are parameters the body cannot take traced (called, handed to a
    static position, used as a Python value: ``if explore:``)."""
    return ctx.shared("shifted-static-argnums", _find_shifted_static_argnums)


def reads_shifted_meant_param(ctx: FileContext, node: cst.CSTNode) -> bool:
    """``node``, inside a def JIT709 reports (or a def nested in it), reads a parameter the
    shifted numbers leave traced (``if explore:``, ``vmap_step`` handed to a static position):
    that finding says it, the rule that sees the use leaves it."""
    meant = ctx.shared("shifted-meant-nodes", _shifted_meant_nodes)
    params = meant.get(id(node))
    return params is not None and any(isinstance(n, cst.Name) and n.value in params for n in iter_nodes(node))


def _shifted_meant_nodes(ctx: FileContext) -> dict[int, frozenset[str]]:
    """id of each node inside a def JIT709 reports -> the parameters it says should be static."""
    found: dict[int, frozenset[str]] = {}
    for shifted in shifted_static_argnums(ctx):
        function = target_def(shifted.app, ctx.model)
        for node in iter_nodes(function) if function is not None else ():
            found[id(node)] = found.get(id(node), frozenset()) | frozenset(shifted.meant)
    return found


def _named_static(name: str) -> bool:
    return "static" in name.lower().split("_")


def _find_shifted_static_argnums(ctx: FileContext) -> list[ShiftedStatics]:
    candidates = []  # (app, spec, marked, meant or None), before asking what calls pass
    for app, spec in specs(ctx):
        count = len(spec.positional)
        if spec.filtering or spec.bound or not spec.checkable or not spec.static_argnums \
                or any(n >= count or n < -count for n in spec.static_argnums):
            continue  # (out of range: JIT702)
        marked = tuple(dict.fromkeys(spec.positional[n % count] for n in spec.static_argnums))
        static = set(marked) | set(spec.static_argnames or ())
        if any(_named_static(p) for p in static):
            continue
        meant = tuple(p for p in spec.positional if p not in static and _named_static(p))
        if not meant or len(meant) == len(marked):
            candidates.append((app, spec, marked, meant or None))
    if not candidates:
        return []
    given_arrays: dict[tuple[int, str], cst.CSTNode] = {}
    for use in all_static_uses(ctx):
        if unhashable(ctx, use.value, use.scope) is not None:
            given_arrays.setdefault((id(use.spec), use.param), use.arg)
    found = []
    for app, spec, marked, meant in candidates:
        function = target_def(app, ctx.model)
        params = (*function.params.posonly_params, *function.params.params) \
            if isinstance(function, cst.FunctionDef) else ()
        evidence: list[tuple[cst.CSTNode, str]] = [
            (p, f"`{p.name.value}` is annotated as an array") for p in params if p.name.value in marked
            and (annotated_strict_array(p) or _aliased_array_annotation(ctx, p))]
        evidence += [(given_arrays[(id(spec), p)], f"a call passes `{p}` an array") for p in marked
                     if (id(spec), p) in given_arrays]
        if evidence and meant is None and isinstance(function, cst.FunctionDef):
            needed = _traced_params_needing_python_values(ctx, function, spec, set(marked))
            meant = tuple(needed) if len(needed) == len(marked) else None
            evidence += [(node, why) for node, why in needed.values()] if meant else []
        if evidence and meant:
            call = next((given_arrays[(id(spec), p)] for p in marked if (id(spec), p) in given_arrays), None)
            found.append(ShiftedStatics(app, spec, marked, meant, tuple(evidence), call))
    return found


def _traced_params_needing_python_values(ctx: FileContext, function: cst.FunctionDef, spec: StaticArgSpec,
                                         static: set[str]) -> dict[str, tuple[cst.CSTNode, str]]:
    """The parameters left traced that the body cannot take traced: called (``vmap_step(...)``:
    a function), handed to a static position of another jitted call, or used as a Python value
    (``if explore:``, a shape): param -> (where, why)."""
    # _traced builds on this module: imported here, where the traced-value analysis is asked
    from jitlint.rules._traced import needs_python_value
    scope = ctx.model.scope_of.get(function)
    traced = [p for p in spec.positional if p not in static and p not in (spec.static_argnames or ())]
    needed: dict[str, tuple[cst.CSTNode, str]] = {}
    own = {p: b for p in traced for b in ctx.model.lookup(p, scope) if b.kind == "param" and b.scope is scope} \
        if scope is not None else {}
    for node in iter_nodes(function.body):
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in own \
                and node.func.value not in needed:
            needed[node.func.value] = (node, f"`{node.func.value}` is called: a function, not an array")
    for use in all_static_uses(ctx):
        value = use.value
        if isinstance(value, cst.Name) and value.value in own and value.value not in needed and use.scope is scope:
            needed[value.value] = (use.arg, f"`{value.value}` is handed to static argument `{use.param}` of "
                                            f"`{use.callee}`")
    for param in traced:
        if param in own and param not in needed and needs_python_value(ctx, function.name.value, param):
            needed[param] = (own[param].node, f"the body needs `{param}` as a Python value")
    return needed


def _aliased_array_annotation(ctx: FileContext, param: cst.Param) -> bool:
    """``key: PRNGKey`` with ``PRNGKey = jax.Array`` bound once in the module (a library's
    types module copied in, or imported from the project)."""
    annotation = param.annotation.annotation if param.annotation is not None else None
    if not isinstance(annotation, cst.Name):
        return False
    binding = ctx.model.single_binding(annotation.value, ctx.model.module_scope)
    return binding is not None and binding.kind == "assign" and binding.value is not None \
        and strict_array_annotation(binding.value)


_PLAIN_ANNOTATIONS = frozenset({"bool", "int", "float", "str"})


def _plain_parameter(ctx: FileContext, expr: cst.BaseExpression, scope) -> bool:
    """A parameter handed on whose annotation says a Python scalar (``mask: bool`` of the
    caller passing ``mask`` to a layer that annotates it ``jax.Array``)."""
    if not isinstance(expr, cst.Name):
        return False
    bindings = ctx.model.lookup(expr.value, scope)
    return len(bindings) == 1 and bindings[0].kind == "param" and isinstance(bindings[0].node, cst.Param) \
        and bindings[0].node.annotation is not None \
        and isinstance(bindings[0].node.annotation.annotation, cst.Name) \
        and bindings[0].node.annotation.annotation.value in _PLAIN_ANNOTATIONS


def _plain_python(expr: cst.BaseExpression) -> bool:
    """A literal, a tuple display, or an array's shape (``x.shape``, ``x.shape[:2]``): a
    hashable Python value, never an array."""
    if isinstance(expr, cst.Subscript):
        expr = expr.value
    return isinstance(expr, (cst.Integer, cst.Float, cst.SimpleString, cst.Tuple)) \
        or isinstance(expr, cst.Name) and expr.value in ("True", "False", "None") \
        or isinstance(expr, cst.Attribute) and expr.attr.value == "shape"


def eager_lax_uses(ctx: FileContext) -> list[StaticUse]:
    """The function arguments of lax control flow called outside traced code
    (``jaxfacts.EAGER_LAX_FUNCTION_PARAMS``): there each call looks its compiled program up by
    those functions, as jax.jit does by a static argument."""
    return ctx.shared("static-eager-lax", _eager_lax_uses)


def array_leaf_uses(ctx: FileContext) -> list[StaticUse]:
    """The arguments of library calls that trace every leaf as an array
    (``jaxfacts.ARRAY_LEAF_PARAMS``): ``lax.scan``'s ``init`` and ``xs``, ``optx.minimise``'s
    ``y0``, ``solver.run``'s ``init_params`` for a jaxopt solver built here."""
    return ctx.shared("array-leaf-uses", _array_leaf_uses)


def _array_leaf_uses(ctx: FileContext) -> list[StaticUse]:
    uses: list[StaticUse] = []
    for site, key, params in _calls_in_table(ctx, ARRAY_LEAF_PARAMS):
        func = site.node.func
        called_by_name = ctx.model.qualified_name(func, site.frame.scope) == key  # not ``solver.run``
        callee = key.replace("jax.lax.", "lax.").replace("optimistix.", "optx.") if called_by_name \
            else cst.Module([]).code_for_node(func)
        for position, keyword in params:
            arg = argument(site.node, position, keyword)
            if arg is not None:
                uses.append(StaticUse(site, callee, StaticArgSpec(key, key), arg, keyword,
                                      position if arg.keyword is None else None, role="argument"))
    return uses


def _calls_in_table(ctx: FileContext, table: dict) -> Iterator[tuple[CallSite, str, object]]:
    """(call site, key, the table's entry) for each call, without ``*args``, that ``table`` (a
    jaxfacts table) has an entry for: keyed by the function's qualified name, or
    "<constructor>.<method>" for a method of an object a library call built
    (``solver.run(...)`` with ``solver = jaxopt.LBFGS(fun=f)``: "jaxopt.LBFGS.run")."""
    model = ctx.model
    last_names = {name.rsplit(".", 1)[-1] for name in table}
    for site in model.calls:
        func = site.node.func
        last = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", None)
        if last not in last_names or any(a.star for a in site.node.args):
            continue
        key = model.qualified_name(func, site.frame.scope)
        if key not in table and isinstance(func, cst.Attribute):
            built = receiver_built_by(func.value, site.frame.scope, site.frame, model,
                                      lambda qualname, _: f"{qualname}.{last}" in table)
            key = f"{built}.{last}" if built is not None else None
        entry = table.get(key or "")
        if entry and key is not None:
            yield site, key, entry


def _eager_lax_uses(ctx: FileContext) -> list[StaticUse]:
    uses: list[StaticUse] = []
    specs_by_name: dict[str, StaticArgSpec] = {}
    for site, qualname, params in _calls_in_table(ctx, EAGER_LAX_FUNCTION_PARAMS):
        if calling_context(ctx).runs_traced(site.frame):
            continue
        spec = specs_by_name.setdefault(qualname, StaticArgSpec(qualname, qualname))
        callee = qualname.replace("jax.lax.", "lax.")
        for position, keyword in params:
            arg = argument(site.node, position, keyword)
            if arg is not None:
                uses.append(StaticUse(site, callee, spec, arg, keyword,
                                      position if arg.keyword is None else None,
                                      role="function argument"))
    return uses


def jitted_callee(ctx: FileContext, site: CallSite) -> Optional[tuple[StaticArgSpec, int]]:
    """(spec, how many leading parameters the call skips: 1 for ``self.method(...)``) when
    ``site`` calls a jitted function this file can see, else None."""
    return ctx.shared("static-callees", _Callees).lookup(site)


def jitted_reference(ctx: FileContext, expr: cst.BaseExpression, at: CallSite) -> Optional[StaticArgSpec]:
    """The spec of the jitted function ``expr`` names (not calls), read in the call ``at``:
    ``Partial(step, n)``."""
    found = referenced_jit(ctx, expr, at)
    return found[0] if found is not None and found[1] == 0 else None


def referenced_jit(ctx: FileContext, expr: cst.BaseExpression, at: CallSite) -> Optional[tuple[StaticArgSpec, int]]:
    """Like ``jitted_callee`` for a function ``expr`` names: (spec, 1) for a bound jitted
    method (``jax.vmap(env.reset)``, whose ``self`` is bound)."""
    return jitted_callee(ctx, CallSite(cst.Call(expr), at.frame, statement=at.statement))


def module_info(ctx: FileContext) -> tuple[Optional[str], bool]:
    name, is_package = module_name_for(ctx.path)
    return ctx.model.module_name or name, is_package


def _compute(ctx: FileContext) -> list[StaticUse]:
    uses: list[StaticUse] = []
    for site, spec, shift in jitted_call_sites(ctx):
        if not spec.checkable:
            continue
        traced = calling_context(ctx).runs_traced(site.frame)
        uses.extend(replace(use, traced=traced) for use in map_arguments(site, spec, shift, model=ctx.model))
    return uses


@dataclass(eq=False)
class ReceiverUse:
    """A call of a jitted method whose ``self`` is static, on a receiver we can see created:
    ``Head(2.0)(x)``, ``Head(2.0).apply(x)``, ``head(x)`` after ``head = Head(2.0)``, or
    ``self.apply(x)`` inside the class."""

    site: CallSite
    spec: StaticArgSpec
    cls: cst.ClassDef
    method: str
    receiver: cst.BaseExpression  # the expression that evaluates to the instance
    creation: Optional[tuple[cst.Call, Scope, Frame]]  # where the instance is made, when known
    # where the method marks ``self`` static (its ``static_argnums=`` keyword, else its jit):
    # the fix is there, whichever call shows the problem
    marking: cst.CSTNode


def static_marking(app, first: str = "") -> cst.CSTNode:
    """The ``first`` keyword (``static_argnums``, for a method's ``self``) of a jit application,
    else its last ``static_argnums=`` / ``static_argnames=`` keyword, else the application
    itself: where a finding about what it marks static points."""
    keywords = [a for a in app.keywords if a.keyword is not None and a.keyword.value.startswith("static_")]
    return next((a for a in keywords if a.keyword.value == first),
                keywords[-1] if keywords else app.anchor)


def _class_of_every_binding(flow: ValueFlow, name: cst.Name, scope: Scope) -> Optional[cst.ClassDef]:
    """The class of the module every definition reaching ``name`` instantiates, if one."""
    classes = set()
    for binding in flow.reaching(name, scope):
        value = binding.value if binding.kind == "assign" else None
        if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Name)):
            return None
        made = flow.single(value.func, binding.scope)
        if made is None or made.kind != "class":
            return None
        classes.add(made.node)
    return classes.pop() if len(classes) == 1 else None


def static_receivers(ctx: FileContext) -> list[ReceiverUse]:
    return ctx.shared("static-receivers", _receivers)


def _receivers(ctx: FileContext) -> list[ReceiverUse]:
    callees = ctx.shared("static-callees", _Callees)
    if not callees.methods:
        return []
    flow = value_flow(ctx)
    found = []
    for site in ctx.model.calls:
        func = site.node.func
        scope = site.frame.scope
        if isinstance(func, cst.Call) and func.args and isinstance(func.args[0].value, cst.Attribute) \
                and ctx.model.qualified_name(func.func, scope) in ARGUMENT_FORWARDING_TRANSFORMS:
            func = func.args[0].value  # ``jax.grad(self.pi_loss)(s)`` runs the bound method
        if isinstance(func, cst.Attribute):
            receiver, method = func.value, func.attr.value
        else:
            receiver, method = func, "__call__"
        made = origin(flow, receiver, scope, site.frame)
        creation = None
        cls = None
        if made is not None and isinstance(made[0], cst.Call) and isinstance(made[0].func, cst.Name):
            binding = flow.single(made[0].func, made[1])
            if binding is not None and binding.kind == "class":
                cls = binding.node
                creation = (made[0], made[1], made[2])
            else:  # ``gp = build_gp(params)``, a factory of the module returning ``GP(...)``
                cls = calling_context(ctx).class_made_by(made[0], made[1])
        elif isinstance(func, cst.Attribute) and isinstance(receiver, cst.Name):
            key = callees._method_key(func, scope)
            if key is not None:  # (the subclass whose jitted override a base's ``self.m(...)`` runs)
                cls = key[0]
            else:  # ``model = Net(p)`` before a loop and again in it: one class either way
                cls = _class_of_every_binding(flow, receiver, scope)
        if not isinstance(cls, cst.ClassDef):
            continue
        cls, _ = callees._defining(cls, method)  # an instance of a subclass runs the base's jitted method
        spec = callees.methods.get((cls, method))
        if spec is None or not spec.checkable or calling_context(ctx).runs_traced(site.frame):
            continue
        nums, names = spec.effective_static()
        if 0 in nums or (spec.positional and spec.positional[0] in names):
            found.append(ReceiverUse(site, spec, cls, method, receiver, creation,  # type: ignore[arg-type]
                                     callees.markings.get((cls, method), receiver)))
    return found


def map_arguments(site: CallSite, spec: StaticArgSpec, shift: int, traced: bool = False,
                  model: Optional[SemanticModel] = None) -> list[StaticUse]:
    """The call's arguments at static positions (``traced``: at the other positions); with the
    file's ``model``, also the keywords a ``**`` unpacks (values.unpacked_keywords)."""
    args = site.node.args
    positional = []
    for arg in args:
        if arg.star:
            break
        if arg.keyword is None:
            positional.append(arg)
    # shift -1: ``functools.partial(jitted, a, b)``, whose first argument is the jitted function
    # and whose calls may add more arguments
    static_nums = spec.static_positions(len(positional) + shift,
                                        exact=shift >= 0 and not any(arg.star == "*" for arg in args))
    role = "traced argument" if traced else "static argument"
    uses = []
    for index, arg in enumerate(positional):
        position = index + shift
        if position < 0:
            continue
        param = spec.param_at(position)
        if (spec.filtering or position in static_nums) != traced:
            if param is None and not spec.varargs:
                continue  # too many arguments: a TypeError of its own
            uses.append(StaticUse(site, spec.name, spec, arg, param or f"*{position}", position, role=role))
    for arg in args:
        if arg.keyword is not None and not arg.star and spec.static_keyword(arg.keyword.value) != traced:
            uses.append(StaticUse(site, spec.name, spec, arg, arg.keyword.value, None, role=role))
        elif arg.star == "**" and model is not None:  # ``f(x, **{"shape": [2, 3]})``, ``f(x, **options)``
            for keyword, value in unpacked_keywords(arg.value, site.frame.scope, model) or ():
                if spec.static_keyword(keyword) != traced:
                    uses.append(StaticUse(site, spec.name, spec, arg, keyword, None, given=value, role=role))
    return uses


class _Callees:
    """Which calls reach a jitted function, and with which spec."""

    def __init__(self, ctx: FileContext) -> None:
        self.ctx = ctx
        self.model = ctx.model
        self.index = getattr(ctx, "index", None)
        self.module_name, self.is_package = module_info(ctx)
        self.by_call: dict[cst.Call, StaticArgSpec] = {}
        self.by_binding: dict[Binding, tuple[StaticArgSpec, Optional[cst.FunctionDef]]] = {}
        self.methods: dict[tuple[cst.ClassDef, str], StaticArgSpec] = {}
        # where each of ``methods`` marks its arguments static (ReceiverUse.marking)
        self.markings: dict[tuple[cst.ClassDef, str], cst.CSTNode] = {}
        # jitted staticmethods, called as ``Cls.name(...)`` or ``instance.name(...)``
        self.static_methods: dict[tuple[cst.ClassDef, str], StaticArgSpec] = {}
        # ``self.name = jax.jit(...)`` in a method of the class: called as ``self.name(...)`` or
        # ``instance.name(...)``
        self.instance_jits: dict[tuple[cst.ClassDef, str], StaticArgSpec] = {}
        for app, spec in specs(ctx):
            if app.call is not None:
                self.by_call[app.call] = spec
            if isinstance(app.target, cst.FunctionDef):
                frame = self.model.functions[app.target]
                if frame.scope.kind == "class":
                    cls = frame.scope.node
                    assert isinstance(cls, cst.ClassDef)
                    if spec.method:
                        self.methods[(cls, app.target.name.value)] = spec
                        self.markings[(cls, app.target.name.value)] = static_marking(app, "static_argnums")
                    elif any(isinstance(d.decorator, cst.Name) and d.decorator.value == "staticmethod"
                             for d in app.target.decorators):
                        self.static_methods[(cls, app.target.name.value)] = spec
                    continue
                binding = _binding_of(frame.scope, app.target.name.value, app.target)
                if binding is not None:
                    self.by_binding[binding] = (spec, None)
            else:
                statement = self.model.parent_statement.get(app.anchor)
                stored = self._stored_on_instance(statement, app)
                if stored is not None:
                    self.instance_jits[stored] = spec
                elif isinstance(statement, cst.Assign) and len(statement.targets) == 1 \
                        and isinstance(statement.targets[0].target, cst.Name) and app.frame.scope.kind == "class" \
                        and isinstance(target_def(app, self.model), cst.FunctionDef) and spec.positional \
                        and spec.positional[0] == "self":
                    # ``step = jax.jit(_step, static_argnums=0)`` in the class body: a method,
                    # ``self`` bound by the attribute access (argument 0)
                    self.methods[(app.frame.scope.node, statement.targets[0].target.value)] = spec
                    self.markings[(app.frame.scope.node, statement.targets[0].target.value)] = static_marking(app, "static_argnums")
                elif isinstance(statement, cst.Assign) and len(statement.targets) == 1 \
                        and isinstance(statement.targets[0].target, cst.Name):
                    binding = _binding_of(app.frame.scope, statement.targets[0].target.value, statement)
                    if binding is not None and app.frame.scope.kind != "class":
                        target = self.model.lookup(app.target.value, app.frame.scope) \
                            if isinstance(app.target, cst.Name) else []
                        defs = [b.node for b in target if b.kind == "def"]
                        self.by_binding[binding] = (spec, defs[0] if len(defs) == 1 else None)

    def lookup(self, site: CallSite) -> Optional[tuple[StaticArgSpec, int]]:
        func = site.node.func
        scope = site.frame.scope
        args = site.node.args
        if args and args[0].keyword is None and not args[0].star and isinstance(args[0].value, cst.Name) \
                and self.model.qualified_name(func, scope) == "functools.partial":
            # ``partial(loss_fn, network)``: the arguments it binds reach the jitted def at every call
            bindings = self.model.lookup(args[0].value.value, scope)
            if len(bindings) == 1 and bindings[0] in self.by_binding:
                spec = self.by_binding[bindings[0]][0]
                return (spec, -1) if not any(n < 0 for n in spec.effective_static()[0]) else None
            return None
        if isinstance(func, cst.Call):
            spec = self.by_call.get(func)
            return (spec, 0) if spec is not None else None
        if isinstance(func, cst.Name):
            bindings = self.model.lookup(func.value, scope)
            if len(bindings) > 1 and any(b in self.by_binding for b in bindings):
                bindings = value_flow(self.ctx).reaching(func, scope)  # which one reaches the call
            local = [b for b in bindings if b in self.by_binding]
            if len(bindings) == 1 and local:
                return self.by_binding[local[0]][0], 0
            if len(bindings) == 2 and len(local) == 1:
                # ``def f`` then ``f = jax.jit(f, ...)``: calls after the rebinding reach the jit
                spec, function = self.by_binding[local[0]]
                other = bindings[0] if bindings[1] is local[0] else bindings[1]
                if other.node is function and self._after(site, local[0]):
                    return spec, 0
                return None
            chosen = [self.by_binding.get(self.model.through_aliases(b)) for b in bindings]
            if len(chosen) > 1 and all(c is not None for c in chosen) \
                    and len({c[0].effective_static()[0] for c in chosen}) == 1:  # type: ignore[index]
                # ``step_ = dense_step`` then ``if sparse: step_ = sparse_step``: jitted functions
                # with the same static positions, whichever the call reaches (covid-net PR 13)
                return chosen[0][0], 0  # type: ignore[index]
            if len(bindings) == 1 and bindings[0].kind == "param":
                # ``dfx(t, x)`` in ``def rk4(carry, dfx)`` where every call hands it a jitted def
                handed = [self.by_binding.get(b) for b in calling_context(self.ctx).handed_bindings(bindings[0]) or ()]
                if handed and all(h is not None for h in handed) \
                        and len({h[0].effective_static()[0] for h in handed}) == 1:  # type: ignore[index]
                    return handed[0][0], 0  # type: ignore[index]
            if len(bindings) == 1:
                made = self._factory_spec(bindings[0])
                if made is not None:
                    return made, 0
            if bindings and any(b.kind != "import" for b in bindings):
                return None
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
            method = self._method(func, scope)
            if method is not None:
                return method, 1
            if self.methods:  # ``lens.model(...)`` on an instance of the class of a jitted method
                cls = calling_context(self.ctx).instance_class(func.value, scope)
                method = self.methods.get(self._defining(cls, func.attr.value)) if cls is not None else None
                if method is not None and (0 in method.effective_static()[0] or method.filtering):
                    return method, 1  # (a traced ``self`` raises first: JIT805; equinox filters it)
            if self.instance_jits:
                cls = calling_context(self.ctx).instance_class(func.value, scope)
                stored = self.instance_jits.get((cls, func.attr.value)) if cls is not None else None
                if stored is not None:
                    return stored, 0
            if self.static_methods:
                static = self._static_method(func, site)
                if static is not None:
                    return static, 0
            aliased = class_namespace_alias(self.model, func, scope)  # ``ops.render(...)``
            if aliased is not None and aliased in self.by_binding:
                return self.by_binding[aliased][0], 0
        if self.index is None:
            return None
        qualname = self.model.qualified_name(func, scope)
        if qualname is None:
            return None
        spec = self.index.function(absolute(qualname, self.module_name, self.is_package))
        if spec is None or spec.method:
            return None
        return spec, 0

    def _factory_spec(self, binding: Binding) -> Optional[StaticArgSpec]:
        """``train_step = create_train_step_fn(ddp)`` of a module function whose every return
        is a jit application (either branch of ``jax.pmap(...) if ddp else jax.jit(...)``)
        with the same static positions: the spec of what the name holds."""
        value = binding.value if binding.kind == "assign" and isinstance(binding.node, cst.Assign) \
            and len(binding.node.targets) == 1 else None
        if not isinstance(value, cst.Call):
            return None
        made = [self.by_call.get(branch)  # type: ignore[call-overload]
                for branch in returned_branches(self.model, value_flow(self.ctx), value, binding.scope)]
        if not made or any(spec is None for spec in made) \
                or len({spec.effective_static()[0] for spec in made}) != 1:  # type: ignore[union-attr]
            return None
        return next((spec for spec in made if spec.jit in ARGNUM_JITS), made[0])  # (pmap names none)

    def _defining(self, cls: cst.ClassDef, name: str) -> tuple[cst.ClassDef, str]:
        """(the class whose def ``instance.name`` runs, name): ``cls`` or a base of it."""
        found = inherited_method(self.model, cls, name)
        owner = self.model.functions[found].scope.node if found is not None else cls
        return owner, name

    def _stored_on_instance(self, statement, app) -> Optional[tuple[cst.ClassDef, str]]:
        """(class, name) for ``self.name = jax.jit(...)`` in a method of a class of this module,
        when nothing else in the module assigns an attribute ``name``."""
        if not (isinstance(statement, cst.Assign) and len(statement.targets) == 1
                and statement.value is app.call):
            return None
        target = statement.targets[0].target
        if not (isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name)):
            return None
        cls = calling_context(self.ctx).instance_class(target.value, app.frame.scope)
        if cls is None or app.frame.scope.kind != "function":
            return None
        writes = [node for _, _, node in self.model.item_writes
                  if isinstance(getattr(node, "target", None), cst.Attribute) and node.target.attr.value == target.attr.value]
        return (cls, target.attr.value) if len(writes) == 1 else None

    def _method(self, func: cst.Attribute, scope: Scope) -> Optional[StaticArgSpec]:
        """``self.step(...)`` in the class that defines the jitted method ``step``."""
        key = self._method_key(func, scope)
        return self.methods[key] if key is not None else None

    def _method_key(self, func: cst.Attribute, scope: Scope) -> Optional[tuple[cst.ClassDef, str]]:
        """The (class, name) of ``self.methods`` that ``self.step(...)`` runs: the class's own
        jitted method, or a subclass's jitted override a base class's call runs."""
        binding = self.model.single_binding(func.value.value, scope)  # type: ignore[union-attr]
        if binding is None or binding.kind != "param":
            return None
        function = binding.scope.node
        if not isinstance(function, cst.FunctionDef):
            return None
        params = [*function.params.posonly_params, *function.params.params]
        if not params or params[0] is not binding.node:
            return None
        outer = self.model.functions[function]
        if outer.scope.kind != "class" or any(
                isinstance(d.decorator, cst.Name) and d.decorator.value in ("staticmethod", "classmethod")
                for d in function.decorators):
            return None
        cls = outer.scope.node
        assert isinstance(cls, cst.ClassDef)
        if (cls, func.attr.value) in self.methods:
            return cls, func.attr.value
        if not self.methods:
            return None
        override = sole_override(self.model, cls, func.attr.value,
                                 lambda m: (self.model.functions[m].scope.node, m.name.value) in self.methods)
        return (self.model.functions[override].scope.node, override.name.value) if override is not None else None  # type: ignore[return-value]

    def _static_method(self, func: cst.Attribute, site: CallSite) -> Optional[StaticArgSpec]:
        """``Cls.name(...)``, ``obj.name(...)`` (``obj`` made by ``Cls(...)``) or ``self.name(...)``
        in a method of a jitted staticmethod ``name`` of this module's class ``Cls``."""
        flow = value_flow(self.ctx)
        receiver = func.value
        assert isinstance(receiver, cst.Name)
        binding = flow.single(receiver, site.frame.scope)
        cls = None
        if binding is not None and binding.kind == "class":
            cls = binding.node
        else:
            made = origin(flow, receiver, site.frame.scope, site.frame)
            if made is not None and isinstance(made[0], cst.Call) and isinstance(made[0].func, cst.Name):
                maker = flow.single(made[0].func, made[1])
                cls = maker.node if maker is not None and maker.kind == "class" else None
            else:
                cls = calling_context(self.ctx).instance_class(receiver, site.frame.scope)
        if not isinstance(cls, cst.ClassDef):
            return None
        return self.static_methods.get((cls, func.attr.value))

    def _after(self, site: CallSite, binding: Binding) -> bool:
        """A module-level call runs after the rebinding; calls in functions run later anyway."""
        if site.frame.scope is not self.model.module_scope:
            return True
        body = list(self.model.module.body)
        site_top = _top_statement(site.frame, site.statement)
        bind_top = _top_statement(binding.frame, None, binding.node) if binding.frame else None
        if site_top is None or bind_top is None:
            return False
        try:
            return _index(body, site_top) > _index(body, bind_top)
        except ValueError:
            return False


def _index(body: list, node: cst.CSTNode) -> int:
    for i, statement in enumerate(body):
        if statement is node:
            return i
    raise ValueError


def _top_statement(frame: Frame, statement: Optional[cst.CSTNode],
                   small: Optional[cst.CSTNode] = None) -> Optional[cst.CSTNode]:
    frames = list(frame)
    if len(frames) >= 2:
        return frames[-2].node  # the compound statement directly in the module
    if statement is not None:
        return statement
    if small is not None:
        module = frames[-1].node
        assert isinstance(module, cst.Module)
        for line in module.body:
            if isinstance(line, cst.SimpleStatementLine) and any(s is small for s in line.body):
                return line
    return None


def _binding_of(scope: Scope, name: str, node: cst.CSTNode) -> Optional[Binding]:
    return next((b for b in scope.bindings.get(name, ()) if b.node is node), None)


# ---------------------------------------------------------------------------- unhashable values
CONTAINERS = ("a list", "a dict", "a set")
ARRAY_FIX = "pass it as a traced (non-static) argument, or pass a tuple"
OPTIMIZER_STATE_FIX = "pass it traced: an optimizer state is array data, like the parameters"
# the fixes of values that are array data: such a parameter belongs traced, unless the body needs
# its Python value
ARRAY_DATA_FIXES = frozenset({ARRAY_FIX, OPTIMIZER_STATE_FIX})
MASK_FIX = ("pass the hashable values it is computed from (a bound, a length) and build the mask "
            "inside the jitted function; a traced mask cannot index")


def unhashable(ctx: FileContext, expr: cst.BaseExpression, scope: Scope,
               depth: int = 0) -> Optional[tuple[str, str]]:
    """(what the value is, the fix) when ``expr`` certainly evaluates to an unhashable object.

    A name is followed to every definition that reaches the read (flow-sensitive): all of them
    must be unhashable."""
    if depth > 4:
        return None
    for node_type, kind in LITERALS.items():
        if isinstance(expr, node_type):
            return UNHASHABLE_BUILTINS[kind]
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, (cst.Multiply, cst.Add)) \
            and any(isinstance(side, (cst.List, cst.ListComp)) for side in (expr.left, expr.right)):
        return UNHASHABLE_BUILTINS["list"]  # ``[AttentionType.GLOBAL] * num_layers``
    if isinstance(expr, cst.Tuple):
        for element in expr.elements:
            if isinstance(element, cst.StarredElement):
                return None
            inner = unhashable(ctx, element.value, scope, depth + 1)
            if inner is not None:
                return f"a tuple containing {inner[0]}", inner[1] + " inside the tuple"
        return None
    if isinstance(expr, cst.Call):
        func = expr.func
        if isinstance(func, cst.Name) and func.value in UNHASHABLE_BUILTINS \
                and not ctx.model.lookup(func.value, scope):
            return UNHASHABLE_BUILTINS[func.value]
        if isinstance(func, cst.Name) and func.value in ("tuple", "frozenset") and len(expr.args) == 1 \
                and not expr.args[0].star and not ctx.model.lookup(func.value, scope):
            # a shallow conversion keeps the items: ``tuple(rules)`` of a list of lists
            held = _held_unhashable(ctx, expr.args[0].value, scope, depth + 1)
            return (f"a {func.value} containing {held[0]}", f"{held[1]} inside the {func.value} "
                    f"(`tuple(map(tuple, ...))` for a list of lists)") if held is not None else None
        if isinstance(func, cst.Attribute) and func.attr.value in ARRAY_METHODS:
            receiver = unhashable(ctx, func.value, scope, depth + 1)
            if receiver is not None and receiver[1] == ARRAY_FIX and receiver[0].startswith("a jax Array"):
                return receiver  # ``x.mean()`` of a jax Array is a (0-d) jax Array
        if ctx.model.qualified_name(func, scope) in DICT_RETURNING_FUNCTIONS:
            return (f"a dict of arrays (`{cst.Module([]).code_for_node(func)}` returns a plain dict)",
                    UNHASHABLE_BUILTINS["dict"][1])
        if isinstance(func, cst.Attribute) and func.attr.value in LIST_RETURNING_METHODS and not expr.args:
            return (f"a list (`.{func.attr.value}()` of an array)",
                    "pass a tuple (`tuple(map(tuple, x.tolist()))` for a nested list)")
        array = array_made_by(ctx.model, expr, scope)
        if array is not None:
            return array, ARRAY_FIX
        layer = array_hashing_object(ctx, expr, scope, depth + 1)
        if layer is not None and ctx.model.qualified_name(func, scope) in ARRAY_HASHING_OBJECTS:
            return layer, ("use eqx.filter_jit (it traces the arrays, keeps the rest static), or "
                           "eqx.partition it and pass the array half traced")
        optimizer = _optimizer_state_maker(ctx, expr, scope)
        if optimizer is not None:
            short = optimizer.replace("jax.example_libraries.", "")
            return f"an optimizer state (`{short}`'s init: a pytree of arrays)", OPTIMIZER_STATE_FIX
        cls = class_verdict(ctx, func, scope)
        if cls is not None and cls[1] == UNHASHABLE:
            if cls[2] == "dataclass":
                return (f"an instance of `{cls[0]}`, a non-frozen @dataclass (eq=True sets "
                        f"__hash__ to None)", "make the dataclass frozen (@dataclass(frozen=True))")
            return (f"an instance of `{cls[0]}`, which defines __eq__ without __hash__",
                    f"define `{cls[0]}.__hash__` consistent with __eq__")
        return unhashable_field(ctx, expr, scope, depth) or _returned_unhashable(ctx, expr, scope, depth)
    if isinstance(expr, cst.Attribute):
        return _attribute_unhashable(ctx, expr, scope, depth)
    item = dict_item_value(value_flow(ctx), expr, scope)
    if item is not None:  # ``CONFIG["hidden"]`` of ``CONFIG = {"hidden": [64, 64]}``
        return unhashable(ctx, item[0], item[1], depth + 1)
    if isinstance(expr, cst.Subscript) and isinstance(expr.value, cst.Call):
        site = ctx.model.call_site_of.get(expr.value)
        if site is not None and jitted_callee(ctx, site) is not None:
            # ``n = count_photons(...)[0]``: every leaf a jitted function returns is a jax Array
            return f"a jax Array (an output of jitted `{cst.Module([]).code_for_node(expr.value.func)}`)", ARRAY_FIX
    if isinstance(expr, cst.Subscript) and any(_keeps_an_axis(element.slice) for element in expr.slice):
        inner = unhashable(ctx, expr.value, scope, depth + 1)  # ``x[:, None]`` of an array is an array
        return inner if inner is not None and inner[1] == ARRAY_FIX else None
    operands = elementwise_operands(expr)
    if operands is not None:  # ``np.arange(10) < 4``, ``-x``: an array operand makes an array
        for operand in operands:
            inner = unhashable(ctx, operand, scope, depth + 1)
            if inner is not None and inner[1] == ARRAY_FIX:
                # a traced boolean mask cannot index (its size is data-dependent)
                return (f"{inner[0]} (a boolean mask)", MASK_FIX) if isinstance(expr, cst.Comparison) else inner
        return None
    if isinstance(expr, cst.Name):
        found = None
        values = reaching_values(value_flow(ctx), expr, scope)
        for value in values:
            if jitted_output(ctx, value.binding) and any(jc.call is value.binding.node.value for jc in jitted_calls(ctx)) \
                    and not ctx.model.call_site_of[value.binding.node.value].frame.loops_in_scope():
                # ``epsilon = decaying_epsilon(...)`` on a path to the call (outside loops):
                # every leaf a jitted function returns is a jax Array, so that path raises
                return (f"a jax Array on a path to the call (`{_src(value.binding.node, 60)}`: every "
                        f"output of a jitted function is an array)", ARRAY_FIX)
        for value in values:
            if jitted_output(ctx, value.binding):
                # ``params, opt_state = step(params, opt_state)`` in the loop: that value comes
                # only after a call that succeeded; the one before the loop decides
                continue
            if value.value is not None:
                inner = unhashable(ctx, value.value, value.binding.scope, depth + 1)
            elif value.binding.kind == "import":
                inner = _imported_unhashable(ctx, value.binding.imported)
            else:
                inner = _static_half(ctx, value.binding, depth + 1) or _unpacked_unhashable(ctx, value.binding, depth) \
                    or _passed_unhashable(ctx, value.binding, depth)
            if inner is None:
                return None
            found = found or inner
        return found
    return None


def _unpacked_unhashable(ctx: FileContext, binding, depth: int) -> Optional[tuple[str, str]]:
    """``params, memory = init_strategy(...)`` where every tuple ``init_strategy`` returns holds
    an unhashable value at ``params``'s place (a dict display)."""
    values = calling_context(ctx).unpacked_values(binding)
    found = [unhashable(ctx, value, scope, depth + 1) for value, scope in values]
    if not found or any(f is None for f in found):
        return None
    callee = cst.Module([]).code_for_node(binding.node.value.func)
    return f"{found[0][0]}, returned by `{callee}()`", found[0][1]


def _passed_unhashable(ctx: FileContext, binding, depth: int) -> Optional[tuple[str, str]]:
    """A parameter of an undecorated def or a constructor of this module (``__init__``'s ``net``
    in ``NQS(TwoNets([...]))``) that every call of it passes an unhashable value; None when it
    has no call here.  Not a jitted def's: its static arguments are judged at its own calls."""
    func = binding.scope.node
    if binding.kind != "param" or not isinstance(binding.node, cst.Param) or binding.node.default is not None \
            or not isinstance(func, cst.FunctionDef) or func.decorators or func in jitted_functions(ctx):
        return None
    owner = ctx.model.functions[func].scope
    callee = owner.node.name.value if owner.kind == "class" else func.name.value
    found = None
    for value, site in calling_context(ctx).passed_to(binding) or ():
        inner = unhashable(ctx, value, site.frame.scope, depth + 1)
        if inner is None:
            return None
        found = found or (f"{inner[0]}, passed to `{callee}` as `{binding.name}`", inner[1])
    return found


def _optimizer_state_maker(ctx: FileContext, call: cst.Call, scope: Scope) -> Optional[str]:
    """The optimizer factory (``jaxfacts.OPTIMIZER_STATE_INITS``) whose init ``call`` calls:
    ``tx.init(params)`` with ``tx = optax.adam(...)``, or ``opt_init(params)`` with
    ``opt_init, opt_update, get_params = optimizers.adam(...)``."""
    flow = value_flow(ctx)
    func = call.func
    if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
        makers = {_optimizer_factory(ctx, v.value, v.binding.scope) for v in reaching_values(flow, func.value, scope)}
        maker = makers.pop() if len(makers) == 1 else None
        return maker if maker is not None and OPTIMIZER_STATE_INITS[maker][0] == func.attr.value else None
    if not isinstance(func, cst.Name):
        return None
    binding = flow.single(func, scope)
    node = binding.node if binding is not None else None
    if not (isinstance(node, cst.Assign) and len(node.targets) == 1
            and isinstance(node.targets[0].target, (cst.Tuple, cst.List))):
        return None
    names = target_names(node.targets[0].target)
    maker = _optimizer_factory(ctx, node.value, binding.scope)
    if maker is None or func.value not in names:
        return None
    return maker if names.index(func.value) == OPTIMIZER_STATE_INITS[maker][1] else None


def _optimizer_factory(ctx: FileContext, value: Optional[cst.BaseExpression], scope: Scope,
                       depth: int = 0) -> Optional[str]:
    """The factory in OPTIMIZER_STATE_INITS that makes ``value``; for ``optax.chain(clip, adam)``
    the first member with array state (a chain's state is the tuple of its members')."""
    if isinstance(value, cst.Name) and depth < 3:
        binding = value_flow(ctx).single(value, scope)
        return _optimizer_factory(ctx, binding.value, binding.scope, depth + 1) \
            if binding is not None and binding.kind == "assign" else None
    if not isinstance(value, cst.Call):
        return None
    qualname = ctx.model.qualified_name(value.func, scope)
    if qualname in OPTAX_COMBINATORS and depth < 3:
        return next((maker for arg in value.args if not arg.star and arg.keyword is None
                     for maker in [_optimizer_factory(ctx, arg.value, scope, depth + 1)] if maker), None)
    return qualname if qualname in OPTIMIZER_STATE_INITS else None


def _keeps_an_axis(index: cst.BaseSlice) -> bool:
    """A slice or a ``None`` index: the result is an array again (an integer index of a NumPy
    array gives a hashable NumPy scalar)."""
    return isinstance(index, cst.Slice) or (
        isinstance(index, cst.Index) and isinstance(index.value, cst.Name) and index.value.value == "None")


def _imported_unhashable(ctx: FileContext, qualname: Optional[str]) -> Optional[tuple[str, str]]:
    """A module-level name of another module of the project bound once to a list, dict or set
    (``from config import KERNEL``, ``config.KERNEL``): the project index's ModuleSummary.values."""
    if ctx.index is None or not qualname:
        return None
    module_name, is_package = module_info(ctx)
    qualname = absolute(qualname, module_name, is_package)
    kind = ctx.index.value(qualname)
    if kind not in UNHASHABLE_BUILTINS:
        return None
    what, fix = UNHASHABLE_BUILTINS[kind]
    return f"{what} (`{qualname}`)", fix


def first_of_elements(display: cst.BaseExpression, check: Callable[[cst.BaseExpression], Optional[T]]) -> Optional[T]:
    """The first verdict ``check`` gives an element of a list, tuple or set display; None when
    an element is starred (what it spreads is not read here)."""
    for element in display.elements:  # type: ignore[attr-defined]
        if isinstance(element, cst.StarredElement):
            return None
        found = check(element.value)
        if found is not None:
            return found
    return None


def _held_unhashable(ctx: FileContext, expr: cst.BaseExpression, scope: Scope,
                     depth: int) -> Optional[tuple[str, str]]:
    """(what, fix) of an unhashable item of the list, tuple or set ``expr`` evaluates to: a
    display, or a name or attribute bound once to one (``self.config.rules`` of a class body)."""
    if depth > 4:
        return None
    if isinstance(expr, (cst.List, cst.Tuple, cst.Set)):
        return first_of_elements(expr, lambda value: unhashable(ctx, value, scope, depth + 1))
    if isinstance(expr, (cst.ListComp, cst.SetComp)):
        return unhashable(ctx, expr.elt, scope, depth + 1)
    if isinstance(expr, cst.Attribute):
        own = self_attribute_value(ctx.model, expr, scope) or class_attribute_value(ctx.model, expr, scope)
        return _held_unhashable(ctx, own[0], own[1], depth + 1) if own is not None else None
    if isinstance(expr, cst.Name):
        values = reaching_values(value_flow(ctx), expr, scope)
        if len(values) == 1 and values[0].value is not None:
            return _held_unhashable(ctx, values[0].value, values[0].binding.scope, depth + 1)
    return None


def _attribute_unhashable(ctx: FileContext, attr: cst.Attribute, scope: Scope,
                          depth: int) -> Optional[tuple[str, str]]:
    """``cfg.reps`` where ``cfg = Config()`` (one definition reaches it), a class of this module
    whose ``__init__`` sets ``self.reps`` to an unhashable value, and nothing else in the module
    writes ``.reps`` of an object; or ``config.KERNEL`` of another module (_imported_unhashable)."""
    root = attr.value
    while isinstance(root, cst.Attribute):
        root = root.value
    if isinstance(root, cst.Name) and ctx.index is not None:
        binding = ctx.model.single_binding(root.value, scope)
        if binding is not None and binding.kind == "import":
            return _imported_unhashable(ctx, ctx.model.qualified_name(attr, scope))
    own = self_attribute_value(ctx.model, attr, scope, any_value=True, ignored_write=lambda write, _: _stores_jitted_output(ctx, write)) \
        or class_attribute_value(ctx.model, attr, scope)
    if own is not None:  # ``self.sizes`` that ``__init__`` sets, ``cfg.SIZES`` of the class body
        inner = unhashable(ctx, own[0], own[1], depth + 1)
        where = f"in `{own[1].node.name.value}`" if isinstance(own[1].node, cst.FunctionDef) else "in the class body"
        return (f"{inner[0]} (`{attr.attr.value}`, set {where})", inner[1]) if inner is not None else None
    if not isinstance(attr.value, cst.Name):
        return None
    made = reaching_values(value_flow(ctx), attr.value, scope)
    if len(made) != 1 or not isinstance(made[0].value, cst.Call) \
            or not isinstance(made[0].value.func, cst.Name):
        return None
    binding = value_flow(ctx).single(made[0].value.func, made[0].binding.scope)
    if binding is None or binding.kind != "class" or not isinstance(binding.node, cst.ClassDef):
        return None
    name = attr.attr.value
    values = list(fields_made_in_init(ctx.model, binding.node, [name]))
    if len(values) != 1 or attribute_written_elsewhere(ctx.model, name):
        return None
    inner = unhashable(ctx, values[0][1], values[0][2], depth + 1)
    if inner is None:
        return None
    return f"{inner[0]} (set in `{binding.node.name.value}.__init__`)", inner[1]


def _stores_jitted_output(ctx: FileContext, write: cst.CSTNode) -> bool:
    """``self.target_params = self._train_step(...)`` (or unpacked from it): what a jitted
    function returns is arrays, as unhashable as the construction's value, and it comes only
    after a call that succeeded."""
    assign = ctx.shared("assignments-by-target", _assignments_by_target).get(id(write))
    value = assign.value if assign is not None else None
    site = ctx.model.call_site_of.get(value) if isinstance(value, cst.Call) else None
    return site is not None and jitted_callee(ctx, site) is not None


def _assignments_by_target(ctx: FileContext) -> dict[int, cst.Assign]:
    """id of each AssignTarget -> its assignment."""
    return {id(target): node for node in iter_nodes(ctx.model.module) if isinstance(node, cst.Assign)
            for target in node.targets}


def _returned_unhashable(ctx: FileContext, call: cst.Call, scope: Scope, depth: int) -> Optional[tuple[str, str]]:
    """``layout(2)`` where every ``return`` of the module's function ``layout`` gives an
    unhashable value."""
    found = None
    for returned in returned_values(ctx.model, value_flow(ctx), call, scope):
        inner = unhashable(ctx, returned.value, returned.scope, depth + 1)
        if inner is None:
            return None
        found = found or (f"{inner[0]} (returned by `{returned.function.name.value}`)", inner[1])
    return found


def unhashable_field(ctx: FileContext, call: cst.Call, scope: Scope, depth: int,
                     containers_only: bool = False) -> Optional[tuple[str, str]]:
    """``Config([1, 2])`` for a frozen dataclass or an ``equinox.Module`` (both hash their
    fields): the instance is unhashable when a field receives an unhashable value."""
    found = field_class(ctx, call.func, scope) or _hash_defining_class(ctx, call.func, scope)
    if found is None:
        return None
    cls, kind, fields = found
    for field_name, value, value_scope in (*((f, v, scope) for f, v in fields_passed(cls, fields, call)),
                                           *fields_made_in_init(ctx.model, cls, fields),
                                           *_fields_from_init_params(ctx, cls, fields, call, scope)):
        inner = unhashable(ctx, value, value_scope, depth + 1)
        if inner is not None and (not containers_only or inner[0] in CONTAINERS):
            nested = NESTED_FIELD_FIX.match(inner[1])  # a field of a field: one path, one reason
            return (f"an instance of {kind} `{cls.name.value}` whose field `{field_name}` is "
                    f"{inner[0]}" + ("" if nested else " (hashing the instance hashes its fields)"),
                    f"store a hashable value in `{field_name}.{nested[1]}` ({nested[2]})" if nested
                    else f"store a hashable value in `{field_name}` ({inner[1]})")
    return None


def _fields_from_init_params(ctx: FileContext, cls: cst.ClassDef, fields: list[str], call: cst.Call,
                             scope: Scope) -> Iterator[tuple[str, cst.BaseExpression, Scope]]:
    """``self.indexes = indexes`` in ``__init__``: what ``call`` passes that parameter, or its
    default where the call leaves it out (``Step(rate=r)`` with ``indexes={"A": 0}``)."""
    for field_name, value, init_scope in fields_set_in_init(ctx.model, cls, fields):
        init = init_scope.node
        if not isinstance(value, cst.Name) or not isinstance(init, cst.FunctionDef) \
                or any(arg.star for arg in call.args):
            continue
        params = [*init.params.posonly_params, *init.params.params][1:]
        param = next((p for p in (*params, *init.params.kwonly_params) if p.name.value == value.value), None)
        bindings = ctx.model.lookup(value.value, init_scope)
        if param is None or len(bindings) != 1 or bindings[0].kind != "param":
            continue
        position = params.index(param) if param in params else None
        passed = argument_value(call, position, param.name.value)
        if passed is not None:
            yield field_name, passed, scope
        elif param.default is not None:
            yield field_name, param.default, ctx.model.functions[init].scope


NESTED_FIELD_FIX = re.compile(r"store a hashable value in `([\w.]+)` \((.*)\)$")


def field_class(ctx: FileContext, func: cst.BaseExpression, scope: Scope):
    """(class def, 'a frozen dataclass' | 'an equinox.Module' | 'a flax.struct dataclass', field
    names) for a class of this module whose instances hash by their fields."""
    if not isinstance(func, cst.Name):
        return None
    binding = value_flow(ctx).single(func, scope)
    if binding is None or binding.kind != "class":
        return None
    cls = binding.node
    assert isinstance(cls, cst.ClassDef)
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    methods = {s.name.value for s in body if isinstance(s, cst.FunctionDef)}
    if methods & {"__hash__", "__eq__", "__post_init__", "__new__"} or cls.keywords:
        return None
    bases = [ctx.model.qualified_name(a.value, binding.scope) for a in cls.bases]
    if bases == ["equinox.Module"] and not cls.decorators:
        kind = "an equinox.Module"
    elif bases == ["flax.linen.Module"] and not cls.decorators:
        kind = "a flax.linen Module"  # a dataclass with unsafe_hash: it hashes its fields
    elif (bases == ["flax.struct.PyTreeNode"] and not cls.decorators) or (not bases and [
            ctx.model.qualified_name(d.decorator, binding.scope) for d in cls.decorators] == ["flax.struct.dataclass"]):
        kind = "a flax.struct dataclass"  # frozen
    elif not bases and len(cls.decorators) == 1 and \
            (hashing := _field_hashing_dataclass(ctx, cls.decorators[0], binding.scope)) is not None:
        kind = hashing
    else:
        return None
    fields = []
    for statement in body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                    if isinstance(small.value, cst.Call) and any(
                            a.keyword is not None and a.keyword.value == "converter" for a in small.value.args):
                        return None  # eqx.field(converter=tuple) makes the value hashable
                    fields.append(small.target.value)
    return cls, kind, fields


def _hash_defining_class(ctx: FileContext, func: cst.BaseExpression, scope: Scope):
    """(class def, description, the attributes it hashes) for a class of this module whose own
    ``__hash__`` is ``return hash(self.a)`` or ``return hash((self.a, self.b, ...))``: hashing
    an instance hashes those attributes (jax#39858: an array there raises TypeError)."""
    if not isinstance(func, cst.Name):
        return None
    binding = value_flow(ctx).single(func, scope)
    if binding is None or binding.kind != "class":
        return None
    cls = binding.node
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    method = next((s for s in body if isinstance(s, cst.FunctionDef) and s.name.value == "__hash__"), None)
    statements = method.body.body if method is not None and isinstance(method.body, cst.IndentedBlock) else ()
    if len(statements) != 1 or not isinstance(statements[0], cst.SimpleStatementLine):
        return None
    returned = statements[0].body[0]
    value = returned.value if isinstance(returned, cst.Return) else None
    if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "hash"
            and ctx.model.single_binding("hash", scope) is None and len(value.args) == 1):
        return None
    hashed = value.args[0].value
    parts = [e.value for e in hashed.elements] if isinstance(hashed, cst.Tuple) else [hashed]
    fields = [p.attr.value for p in parts
              if isinstance(p, cst.Attribute) and isinstance(p.value, cst.Name) and p.value.value == "self"]
    return (cls, "a class", fields) if fields else None


def _field_hashing_dataclass(ctx: FileContext, decorator: cst.Decorator, scope: Scope) -> Optional[str]:
    """How the dataclass is described when its generated __hash__ hashes the fields:
    ``frozen=True`` (with the default eq), or ``unsafe_hash=True``."""
    expr = decorator.decorator
    if not isinstance(expr, cst.Call) or ctx.model.qualified_name(expr.func, scope) != "dataclasses.dataclass":
        return None
    flags = {a.keyword.value: a.value for a in expr.args if a.keyword is not None}
    if len(flags) != len(expr.args):
        return None

    def true(flag: str) -> bool:
        value = flags.get(flag)
        return isinstance(value, cst.Name) and value.value == "True"
    if true("unsafe_hash"):
        return "an unsafe_hash dataclass"
    if true("frozen") and "eq" not in flags and "unsafe_hash" not in flags:
        return "a frozen dataclass"
    return None


def fields_passed(cls: cst.ClassDef, fields: list[str], call: cst.Call) -> Iterator[tuple[str, cst.BaseExpression]]:
    """(field, value) for each argument of ``Cls(...)`` that lands in a field unchanged."""
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    init = next((s for s in body if isinstance(s, cst.FunctionDef) and s.name.value == "__init__"), None)
    if init is None:
        params = fields
        stored = {f: f for f in fields}
    else:
        params = [p.name.value for p in (*init.params.posonly_params, *init.params.params)][1:]
        stored = _stored_params(init)
    positional = [a for a in call.args if a.keyword is None]
    if any(a.star for a in call.args):
        return
    for index, arg in enumerate(positional):
        if index < len(params) and params[index] in stored:
            yield stored[params[index]], arg.value
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value in stored:
            yield stored[arg.keyword.value], arg.value


def _stored_params(init: cst.FunctionDef) -> dict[str, str]:
    """param -> field for each ``self.field = param`` directly in ``__init__``'s body."""
    stored = {}
    body = init.body.body if isinstance(init.body, cst.IndentedBlock) else ()
    for statement in body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if isinstance(small, cst.Assign) and len(small.targets) == 1 \
                    and isinstance(small.value, cst.Name):
                target = small.targets[0].target
                if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) \
                        and target.value.value == "self":
                    stored[small.value.value] = target.attr.value
    return stored


def non_jax_traced_uses(ctx: FileContext) -> list[tuple[StaticUse, NonJaxValue]]:
    """(JIT807; JIT808 asks which plain classes arrive this way) Each traced argument that
    holds no valid JAX type, with what it holds, followed through names; a name the loop
    rebinds from the jitted call's own output is judged by its first value."""
    def compute(ctx: FileContext) -> list[tuple[StaticUse, NonJaxValue]]:
        found = []
        for use in traced_uses(ctx):
            value = non_jax_value(ctx, use.value, use.scope) or narrowed_to_str(ctx, use.value, use.site) or (
                first_value(ctx, use.value, use.scope, lambda binding: jitted_output(ctx, binding))
                if isinstance(use.value, cst.Name) else None)
            if value is not None:
                found.append((use, value))
        return found
    return ctx.shared("non-jax-traced-uses", compute)


def jitted_output(ctx: FileContext, binding: Binding, depth: int = 0) -> bool:
    """``binding`` assigns (or unpacks) what a call of a jitted function returns, also through
    a name bound to it (``new_carry, metrics = train_chunk(...)``, then ``(..., alo) =
    new_carry``)."""
    node = binding.node
    if isinstance(node, cst.Assign) and isinstance(node.value, cst.Name) and depth < 2:
        sources = value_flow(ctx).reaching(node.value, binding.scope)
        return bool(sources) and all(jitted_output(ctx, source, depth + 1) for source in sources)
    if not (isinstance(node, cst.Assign) and isinstance(node.value, cst.Call)):
        return False
    site = ctx.model.call_site_of.get(node.value)
    return site is not None and jitted_callee(ctx, site) is not None


def _static_half(ctx: FileContext, binding: Binding, depth: int) -> Optional[tuple[str, str]]:
    """``params, static = eqx.partition(model, ...)``: the static half keeps every non-array
    leaf and every container (arrays become None), so a list/dict/set field stays unhashable."""
    node = binding.node
    if not isinstance(node, cst.Assign) or len(node.targets) != 1 or not isinstance(node.value, cst.Call):
        return None
    target = node.targets[0].target
    call = node.value
    if not isinstance(target, cst.Tuple) or len(target.elements) != 2 \
            or not isinstance(target.elements[1].value, cst.Name) \
            or target.elements[1].value.value != binding.name or not call.args \
            or ctx.model.qualified_name(call.func, binding.scope) != "equinox.partition":
        return None
    model_expr = call.args[0].value
    made = origin(value_flow(ctx), model_expr, binding.scope, binding.frame)
    if made is None or not isinstance(made[0], cst.Call):
        return None
    inner = unhashable_field(ctx, made[0], made[1], depth, containers_only=True)
    if inner is None:
        return None
    return (f"the static half of eqx.partition(...) of {inner[0]}; partition keeps containers "
            f"in the static half", inner[1])


def unhashable_receiver(ctx: FileContext, use: ReceiverUse) -> Optional[tuple[str, str]]:
    """(what, fix) when the static ``self`` cannot be hashed: the class sets __hash__ to None
    (a non-frozen @dataclass, __eq__ without __hash__), or the instance is made with an
    unhashable field value (an array or container in an equinox.Module / frozen dataclass)."""
    frame = ctx.model.classes.get(use.cls)
    if frame is not None:
        verdict = class_verdict(ctx, cst.Name(use.cls.name.value), frame.scope)
        if verdict is not None and verdict[1] == UNHASHABLE:
            call = cst.Call(cst.Name(use.cls.name.value))
            return unhashable(ctx, call, frame.scope)
    if use.creation is not None:
        call, scope, _ = use.creation
        found = unhashable_field(ctx, call, scope, 0)
        if found is not None and "equinox.Module" in found[0]:
            return found[0], ("a Module is a pytree: pass it as an ordinary argument (drop "
                              "static_argnums=0) or use eqx.filter_jit")
        return found
    return None


def class_verdict(ctx: FileContext, expr: cst.BaseExpression, scope: Scope) -> Optional[tuple[str, str, str]]:
    module_name, is_package = module_info(ctx)
    return resolve_class(expr, scope, ctx.model, ctx.index, module_name, is_package, ctx.classes_asked)


def unhashable_callables(ctx: FileContext) -> Iterator[tuple[JitApplication, str, str]]:
    """``jax.jit(model)`` of an instance of a class that is unhashable (a non-frozen
    ``@dataclass``, ``__eq__`` without ``__hash__``): jit hashes the callable it wraps, so the
    first call raises TypeError (jax#17197).  (the application, the class, why)."""
    flow = value_flow(ctx)
    for app in live_applications(ctx):
        target = app.target
        if app.call is None or not isinstance(target, (cst.Name, cst.Call)):
            continue
        made = [(target, app.frame.scope)] if isinstance(target, cst.Call) else [
            (value.value, value.binding.scope) for value in reaching_values(flow, target, app.frame.scope)]
        verdicts = [class_verdict(ctx, value.func, scope) if isinstance(value, cst.Call) else None
                    for value, scope in made]
        if verdicts and all(v is not None and v[1] == UNHASHABLE for v in verdicts):
            yield app, verdicts[0][0], verdicts[0][2]


def array_hashing_bound_methods(ctx: FileContext) -> Iterator[tuple[JitApplication, str]]:
    """``jax.jit(model.forecast)`` of a method bound to an equinox Module that holds arrays:
    equinox makes the bound method a pytree holding the module, jit hashes the function it
    wraps, and the module's hash covers its arrays, so the first call raises TypeError
    (measured with an ``eqx.Module`` holding a ``jnp`` array; one holding only ints works).
    (the application, what the module is)."""
    for app in live_applications(ctx):
        target = app.target
        if app.call is None or app.jit.qualname not in ARGNUM_JITS \
                or not (isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name)):
            continue  # eqx.filter_jit traces the module's arrays instead of hashing them
        what = array_hashing_object(ctx, target.value, app.frame.scope)
        if what is not None:
            yield app, what


# ---------------------------------------------------------------------------- fresh values
@dataclass(frozen=True)
class Fresh:
    kind: str  # lambda | def | partial | instance | bound-method | jit
    what: str
    fix: str
    when: str  # "on every iteration" | "on every call of `f`"
    # A default the code makes when the caller gives no value (``fn or (lambda x: x)``): the
    # parameter it stands in for, and the expression that makes it.
    default: Optional[str] = None
    made: Optional[cst.CSTNode] = None


FRESH_TEXT = {
    "lambda": ("a lambda", "hoist the lambda: define it once and pass the same object"),
    "def": ("a nested function", "define the function once at module level and pass it"),
    "partial": ("a new partial object (functools.partial / jax.tree_util.Partial)",
                "build the partial once and reuse it (a jtu.Partial can also be passed as a "
                "non-static argument: it is a pytree)"),
    "bound-method": ("a bound method of a new object", "create the object once and reuse it"),
    "jit": ("a jitted function created anew", "jit the function once (at module level) and pass that same object"),
    "transform": ("a new transformed function (each `jax.vmap(f)` / `jax.grad(f)` is a new object)",
                  "apply the transform once, outside the loop or the function, and pass that same object"),
    "optax": ("a new optax transformation (a tuple of closures, hashed by identity)",
              "create the optimizer once and pass that same object, or make it a non-static "
              "argument (optax.inject_hyperparams for a changing learning rate)"),
}


# What equinox's filtering jits keep static by identity: every non-array leaf is static there.
# A lambda, a nested def and a ``functools.partial`` are such leaves, equal only to themselves;
# an optax transformation is a NamedTuple of fresh ``init``/``update`` closures.  A
# ``jax.tree_util.Partial`` or a Module is a pytree (its function static, its arrays traced: a
# new one over the same function finds the first trace); a plain instance or a bound method
# may define equality: left alone.  Measured, equinox 0.13.8 / optax 0.2.8: a fresh lambda or
# functools.partial compiles ``eqx.filter_jit`` on each of 5 calls, a jtu.Partial once; a
# second ``optax.adam(1e-3)`` compiles it again (fixtures/static_values/).
FILTERED_STATIC_KINDS = frozenset({"optax", "lambda", "def", "partial", "transform"})


def kept_static_by_filtering(ctx: FileContext, use: StaticUse, fresh: Fresh) -> bool:
    """A fresh object that a filtering jit keeps static (a jtu.Partial is a pytree instead)."""
    if fresh.kind not in FILTERED_STATIC_KINDS:
        return False
    made = ctx.model.value_origin(use.value, use.scope, use.site.frame)
    return not (made is not None and isinstance(made[0], cst.Call)
                and ctx.model.qualified_name(made[0].func, made[1]) in PYTREE_PARTIALS)


def fresh_value(ctx: FileContext, use: StaticUse) -> Optional[Fresh]:
    """The static value is a new object each time the call runs, hashed by identity."""
    return _fresh_at(ctx, use.value, use.site)


def fresh_receiver(ctx: FileContext, use: ReceiverUse) -> Optional[Fresh]:
    """The static ``self`` of a jitted method is a new identity-hashed instance each time."""
    return _fresh_at(ctx, use.receiver, use.site) or _rebuilt_in_loop(ctx, use.receiver, use.site)


def _rebuilt_in_loop(ctx: FileContext, expr: cst.BaseExpression, site: CallSite) -> Optional[Fresh]:
    """``model.update(p, batch)`` then ``model = Net(params=new_p)`` later in the same loop:
    from the second iteration on, every call's receiver is the instance the iteration before
    made (JRowbottom's MNIST object, 6 compiles in 6 steps)."""
    loops = site.frame.loops_in_scope()
    if not isinstance(expr, cst.Name) or not loops:
        return None
    for binding in value_flow(ctx).reaching(expr, site.frame.scope):
        if binding.kind != "assign" or binding.value is None or binding.frame is None \
                or not binding.frame.is_inside(loops[-1]) or conditional_within(binding, loops[-1]):
            continue
        created = created_object(ctx, binding.value, binding.scope, binding.frame)
        if created is not None and created[0] in ("instance", "hashed-instance"):
            return _fresh(created[0], created[2], "on every iteration")
    return None


def fresh_self(ctx: FileContext, use: ReceiverUse) -> Optional[tuple[Fresh, CallSite]]:
    """``self.train_step(...)`` (a jitted method whose ``self`` is static) inside another method
    of the class that a loop runs on a new instance on every iteration (``m = Member(seed);
    m.train(x)``) or on each instance of a list filled in a loop (``for model in self.models:
    model.train(x)``): (how the instances are fresh, the call in the loop)."""
    if not (isinstance(use.receiver, cst.Name) and use.receiver.value == "self"):
        return None
    method = use.site.frame.enclosing_function()
    if method is None or method.name.value == "__init__":
        return None
    context = calling_context(ctx)
    typed = context.call_sites(method)  # receivers known to be instances of the class
    # ``model.train(x)`` over a list of instances: the receiver's class is what the list holds
    sites = typed + [s for s in ctx.model.calls_named(method.name.value) if s not in typed]
    for site in sites:
        func = site.node.func
        if not isinstance(func, cst.Attribute) or context.runs_traced(site.frame):
            continue
        fresh = _fresh_at(ctx, func.value, site) if site in typed else None
        if fresh is not None and fresh.kind in ("instance", "hashed-instance"):
            loops = site.frame.loops_in_scope()
            made = origin(value_flow(ctx), func.value, site.frame.scope, site.frame)
            if made is not None and loops and context.sweeps_configurations(loops[-1], site.frame.scope, made[0]):
                continue  # ``for lr in (0.1, 0.01): Model(lr).train()``: a program per configuration
            return fresh, site
        held = _instance_per_item(ctx, func.value, site, use.cls)
        if held is not None:
            return held, site
    return None


def _instance_per_item(ctx: FileContext, expr: cst.BaseExpression, site: CallSite,
                       cls: cst.ClassDef) -> Optional[Fresh]:
    """``model`` of ``for model in models`` (or ``self.models``, through ``enumerate``) where a
    loop fills the list with instances of ``cls`` that hash by identity
    (``models.append(Member(...))``, also through a name bound to one)."""
    model = ctx.model
    binding = value_flow(ctx).single(expr, site.frame.scope) if isinstance(expr, cst.Name) else None
    if binding is None or binding.kind != "loop-target" or not isinstance(binding.node, cst.For):
        return None
    iterable = binding.node.iter
    if isinstance(iterable, cst.Call) and isinstance(iterable.func, cst.Name) and iterable.func.value == "enumerate" \
            and iterable.args:
        iterable = iterable.args[0].value
    held = _src(iterable, 200)
    if isinstance(iterable, cst.Name):  # a local list: filled in the function that loops over it
        where = [site.frame.enclosing_function()]
    elif isinstance(iterable, cst.Attribute) and isinstance(iterable.value, cst.Name) and iterable.value.value == "self":
        owner = site.frame.scope.parent  # the class of the method holding the loop
        where = [f for f in model.functions if isinstance(f, cst.FunctionDef)
                 and owner is not None and model.functions[f].scope is owner]
    else:
        return None
    context = calling_context(ctx)
    for function in filter(None, where):
        for node in iter_nodes(function):
            if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.args
                    and node.func.attr.value == "append" and _src(node.func.value, 200) == held):
                continue
            filling = model.call_site_of.get(node)
            if filling is None or not filling.frame.loops_in_scope():
                continue
            made = origin(value_flow(ctx), node.args[0].value, filling.frame.scope, filling.frame)
            if made is None or not isinstance(made[0], cst.Call) \
                    or context.constructed_class(made[0].func, made[1]) is not cls:
                continue
            verdict = class_verdict(ctx, made[0].func, made[1])
            if verdict is None or verdict[1] != IDENTITY:
                return None
            return Fresh("instance", f"each of the `{cls.name.value}` instances in `{held}`, which hash "
                         f"by identity", "create it once and reuse it, or make the class a frozen "
                         "dataclass (or give it __eq__ and __hash__)", "one per item of the loop")
    return None


def _fresh_at(ctx: FileContext, expr: cst.BaseExpression, site: CallSite) -> Optional[Fresh]:
    """``expr``, an argument of the call at ``site``, is a new object each time the call runs."""
    created = created_object(ctx, expr, site.frame.scope, site.frame)
    default = None
    if created is None:
        found = _fresh_default(ctx, expr, site.frame.scope, site.frame)
        if found is None:
            return _fresh_on_every_path(ctx, expr, site)
        created, default, made = found
    kind, creation, label = created
    fresh = fresh_when(ctx, kind, label, creation, site)
    if fresh is None or default is None:
        return fresh
    return Fresh(kind, fresh.what, f"define the default once at module level and use it when "
                 f"none is given (`{default} if {default} is not None else _default_{default.lstrip('_')}`)",
                 fresh.when, default, made)


def _fresh_on_every_path(ctx: FileContext, expr: cst.BaseExpression, site: CallSite) -> Optional[Fresh]:
    """A name that branches bind to different new objects (``opt = optax.adam(lr)`` if adam
    else ``optax.sgd(lr)``): each path makes a new one each time the code runs."""
    bindings = value_flow(ctx).reaching(expr, site.frame.scope) if isinstance(expr, cst.Name) else []
    found = []
    for binding in bindings if len(bindings) > 1 else ():
        value = assigned(binding).value
        created = created_object(ctx, value, binding.scope, binding.frame) \
            if value is not None and binding.frame is not None else None
        fresh = fresh_when(ctx, created[0], created[2], created[1], site) if created is not None else None
        if fresh is None:
            return None
        found.append(fresh)
    return found[0] if found else None


def _fresh_default(ctx: FileContext, expr: cst.BaseExpression, scope: Scope, frame: Frame
                   ) -> Optional[tuple[tuple[str, Frame, Optional[str]], str, cst.CSTNode]]:
    """(the fresh object, the parameter it stands in for, its expression) when ``expr`` is
    the caller's value or else a default made here: ``fn if fn else (lambda x: x)``,
    ``fn or (lambda x: x)``, or ``if fn is None: fn = lambda x: x``.  Only a lambda, a nested
    def or a partial: the default code is the same every time, only the object is new."""
    flow = value_flow(ctx)
    if isinstance(expr, cst.Name) and flow.single(expr, scope) is None:
        # several definitions reach the read: the parameter and a default assigned after it
        bindings = flow.reaching(expr, scope)
        given: list = [b for b in bindings if b.kind == "param"]
        made_here = [(created_object(ctx, v.value, v.binding.scope, v.binding.frame)
                      if v.value is not None and v.binding.frame is not None else None, v.value)
                     for v in (assigned(b) for b in bindings if b.kind != "param")]
    else:
        made = origin(flow, expr, scope, frame)
        if made is None:
            return None
        node, scope, frame = made  # type: ignore[assignment]
        if isinstance(node, cst.IfExp):
            branches = (node.body, node.orelse)
        elif isinstance(node, cst.BooleanOperation) and isinstance(node.operator, cst.Or):
            branches = (node.left, node.right)
        else:
            return None
        given = [b for b in branches if _parameter(ctx, b, scope)]
        made_here = [(created_object(ctx, b, scope, frame), b) for b in branches if not _parameter(ctx, b, scope)]
    if len(given) != 1 or len(made_here) != 1:
        return None
    created, node = made_here[0]
    if created is None or created[0] not in ("lambda", "def", "partial") or node is None:
        return None
    name = given[0].name if isinstance(given[0], Binding) else given[0].value  # type: ignore[union-attr]
    return created, name, node


def _parameter(ctx: FileContext, expr: cst.BaseExpression, scope: Scope) -> bool:
    """``expr`` is a parameter of the enclosing function, as the caller passed it."""
    if not isinstance(expr, cst.Name):
        return False
    binding = value_flow(ctx).single(expr, scope)
    return binding is not None and binding.kind == "param"


def fresh_tree_partial(ctx: FileContext, expr: cst.BaseExpression, site: CallSite
                       ) -> Optional[tuple[cst.CSTNode, str, Fresh]]:
    """``expr``, a traced argument of the call at ``site``, is a ``jax.tree_util.Partial`` over
    a lambda or nested def made together with it (also by a module function that builds and
    returns it: ``make_kernel(s)``), each time the call runs: the function is the static part
    of the Partial's pytree and compares by identity, so each new one is another signature.
    (the lambda or def, "a lambda" / "a nested function", when)."""
    made = origin(value_flow(ctx), expr, site.frame.scope, site.frame)
    if made is None or not isinstance(made[0], cst.Call):
        return None
    call, scope, frame = made
    found = _partial_over_own_function(ctx, call, scope, frame)
    if found is None:  # ``make_kernel(s)`` returning ``Partial(cov_fn, s=s)`` of its own ``def cov_fn``
        inner = [(r, _partial_over_own_function(ctx, r.value, r.scope, r.frame))
                 for r in calling_context(ctx).call_returns(call, scope)]
        if not inner or any(f is None or not any(fr.node is r.function for fr in f[2]) for r, f in inner):
            return None
        found = inner[0][1]
    function, what, _ = found  # type: ignore[misc]
    fresh = fresh_when(ctx, "partial", None, frame, site)  # type: ignore[arg-type]
    return (function, what, fresh) if fresh is not None else None


def _partial_over_own_function(ctx: FileContext, value: cst.BaseExpression, scope: Scope, frame: Frame
                               ) -> Optional[tuple[cst.CSTNode, str, Frame]]:
    """``jax.tree_util.Partial(f, ...)`` whose ``f`` is a lambda or nested def made in the same
    run of the code as the Partial (its function, or one iteration of its loop)."""
    made = origin(value_flow(ctx), value, scope, frame)
    if made is None or not isinstance(made[0], cst.Call) or not made[0].args or made[0].args[0].star \
            or ctx.model.qualified_name(made[0].func, made[1]) not in PYTREE_PARTIALS:
        return None
    call, scope, frame = made  # type: ignore[assignment]
    function = created_object(ctx, call.args[0].value, scope, frame)
    if function is None or function[0] not in ("lambda", "def"):
        return None
    made_in = function[1]
    same_run = made_in.scope is scope and (scope.kind == "function" or any(
        made_in.is_inside(loop) for loop in frame.loops_in_scope()))
    defined = origin(value_flow(ctx), call.args[0].value, scope, frame)
    return (defined[0], FRESH_TEXT[function[0]][0], frame) if same_run and defined is not None else None


def fresh_when(ctx: FileContext, kind: str, label: Optional[str], creation: Frame,
                site: CallSite) -> Optional[Fresh]:
    for loop in site.frame.loops_in_scope():
        if creation.is_inside(loop):
            return _fresh(kind, label, "on every iteration")
    scope = site.frame.scope
    if creation.scope is scope and scope.kind == "function" and not creation.loops_in_scope():
        function = scope.node
        assert isinstance(function, cst.FunctionDef)
        # A jitted function built per call is a new cache key on every call of the function,
        # whether or not its callers are in view (issue 13's repetition model, JIT201).
        how = calling_context(ctx).how(function)
        if how == REPEATED or kind == "jit" and how == UNKNOWN:
            return _fresh(kind, label, f"on every call of `{function.name.value}`")
    return None


def twin_objects(ctx: FileContext) -> list[tuple[StaticUse, Fresh, StaticUse]]:
    """Uses of one static parameter with separately created, identity-hashed objects that look
    alike (the same optax factory, a partial of the same function, the same class with the same
    arguments): each object is its own cache key, so each compiles again.  (later use, what it
    is, the earlier use).  Lambdas and defs are different code: not twins."""
    return ctx.shared("static-twins", _twins)


def _twins(ctx: FileContext) -> list[tuple[StaticUse, Fresh, StaticUse]]:
    flow = value_flow(ctx)
    seen: dict[tuple[int, str, str], tuple[StaticUse, cst.CSTNode]] = {}
    found = []
    for use in (*static_uses(ctx), *eager_lax_uses(ctx)):
        made = origin(flow, use.value, use.scope, use.site.frame)
        if made is None or not isinstance(made[0], cst.Call):
            continue
        created = created_object(ctx, made[0], made[1], made[2])  # type: ignore[arg-type]
        if created is None or created[0] not in ("partial", "optax", "instance", "hashed-instance"):
            continue
        if use.spec.filtering and created[0] not in FILTERED_STATIC_KINDS:
            continue
        call = made[0]
        if created[0] == "optax":
            likeness = cst.Module([]).code_for_node(call.func)
        else:
            likeness = " ".join(cst.Module([]).code_for_node(call).split())
        key = (id(use.spec), use.param, likeness)
        first = seen.setdefault(key, (use, call))
        if first[1] is not call and fresh_value(ctx, use) is None:
            found.append((use, _fresh(created[0], created[2], "created separately from the "
                                      "object passed in an earlier call"), first[0]))
    return found


def _fresh(kind: str, label: Optional[str], when: str) -> Fresh:
    if kind == "instance":
        return Fresh(kind, f"a new `{label}()` instance, which hashes by identity",
                     "create it once and reuse it, or make the class a frozen dataclass "
                     "(or give it __eq__ and __hash__)", when)
    if kind == "hashed-instance":
        return Fresh(kind, f"a new `{label}()` instance, whose class defines __hash__ but not "
                     f"__eq__ (equal hashes are not enough: JAX compares cache keys with ==, "
                     f"which is identity here)",
                     f"define `{label}.__eq__` consistent with its __hash__, or create one "
                     f"instance and reuse it", when)
    what, fix = FRESH_TEXT[kind]
    return Fresh(kind, what, fix, when)


def _optax_by_name(ctx: FileContext, func: cst.BaseExpression, scope: Scope) -> bool:
    """``getattr(optax, name)`` (an optimizer named by a string: ``"sgd"``, ``"adam"``): every
    optax optimizer and schedule is a factory of new closures."""
    return builtin_call(func, "getattr", ctx.model, scope) and len(func.args) >= 2 \
        and ctx.model.qualified_name(func.args[0].value, scope) == "optax"  # type: ignore[attr-defined]


def created_object(ctx: FileContext, expr: cst.BaseExpression, scope: Scope,
                   frame: Frame, depth: int = 0) -> Optional[tuple[str, Frame, Optional[str]]]:
    """(kind, the frame where the object is created, class name) for a fresh identity-hashed
    object.  A call of a module function that returns one it creates (``make_activation(0.1)``
    returning its inner ``def``) creates it where the call runs."""
    made = origin(value_flow(ctx), expr, scope, frame)
    if made is None:
        return None
    node, scope, frame = made  # type: ignore[assignment]
    if isinstance(node, cst.FunctionDef):
        if scope.kind != "function" and not (frame is not None and frame.loops_in_scope()):
            return None  # (a module-level def in a loop is made again on every iteration)
        jitted = any(ctx.resolver.resolve(d.decorator, scope) is not None for d in node.decorators)
        return ("jit" if jitted else "def"), frame, None
    if isinstance(node, cst.Lambda):
        return "lambda", frame, None
    if isinstance(node, cst.Call):
        if ctx.resolver.resolve(node.func, scope) is not None and any(
                a.keyword is None and not a.star for a in node.args):
            return "jit", frame, None
        qualname = ctx.model.qualified_name(node.func, scope) or ""
        if qualname in PARTIALS:
            return "partial", frame, None
        if qualname in FRESH_TRANSFORMS \
                and node.args and not node.args[0].star:
            return "transform", frame, None  # ``jax.vmap(fn)``: a new function on every application
        if qualname in OPTAX_TRANSFORMATIONS or qualname in OPTAX_SCHEDULES or _optax_by_name(ctx, node.func, scope):
            return "optax", frame, None
        cls = class_verdict(ctx, node.func, scope)
        if cls is not None and cls[1] == IDENTITY:
            return ("hashed-instance" if cls[2] == "hash" else "instance"), frame, cls[0]
        return _returned_object(ctx, node, scope, frame, depth)
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Call):
        if class_verdict(ctx, node.value.func, scope) is not None:
            return "bound-method", frame, None
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and depth <= 2:
        # ``abc = ABC()`` ... ``abc.body_fn``: a bound method of the object, made where it is
        made = origin(value_flow(ctx), node.value, scope, frame)
        if made is not None and isinstance(made[0], cst.Call) and made[2] is not None \
                and class_verdict(ctx, made[0].func, made[1]) is not None:
            return "bound-method", made[2], None
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and depth <= 2:
        prop = _own_property(ctx, node, scope)
        if prop is not None:  # ``self.activation``: a @property that builds its value per access
            found = None
            for returned in function_returns(ctx.model, prop):
                inner = created_object(ctx, returned.value, returned.scope, returned.frame, depth + 1)  # type: ignore[arg-type]
                if inner is None or not any(f.node is prop for f in inner[1]):
                    return None
                found = found or (inner[0], frame, inner[2])
            return found
    return None


def _own_property(ctx: FileContext, attr: cst.Attribute, scope: Scope) -> Optional[cst.FunctionDef]:
    """The ``@property`` def ``attr`` reads: ``self.name`` in a method of the class defining it."""
    binding = ctx.model.single_binding(attr.value.value, scope)  # type: ignore[union-attr]
    if binding is None or binding.kind != "param" or not isinstance(binding.scope.node, cst.FunctionDef):
        return None
    method = binding.scope.node
    params = [*method.params.posonly_params, *method.params.params]
    outer = ctx.model.functions.get(method)
    if not params or params[0] is not binding.node or outer is None or outer.scope.kind != "class":
        return None
    cls = outer.scope.node
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()  # type: ignore[union-attr]
    prop = next((s for s in body if isinstance(s, cst.FunctionDef) and s.name.value == attr.attr.value), None)
    if prop is None or [d.decorator.value for d in prop.decorators if isinstance(d.decorator, cst.Name)] != ["property"] \
            or len(prop.decorators) != 1:
        return None
    return prop


def _returned_object(ctx: FileContext, call: cst.Call, scope: Scope, frame: Frame,
                     depth: int) -> Optional[tuple[str, Frame, Optional[str]]]:
    """Every ``return`` of the called module function (or method of an instance of a class of
    the module: ``exploration.get_policy()`` returning a lambda) gives an object created in
    that call."""
    if depth > 2:
        return None
    found = None
    for returned in calling_context(ctx).call_returns(call, scope):
        inner = created_object(ctx, returned.value, returned.scope, returned.frame, depth + 1)  # type: ignore[arg-type]
        if inner is None or not any(f.node is returned.function for f in inner[1]):
            return None  # made before the call (a module-level def): the same object each time
        found = found or (inner[0], frame, inner[2])
    return found


# ---------------------------------------------------------------------------- changing scalars
def changing_scalar(ctx: FileContext, expr: cst.BaseExpression, site: CallSite,
                    objects: bool = True) -> Optional[Varying]:
    """A Python scalar that takes a new value on every iteration of a loop around ``site``: a
    ``range``/``enumerate`` counter, arithmetic of it with constants or loop-invariant names
    (``0.1 * 0.97 ** t``, through names assigned in the loop), a value updated from itself
    (``lr = lr * 0.9``, ``step += 1``), ``len`` of a list that grows in the loop.  Values that take
    few values (``i % 2``, ``i > 0``, ``min(i, 3)``) are not followed.  ``objects``: also an
    instance of a module class built from such a value (``Options(degree=step)``)."""
    values = ctx.shared("iteration-values", lambda c: IterationValues(c.model, value_flow(c)))
    return values.varying(expr, site, objects)


@dataclass(frozen=True)
class ChangingAttribute:
    """``model.temperature = <a scalar that changes every iteration>`` in the loop around a call
    of a GRAPH_STATIC_JITS function that is passed ``model``, or ``params["tau"] = <such a
    scalar>`` around a call of an equinox-filtered function passed ``params``."""

    write: cst.CSTNode  # the assignment target
    value: cst.BaseExpression
    site: CallSite
    spec: StaticArgSpec
    varying: Varying


def changing_graph_attributes(ctx: FileContext) -> list[ChangingAttribute]:
    return ctx.shared("changing-graph-attributes", _changing_graph_attributes)


def _changing_graph_attributes(ctx: FileContext) -> list[ChangingAttribute]:
    found = []
    for site, spec, _ in jitted_call_sites(ctx):
        # nnx.jit keeps a Module's plain attributes static; equinox's filtering keeps every
        # Python scalar leaf static, also an item of a dict it is given
        written = cst.Attribute if spec.jit in GRAPH_STATIC_JITS else cst.Subscript if spec.filtering else None
        if written is None:
            continue
        passed = {arg.value.value for arg in site.node.args if isinstance(arg.value, cst.Name)}
        for loop in site.frame.loops_in_scope():
            for statement in statements_in(loop):
                if not (isinstance(statement, cst.Assign) and len(statement.targets) == 1):
                    continue
                target = statement.targets[0].target
                if not (isinstance(target, written) and isinstance(target.value, cst.Name)
                        and target.value.value in passed):
                    continue
                varying = changing_scalar(ctx, statement.value, site, objects=False)
                if varying is not None:
                    found.append(ChangingAttribute(target, statement.value, site, spec, varying))
    return found


# ---------------------------------------------------------------------------- bad specs
def spec_problems(ctx: FileContext) -> list[tuple[str, cst.CSTNode, str]]:
    """(keyword, node to point at, message) for each spec jax.jit rejects when applied."""
    return ctx.shared("static-spec-problems", _spec_problems)


# The keyword that takes names, for each that takes positions
NAMES_FOR_NUMS = {"static_argnums": "static_argnames", "donate_argnums": "donate_argnames"}


def _spec_problems(ctx: FileContext) -> list[tuple[str, cst.CSTNode, str]]:
    problems = []
    for app in live_applications(ctx):
        rejected = REJECTED_JIT_KEYWORDS.get(app.jit.qualname, frozenset())
        for arg in app.keywords:
            if arg.keyword is not None and arg.keyword.value in rejected and not is_foreign(arg):
                short = app.jit.display.replace("equinox.", "eqx.")
                problems.append((arg.keyword.value, arg, (
                    f"`{short}` takes no `{arg.keyword.value}`: it raises ValueError when applied; "
                    f"drop it, {short} already makes every non-array argument static")))
    for app in live_applications(ctx):
        for arg in app.keywords:
            # ``static_argnums=("curl_func", "solver")``: names where jax.jit takes positions
            keyword = arg.keyword.value if arg.keyword is not None else ""
            names = literal(arg.value, app.frame.scope, ctx.model, ints=False) \
                if keyword in NAMES_FOR_NUMS and app.jit.qualname in SIGNATURE_KEEPING_JITS and not is_foreign(arg) else None
            if names:
                quoted = ", ".join(f'"{n}"' for n in names)
                problems.append((keyword, arg, (
                    f"{keyword} holds parameter names ({quoted}), where `{app.jit.display}` takes "
                    f"positions: it raises TypeError when applied; pass them as "
                    f"{NAMES_FOR_NUMS[keyword]}=({quoted}{',' if len(names) == 1 else ''})")))
    for app in live_applications(ctx):
        limit = JIT_POSITIONAL_ARGUMENTS.get(app.jit.qualname)
        positional = [a for a in app.call.args if a.keyword is None and not a.star] if app.call is not None else []
        if limit is not None and len(positional) > limit and not app.jit.via:
            problems.append(("static_argnums", positional[limit], (
                f"`{app.jit.display}` takes only the function by position, so "
                f"`{app.jit.display}(..., {cst.Module([]).code_for_node(positional[limit].value)})` raises "
                f"TypeError when applied; pass it by keyword (`static_argnums=...`)")))
    for app, spec in specs(ctx):
        for keyword, message in spec_errors(spec):
            node = next((a for a in reversed(app.keywords) if a.keyword is not None
                         and a.keyword.value == keyword and not is_foreign(a)), app.anchor)
            problems.append((keyword, node, message))
    for lifted in lifted_specs(ctx):
        count = len(lifted.params)
        bad = [n for n in lifted.nums if n >= count or -n > count]
        if bad and lifted.fact.out_of_range is not None:
            problems.append(("static_argnums", lifted.keyword, (
                f"{lifted.named()}, but `{lifted.owner}` takes {count} positional argument"
                f"{'s' if count != 1 else ''} ({', '.join(lifted.params)}): position {bad[0]} does "
                f"not exist, so calling it raises {lifted.fact.out_of_range}; use an index below {count}")))
        problems.extend(_unpassed_static_positions(ctx, lifted))
    return problems


def hidden_static_names(ctx: FileContext) -> Iterator[tuple[cst.Arg, cst.FunctionDef, str, str]]:
    """``@partial(jax.jit, static_argnames=("n",))`` over ``@timed``, a pass-through decorator
    of this module whose wrapper lacks ``functools.wraps``: jit sees ``(*args, **kwargs)``, so a
    name there is static only when passed by keyword.  (the argument passing it by position,
    the def, the parameter, the decorator's name) for each call that does (torchquad#165)."""
    model = ctx.model
    for app in live_applications(ctx):
        func = app.target
        if not isinstance(func, cst.FunctionDef):
            continue  # a def decorated by the jit
        index = next((i for i, d in enumerate(func.decorators) if d is app.anchor), None)
        hiding = [passing[0] for d in func.decorators[index + 1:] if index is not None
                  for passing in [passthrough_decorator(d, model, app.frame.scope)]
                  if passing is not None and not passing[1]]
        if not hiding:
            continue
        names = next((literal(arg.value, app.frame.scope, model, ints=False) for arg in app.keywords
                      if arg.keyword is not None and arg.keyword.value == "static_argnames"), None)
        positional = [p.name.value for p in (*func.params.posonly_params, *func.params.params)]
        named = [n for n in (names or ()) if n in positional]
        for site in model.calls_named(func.name.value) if named else ():
            bindings = model.bindings_at(site.node.func, site.frame.scope) if isinstance(site.node.func, cst.Name) else []
            passed = [arg for arg in site.node.args if arg.keyword is None]
            if not any(b.node is func for b in bindings) or any(arg.star for arg in passed):
                continue
            for name in named:
                if positional.index(name) < len(passed):
                    yield passed[positional.index(name)], func, name, hiding[0]


def _unpassed_static_positions(ctx: FileContext, lifted) -> Iterator[tuple[str, cst.CSTNode, str]]:
    """Calls of a ``jax.checkpoint``-wrapped function that pass fewer positional arguments
    than a static position needs: the transform checks the positions against each call
    (``jaxfacts.StaticSpecTransform.unpassed``), so a defaulted parameter left out raises."""
    positions = [n for n in lifted.nums if 0 <= n < len(lifted.params)]
    if lifted.fact.unpassed is None or lifted.skipped or not positions:
        return
    needed = max(positions)
    decorated = lifted.func if any(d.decorator is lifted.call for d in lifted.func.decorators) else None
    for site in transformed_calls(ctx, lifted.call, decorated):
        call = site.node
        if any(a.star for a in call.args):
            continue
        passed = sum(1 for a in call.args if a.keyword is None)
        if passed <= needed:
            param = lifted.params[needed]
            yield ("static_argnums", call, (
                f"`{lifted.owner}` is wrapped by {lifted.named()}, which counts the positional "
                f"arguments each call passes: this call passes {passed}, so position {needed} "
                f"(`{param}`) is missing and the call raises {lifted.fact.unpassed}; pass `{param}` "
                f"positionally, or use {lifted.fact.keyword} only for parameters every call passes"))


# ---------------------------------------------------------------------------- objects hashing arrays
def array_hashing_object(ctx: FileContext, expr: cst.BaseExpression, scope: Scope,
                         depth: int = 0) -> Optional[str]:
    """What ``expr`` is when it certainly is an object whose hash covers arrays, so that
    hashing it raises TypeError: a library layer of ``jaxfacts.ARRAY_HASHING_OBJECTS``
    (``eqx.nn.Linear(...)``), or an instance of this module's equinox.Module / frozen
    dataclass made with an array or container field.  Followed through names and ``self.attr``
    fields assigned in the class's methods."""
    if depth > 4:
        return None
    if isinstance(expr, cst.Call):
        qualname = ctx.model.qualified_name(expr.func, scope)
        if qualname in ARRAY_HASHING_OBJECTS:
            short = qualname.replace("equinox.", "eqx.")
            return f"an `{short}`, an equinox Module whose hash covers its weight arrays"
        found = field_class(ctx, expr.func, scope)
        if found is not None and found[1] == "an equinox.Module":
            inner = unhashable_field(ctx, expr, scope, depth)
            return inner[0] if inner is not None else None
        return None
    values: list[tuple[cst.BaseExpression, Scope]] = []
    if isinstance(expr, cst.Name):
        for value in reaching_values(value_flow(ctx), expr, scope):
            if value.value is None:
                return None
            values.append((value.value, value.binding.scope))
    elif isinstance(expr, cst.Attribute):
        owner = instance_class(ctx, expr.value, scope, depth + 1)
        assignments = field_assignments(ctx, owner[0], expr.attr.value) if owner is not None else None
        values = assignments or []
    return _every_value_says(values, lambda value, value_scope: array_hashing_object(
        ctx, value, value_scope, depth + 1))


def array_hashing_elements(ctx: FileContext, expr: cst.BaseExpression, scope: Scope,
                           depth: int = 0) -> Optional[str]:
    """The same for an element of a sequence: ``[eqx.nn.Linear(...) for k in keys]``, a list
    display holding one, or a name or ``self.attr`` bound to those."""
    if depth > 4:
        return None
    if isinstance(expr, (cst.List, cst.Tuple)):
        return first_of_elements(expr, lambda value: array_hashing_object(ctx, value, scope, depth + 1))
    if isinstance(expr, (cst.ListComp, cst.GeneratorExp)):
        return array_hashing_object(ctx, expr.elt, ctx.model.scope_of.get(expr, scope), depth + 1)
    values: list[tuple[cst.BaseExpression, Scope]] = []
    if isinstance(expr, cst.Name):
        values = [(v.value, v.binding.scope) for v in reaching_values(value_flow(ctx), expr, scope)
                  if v.value is not None]
    elif isinstance(expr, cst.Attribute):
        owner = instance_class(ctx, expr.value, scope, depth + 1)
        values = (field_assignments(ctx, owner[0], expr.attr.value) or []) if owner is not None else []
    return _every_value_says(values, lambda value, value_scope: array_hashing_elements(
        ctx, value, value_scope, depth + 1))


def _every_value_says(values: list[tuple[cst.BaseExpression, Scope]], judge) -> Optional[str]:
    """What ``judge`` says of the first of ``values`` when it says something of every one (a
    name is such an object only if every value reaching it is); None otherwise or if none."""
    found = None
    for value, value_scope in values:
        what = judge(value, value_scope)
        if what is None:
            return None
        found = found or what
    return found


def hashed_function_arguments(ctx: FileContext) -> Iterator[tuple[cst.Arg, str, str, bool, Scope]]:
    """(argument, callee, parameter, a sequence?, scope of the call) for each argument of a lax function that hashes
    its function arguments (``jaxfacts.HASHED_FUNCTION_PARAMS``), eager or traced."""
    for site, qualname, params in _calls_in_table(ctx, HASHED_FUNCTION_PARAMS):
        for position, keyword, sequence in params:
            arg = argument(site.node, position, keyword)
            if arg is not None:
                yield (arg, qualname.replace("jax.lax.", "lax."), keyword,  # type: ignore[union-attr]
                       sequence, site.frame.scope)


@dataclass(frozen=True)
class TransformedStaticUse:
    """``jax.vmap(functools.partial(step, a, b))(xs)``: a transform hands its tracers to the
    jitted ``spec`` at a static ``position`` (after the arguments a partial binds first)."""

    arg: cst.CSTNode  # the argument of the transformed call that becomes the tracer
    call: cst.Call  # the call that hands it over
    function: cst.BaseExpression  # the jitted function as the transform is given it
    spec: StaticArgSpec
    position: int
    transform: str  # the transform's qualified name (``jax.vmap``)
    bound: int  # positional arguments a functools.partial binds before it


def transformed_static_uses(ctx: FileContext) -> list[TransformedStaticUse]:
    return ctx.shared("transformed-static-uses", _transformed_static_uses)


def _transformed_static_uses(ctx: FileContext) -> list[TransformedStaticUse]:
    """Calls ``T(f)(args)`` where ``T`` wraps its function (``jaxfacts.TRACING_CALLS``: vmap,
    pmap, grad) and ``f`` is a jitted function of this file or a ``functools.partial`` of one:
    the arguments that get tracers, mapped through the partial's bound positionals onto the
    jitted function's static positions."""
    model = ctx.model
    uses: list[TransformedStaticUse] = []
    for site in model.calls:
        uses.extend(_evaluated_static_uses(ctx, site))
        inner, inner_scope = site.node.func, site.frame.scope
        if isinstance(inner, cst.Name):  # ``pmapped = jax.pmap(f)`` then ``pmapped(a, b, flag)``
            made = origin(value_flow(ctx), inner, inner_scope, site.frame)
            inner, inner_scope = (made[0], made[1]) if made is not None else (None, inner_scope)
        if not isinstance(inner, cst.Call) or not inner.args:
            continue
        transform = model.qualified_name(inner.func, inner_scope)
        fact = TRACING_CALLS.get(transform) if transform is not None else None
        if fact is None or not fact.wraps:
            continue
        target = argument(inner, *fact.functions[0])
        if target is None:
            continue
        bound = 0
        function = target.value
        if isinstance(function, cst.Call) \
                and model.qualified_name(function.func, inner_scope) == "functools.partial":
            if not function.args or any(arg.star or arg.keyword is not None for arg in function.args):
                continue  # keywords or *args bound: which positions stay open is not read here
            bound = len(function.args) - 1
            function = function.args[0].value
        found = referenced_jit(ctx, function, site)
        if found is None or found[0].filtering or not found[0].checkable:
            continue
        spec, shift = found  # shift: the bound ``self`` of a jitted method
        args = site.node.args
        if any(arg.star or arg.keyword is not None for arg in args):
            continue
        handed = _handed_positions(model, fact, inner, len(args), inner_scope)
        if handed is None:
            continue
        first = shift + bound
        static = spec.static_positions(first + len(args), exact=True)
        uses.extend(TransformedStaticUse(args[index], site.node, function, spec, first + index, transform, bound)
                    for index in sorted(handed) if first + index in static)
    return uses


def _evaluated_static_uses(ctx: FileContext, site) -> list[TransformedStaticUse]:
    """``jax.vjp(f, x, a)`` / ``jax.jvp(f, (x, a), tangents)``: a transform that runs the jitted
    ``f`` at once hands every argument it is given to ``f`` as a tracer."""
    transform = ctx.model.qualified_name(site.node.func, site.frame.scope)
    fact = TRACING_CALLS.get(transform) if transform is not None else None
    if fact is None or (fact.arguments_from is None and fact.arguments_in is None):
        return []
    target = argument(site.node, *fact.functions[0])
    found = referenced_jit(ctx, target.value, site) if target is not None else None
    if found is None or found[0].filtering or not found[0].checkable:
        return []
    spec, shift = found
    if fact.arguments_from is not None:
        if any(arg.star for arg in site.node.args):
            return []  # ``*primals``: which argument lands where is not read here
        # the keywords are the transform's own (``has_aux=True``)
        handed = [arg for arg in site.node.args[fact.arguments_from:] if arg.keyword is None]
    else:
        primals = site.node.args[fact.arguments_in] if len(site.node.args) > fact.arguments_in else None
        if primals is None or primals.keyword is not None or not isinstance(primals.value, cst.Tuple) \
                or any(isinstance(e, cst.StarredElement) for e in primals.value.elements):
            return []
        handed = list(primals.value.elements)
    static = spec.static_positions(shift + len(handed), exact=True)
    return [TransformedStaticUse(arg, site.node, target.value, spec, shift + index, transform, 0)
            for index, arg in enumerate(handed) if shift + index in static]


def _handed_positions(model, fact: TracingCall, call: cst.Call, count: int, scope: Scope
                      ) -> Optional[set[int]]:
    """Which of ``count`` positional arguments of the transformed function get tracers:
    those ``in_axes`` does not map to None, or those ``argnums`` names (None: not known)."""
    def literal(param) -> Optional[cst.BaseExpression]:
        arg = argument(call, *param)
        value = arg.value if arg is not None else None
        if isinstance(value, cst.Name) and value.value != "None":  # ``axis = 0`` above
            binding = model.single_binding(value.value, scope)
            value = binding.value if binding is not None and binding.kind == "assign" else cst.Ellipsis()
        return value

    chosen = set(range(count))
    if fact.in_axes is not None:
        axes = literal(fact.in_axes)
        if isinstance(axes, (cst.Tuple, cst.List)):
            chosen = {i for i, e in enumerate(axes.elements)
                      if not (isinstance(e.value, cst.Name) and e.value.value == "None")}
        elif axes is not None and not isinstance(axes, cst.Integer):
            return None
    if fact.argnums is not None:
        argnums = literal(fact.argnums)
        if argnums is None:
            chosen = {0}
        elif isinstance(argnums, cst.Integer):
            chosen = {int(argnums.value)}
        else:
            return None
    return chosen & set(range(count))
