"""Shared analysis for the static-argument rules (JIT2xx, JIT3xx, JIT4xx, JIT7xx).

``static_uses(ctx)`` finds every call of a jitted function this file can see — defined here, or
imported from another module of the linted tree through ``ctx.index`` — and maps each argument
to its parameter the way ``jax.jit`` does (``StaticArgSpec.effective_static``; a negative
argnum counts from the number of positional arguments passed).  The rules then ask what the
value at a static position is: unhashable (JIT301), created anew on every run (JIT201, JIT402),
a loop counter (JIT401, JIT403).  Anything not understood stays silent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import libcst as cst

from jitlint.rule import FileContext
from jitlint.rules._fresh import function_may_repeat, function_repeats, inside_jitted_body, site_repeats
from jitlint.semantic import Binding, CallSite, Frame, Scope
from jitlint.staticargs import (
    IDENTITY, UNHASHABLE, StaticArgSpec, absolute, module_name_for, resolve_class, spec_errors,
    spec_of,
)

PARTIALS = frozenset({"functools.partial"})
ARRAY_MODULES = ("numpy.", "jax.numpy.")
ARRAY_CONSTRUCTORS = frozenset({
    "array", "asarray", "zeros", "ones", "full", "empty", "arange", "linspace", "eye", "identity",
    "zeros_like", "ones_like", "full_like", "empty_like", "stack", "concatenate",
})
ARITHMETIC = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide, cst.Power)
# builtin name -> (what it makes, the fix)
UNHASHABLE_BUILTINS = {
    "list": ("a list", "pass a tuple"),
    "dict": ("a dict", "pass a tuple of (key, value) pairs or a frozen dataclass"),
    "set": ("a set", "pass a frozenset"),
    "bytearray": ("a bytearray", "pass bytes"),
    "slice": ("a slice", "pass (start, stop, step) as a tuple"),
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

    @property
    def value(self) -> cst.BaseExpression:
        return self.arg.value

    @property
    def scope(self) -> Scope:
        return self.site.frame.scope

    def where(self) -> str:
        if self.position is None:
            return f"static argument `{self.param}` (keyword) of `{self.callee}`"
        return f"static argument `{self.param}` (position {self.position}) of `{self.callee}`"


def static_uses(ctx: FileContext) -> list[StaticUse]:
    return ctx.shared("static-uses", _compute)


def specs(ctx: FileContext) -> list[tuple[object, StaticArgSpec]]:
    """(jit application, spec) for every application whose target this file shows."""
    return ctx.shared("static-specs", lambda c: [
        (app, spec) for app in c.jit_applications
        if (spec := spec_of(app, c.model)) is not None])


def module_info(ctx: FileContext) -> tuple[Optional[str], bool]:
    name, is_package = module_name_for(ctx.path)
    return ctx.model.module_name or name, is_package


def _compute(ctx: FileContext) -> list[StaticUse]:
    callees = _Callees(ctx)
    uses: list[StaticUse] = []
    for site in ctx.model.calls:
        found = callees.lookup(site)
        if found is None:
            continue
        spec, shift = found
        if not spec.checkable or inside_jitted_body(ctx, site.frame):
            continue  # calls while tracing are inlined into the outer function
        uses.extend(_map_arguments(site, spec, shift))
    return uses


def _map_arguments(site: CallSite, spec: StaticArgSpec, shift: int) -> list[StaticUse]:
    args = site.node.args
    positional = []
    for arg in args:
        if arg.star:
            break
        if arg.keyword is None:
            positional.append(arg)
    exact = not any(arg.star == "*" for arg in args)
    argnums, argnames = spec.effective_static()
    n_passed = len(positional) + shift
    static_nums = {n % n_passed if n < 0 else n for n in argnums if n >= 0 or (exact and n_passed)}
    uses = []
    for index, arg in enumerate(positional):
        position = index + shift
        param = spec.param_at(position)
        if spec.filtering or position in static_nums:
            if param is None and not spec.varargs:
                continue  # too many arguments: a TypeError of its own
            uses.append(StaticUse(site, spec.name, spec, arg, param or f"*{position}", position))
    for arg in args:
        if arg.keyword is not None and (spec.filtering or arg.keyword.value in argnames):
            uses.append(StaticUse(site, spec.name, spec, arg, arg.keyword.value, None))
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
        for app, spec in specs(ctx):
            if app.call is not None:
                self.by_call[app.call] = spec
            if isinstance(app.target, cst.FunctionDef):
                frame = self.model.functions[app.target]
                if frame.scope.kind == "class":
                    if spec.method:
                        cls = frame.scope.node
                        assert isinstance(cls, cst.ClassDef)
                        self.methods[(cls, app.target.name.value)] = spec
                    continue
                binding = _binding_of(frame.scope, app.target.name.value, app.target)
                if binding is not None:
                    self.by_binding[binding] = (spec, None)
            else:
                statement = self.model.parent_statement.get(app.anchor)
                if isinstance(statement, cst.Assign) and len(statement.targets) == 1 \
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
        if isinstance(func, cst.Call):
            spec = self.by_call.get(func)
            return (spec, 0) if spec is not None else None
        if isinstance(func, cst.Name):
            bindings = self.model.lookup(func.value, scope)
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
            if bindings and any(b.kind != "import" for b in bindings):
                return None
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
            method = self._method(func, scope)
            if method is not None:
                return method, 1
        if self.index is None:
            return None
        qualname = self.model.qualified_name(func, scope)
        if qualname is None:
            return None
        spec = self.index.function(absolute(qualname, self.module_name, self.is_package))
        if spec is None or spec.method:
            return None
        return spec, 0

    def _method(self, func: cst.Attribute, scope: Scope) -> Optional[StaticArgSpec]:
        """``self.step(...)`` in the class that defines the jitted method ``step``."""
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
        return self.methods.get((cls, func.attr.value))

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
def unhashable(ctx: FileContext, expr: cst.BaseExpression, scope: Scope,
               depth: int = 0) -> Optional[tuple[str, str]]:
    """(what the value is, the fix) when ``expr`` certainly evaluates to an unhashable object."""
    if depth > 4:
        return None
    for node_type, kind in LITERALS.items():
        if isinstance(expr, node_type):
            return UNHASHABLE_BUILTINS[kind]
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
        qualname = ctx.model.qualified_name(func, scope)
        if qualname is not None and qualname.startswith(ARRAY_MODULES) \
                and qualname.rsplit(".", 1)[-1] in ARRAY_CONSTRUCTORS:
            what = "a NumPy array" if qualname.startswith("numpy.") else "a jax Array"
            return what, "pass it as a traced (non-static) argument, or pass a tuple"
        cls = class_verdict(ctx, func, scope)
        if cls is not None and cls[1] == UNHASHABLE:
            if cls[2] == "dataclass":
                return (f"an instance of `{cls[0]}`, a non-frozen @dataclass (eq=True sets "
                        f"__hash__ to None)", "make the dataclass frozen (@dataclass(frozen=True))")
            return (f"an instance of `{cls[0]}`, which defines __eq__ without __hash__",
                    f"define `{cls[0]}.__hash__` consistent with __eq__")
        return None
    if isinstance(expr, cst.Name):
        binding = _single_assignment(ctx, expr, scope)
        if binding is not None:
            return unhashable(ctx, binding.value, binding.scope, depth + 1)  # type: ignore[arg-type]
    return None


def _single_assignment(ctx: FileContext, name: cst.Name, scope: Scope) -> Optional[Binding]:
    """The one ``name = value`` that reaches every read of ``name`` (flow-insensitive)."""
    binding = ctx.model.single_binding(name.value, scope)
    if binding is None or binding.kind != "assign" or binding.value is None:
        return None
    statement = binding.node
    if isinstance(statement, cst.Assign) and (
            len(statement.targets) != 1 or not isinstance(statement.targets[0].target, cst.Name)):
        return None
    return binding


def class_verdict(ctx: FileContext, expr: cst.BaseExpression, scope: Scope) -> Optional[tuple[str, str, str]]:
    module_name, is_package = module_info(ctx)
    return resolve_class(expr, scope, ctx.model, getattr(ctx, "index", None), module_name, is_package)


# ---------------------------------------------------------------------------- fresh values
@dataclass(frozen=True)
class Fresh:
    kind: str  # lambda | def | partial | instance | bound-method | jit
    what: str
    fix: str
    when: str  # "on every iteration" | "on every call of `f`"


FRESH_TEXT = {
    "lambda": ("a lambda", "hoist the lambda: define it once and pass the same object"),
    "def": ("a nested function", "define the function once at module level and pass it"),
    "partial": ("a new functools.partial", "build the partial once, outside the loop, and reuse it"),
    "bound-method": ("a bound method of a new object", "create the object once and reuse it"),
    "jit": ("a jitted function created anew", "jit the function once (at module level) and pass that same object"),
}


def fresh_value(ctx: FileContext, use: StaticUse) -> Optional[Fresh]:
    """The static value is a new object each time the call runs, hashed by identity."""
    created = _created(ctx, use.value, use.scope, use.site.frame)
    if created is None:
        return None
    kind, creation, label = created
    site = use.site
    for loop in site.frame.loops_in_scope():
        if creation.is_inside(loop):
            return _fresh(kind, label, "on every iteration")
    scope = site.frame.scope
    if creation.scope is scope and scope.kind == "function" and not creation.loops_in_scope():
        function = scope.node
        assert isinstance(function, cst.FunctionDef)
        # A jitted function built per call is a new cache key on every call of the function,
        # whether or not its callers are in view (issue 13's repetition model, JIT201).
        if function_repeats(ctx, function) or kind == "jit" and function_may_repeat(ctx, function):
            return _fresh(kind, label, f"on every call of `{function.name.value}`")
    return None


def _fresh(kind: str, label: Optional[str], when: str) -> Fresh:
    if kind == "instance":
        return Fresh(kind, f"a new `{label}()` instance, which hashes by identity",
                     "create it once and reuse it, or make the class a frozen dataclass "
                     "(or give it __eq__ and __hash__)", when)
    what, fix = FRESH_TEXT[kind]
    return Fresh(kind, what, fix, when)


def _created(ctx: FileContext, expr: cst.BaseExpression, scope: Scope,
             frame: Frame) -> Optional[tuple[str, Frame, Optional[str]]]:
    """(kind, the frame where the object is created, class name) for a fresh identity-hashed object."""
    origin = ctx.model.value_origin(expr, scope, frame)
    if origin is None:
        return None
    node, scope, frame = origin
    if isinstance(node, cst.FunctionDef):
        if scope.kind != "function":
            return None
        jitted = any(ctx.resolver.resolve(d.decorator, scope) is not None for d in node.decorators)
        return ("jit" if jitted else "def"), frame, None
    if isinstance(node, cst.Lambda):
        return "lambda", frame, None
    if isinstance(node, cst.Call):
        if ctx.resolver.resolve(node.func, scope) is not None and any(
                a.keyword is None and not a.star for a in node.args):
            return "jit", frame, None
        if ctx.model.qualified_name(node.func, scope) in PARTIALS:
            return "partial", frame, None
        cls = class_verdict(ctx, node.func, scope)
        if cls is not None and cls[1] == IDENTITY:
            return "instance", frame, cls[0]
        return None
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Call):
        if class_verdict(ctx, node.value.func, scope) is not None:
            return "bound-method", frame, None
    return None


# ---------------------------------------------------------------------------- loop counters
def loop_counter(ctx: FileContext, expr: cst.BaseExpression, site: CallSite) -> Optional[str]:
    """The name of a ``range``/``enumerate`` counter that ``expr`` changes with, per iteration.

    Only values that take a new value every iteration: the counter, ``float(i)``, arithmetic
    of it with constants.  ``i % 2``, ``i > 0`` and the like take few values: silent.
    """
    if isinstance(expr, cst.Name):
        return expr.value if _is_counter(ctx, expr, site) else None
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        return loop_counter(ctx, expr.expression, site)
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, ARITHMETIC):
        left, right = loop_counter(ctx, expr.left, site), loop_counter(ctx, expr.right, site)
        if left and (right or _constant(ctx, expr.right, site.frame.scope)):
            return left
        if right and _constant(ctx, expr.left, site.frame.scope):
            return right
        return None
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) \
            and expr.func.value in ("float", "int") and len(expr.args) == 1 \
            and not ctx.model.lookup(expr.func.value, site.frame.scope):
        return loop_counter(ctx, expr.args[0].value, site)
    return None


def _constant(ctx: FileContext, expr: cst.BaseExpression, scope: Scope) -> bool:
    if isinstance(expr, (cst.Integer, cst.Float)):
        return True
    if isinstance(expr, cst.Name):
        binding = _single_assignment(ctx, expr, scope)
        return binding is not None and isinstance(binding.value, (cst.Integer, cst.Float))
    return False


def _is_counter(ctx: FileContext, name: cst.Name, site: CallSite) -> bool:
    scope = site.frame.scope
    binding = ctx.model.single_binding(name.value, scope)
    if binding is None or binding.kind != "loop-target" or binding.scope is not scope:
        return False
    loop = binding.node
    if isinstance(loop, cst.For):
        target, iterable = loop.target, loop.iter
        if not site.frame.is_inside(loop):  # the loop's frame covers its body only
            return False
    elif isinstance(loop, cst.CompFor):
        target, iterable = loop.target, loop.iter
    else:
        return False
    if not isinstance(iterable, cst.Call) or not isinstance(iterable.func, cst.Name) \
            or ctx.model.lookup(iterable.func.value, scope):
        return False
    if iterable.func.value == "range":
        return isinstance(target, cst.Name) and target.value == name.value
    if iterable.func.value == "enumerate" and isinstance(target, cst.Tuple) and target.elements:
        first = target.elements[0].value
        return isinstance(first, cst.Name) and first.value == name.value
    return False


# ---------------------------------------------------------------------------- bad specs
def spec_problems(ctx: FileContext) -> list[tuple[str, cst.CSTNode, str]]:
    """(keyword, node to point at, message) for each spec jax.jit rejects when applied."""
    return ctx.shared("static-spec-problems", _spec_problems)


def _spec_problems(ctx: FileContext) -> list[tuple[str, cst.CSTNode, str]]:
    problems = []
    for app, spec in specs(ctx):
        for keyword, message in spec_errors(spec):
            node = next((a for a in reversed(app.keywords)
                         if a.keyword is not None and a.keyword.value == keyword), app.anchor)
            problems.append((keyword, node, message))
    return problems
