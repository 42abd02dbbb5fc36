"""Shared analysis for JIT1xx: jit applied to a callable that is created anew on every run.

JAX caches compiled code on the identity of the wrapped callable.  ``jax.jit(X)`` compiles
again whenever X is a new object, so it costs a compile per run when

* X is *created* in the code that repeats (a lambda, a nested ``def``, a ``partial(...)``,
  a bound method, a transformed function), and
* that code *does* repeat and the jitted result is called each time: the jit sits in a loop
  body and is called in the same iteration, or in a function body that calls it (outside any
  loop of its own) while that function is itself called repeatedly, or in a factory whose
  result is called right away in a loop.

Everything else stays silent on purpose: a jit hoisted out of its loop, a lambda built once,
lazy initialisation (``if f is None: f = jax.jit(...)``), memoised factories, ``main()`` that
builds once and loops, and any jit inside a jitted body (it only runs while tracing).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Optional

import libcst as cst

from jitlint.jitnames import JitApplication
from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._jitted import name_loads
from jitlint.semantic import Binding, CallSite, Frame, Scope, SemanticModel
from jitlint.walk import iter_nodes

PARTIAL_CONSTRUCTORS = frozenset({"functools.partial", "jax.tree_util.Partial"})
TRANSFORMS = frozenset({
    "jax.grad", "jax.value_and_grad", "jax.vmap", "jax.jacfwd", "jax.jacrev", "jax.hessian",
    "jax.checkpoint", "jax.remat", "jax.named_call",
    "equinox.filter_grad", "equinox.filter_value_and_grad", "equinox.filter_vmap",
})
MEMOISERS = frozenset({"functools.cache", "functools.lru_cache"})
CACHE_CLEARERS = frozenset({"jax.clear_caches"})

# kind -> what the message calls the jitted callable
KINDS = {
    "lambda": "a lambda",
    "local-def": "a locally defined function",
    "partial": "a partial built in place",
    "bound-method": "a bound method",
    "transformed": "a freshly transformed or instantiated callable",
    "jit-of-jit": "a jit-wrapped function created on each run (jit of jit)",
}


@dataclass(eq=False)
class FreshJit:
    app: JitApplication
    kind: str  # a key of KINDS
    repetition: str  # "loop" | "function" | "factory"
    function: Optional[cst.FunctionDef] = None  # the function whose every call compiles
    evidence: Optional[CallSite] = None  # factory: the repeated call of the factory

    def message(self) -> str:
        jit = self.app.jit.display
        what = KINDS[self.kind]
        if self.repetition == "loop":
            fix = ("jit the method once before the loop and reuse it" if self.kind == "bound-method"
                   else "create the function once and hoist the jit out of the loop")
            return f"{jit} of {what} inside a loop compiles on every iteration; {fix}"
        name = self.function.name.value if self.function is not None else "?"
        if self.repetition == "function":
            fix = ("jit it once (e.g. in __init__) and reuse it" if self.kind == "bound-method"
                   else "jit a module-level function once and reuse it")
            return f"{jit} of {what} in `{name}` compiles on every call of `{name}`; {fix}"
        return (f"{jit} of {what} is returned by `{name}`, whose result is called right away "
                f"on every iteration; every call compiles, so build it once or memoise `{name}` "
                f"with functools.cache")


def fresh_jits(ctx: FileContext) -> list[FreshJit]:
    return ctx.shared("fresh-jits", _analyse)


def _analyse(ctx: FileContext) -> list[FreshJit]:
    analysis = _Analysis(ctx)
    found = []
    for app in ctx.jit_applications:
        result = analysis.check(app)
        if result is not None:
            found.append(result)
    return found


class _Analysis:
    def __init__(self, ctx: FileContext) -> None:
        self.ctx = ctx
        self.model: SemanticModel = ctx.model
        self.jitted_defs = self._jitted_defs()
        self._repeated: dict[cst.FunctionDef, bool] = {}

    # ---------------------------------------------------------------- entry point
    def check(self, app: JitApplication) -> Optional[FreshJit]:
        if self._inside_jitted_body(app.frame):
            return None  # runs only while the outer function is traced, then inlined
        if _keyword_is_true(app, "inline"):
            return None  # inline=True: meant to be traced inside another jit
        created = self._classify(app)
        if created is None:
            return None
        kind, creation, callable_node = created
        scope = app.frame.scope
        for loop in app.frame.loops_in_scope():
            if creation.is_inside(loop):
                if self._reads_loop_target(callable_node, loop, creation):
                    return None  # each iteration is a different program (e.g. autotuning)
                if self._clears_cache(loop, scope):
                    return None  # a cold-compile benchmark: the compiles are what it measures
                if self._result_called(app, lambda frame: frame.is_inside(loop)):
                    return FreshJit(app, kind, "loop")
                return None
        if scope.kind != "function" or creation.scope is not scope:
            return None
        function = scope.node
        assert isinstance(function, cst.FunctionDef)
        if self._is_memoised(function):
            return None
        if self._result_called(app, lambda frame: frame.scope is scope, outside_loops=True):
            if self._is_repeated(function) and not self._configured_per_call(function, callable_node, creation):
                return FreshJit(app, kind, "function", function)
            return None
        if self._is_returned(app):
            evidence = self._repeated_immediate_call(function)
            if evidence is not None:
                return FreshJit(app, kind, "factory", function, evidence)
        return None

    # ---------------------------------------------------------------- what is jitted
    def _classify(self, app: JitApplication) -> Optional[tuple[str, Frame, cst.CSTNode]]:
        """(kind, frame where the callable is created, the creating node), when it is
        created anew each run."""
        if isinstance(app.target, cst.FunctionDef):
            return "local-def", app.frame, app.target
        return self._classify_expr(app.target, app.frame.scope, app.frame)

    def _classify_expr(self, expr: cst.BaseExpression, scope: Scope,
                       creation: Frame) -> Optional[tuple[str, Frame, cst.CSTNode]]:
        origin = self.model.value_origin(expr, scope, creation)
        if origin is None:
            return None
        node, scope, creation = origin
        if isinstance(node, cst.FunctionDef):
            return "local-def", creation, node
        if isinstance(node, cst.Lambda):
            return "lambda", creation, node
        if isinstance(node, cst.Call):
            callee = self.model.qualified_name(node.func, scope)
            if callee in PARTIAL_CONSTRUCTORS:
                return "partial", creation, node
            if callee in TRANSFORMS:
                return "transformed", creation, node
            if self.ctx.resolver.resolve(node.func, scope) is not None and _wraps_callable(node):
                return "jit-of-jit", creation, node  # jax.jit(jax.jit(f)): the inner wrapper is new
            if self._is_fresh_callable_instance(node, scope):
                return "transformed", creation, node
            return None
        if isinstance(node, cst.Attribute) and self._is_bound_method(node, scope):
            return "bound-method", creation, node
        return None

    def _reads_loop_target(self, node: cst.CSTNode, loop: cst.CSTNode, creation: Frame) -> bool:
        """Does the callable read a target of ``loop`` (``for k in ...: jit(lambda: ... k)``)?

        Then every iteration builds a genuinely different program, and hoisting is not a fix.
        """
        scope = self.model.scope_of.get(node) or creation.scope
        for name in {loaded.value for loaded in name_loads(node)}:
            for binding in self.model.lookup(name, scope):
                if binding.kind == "loop-target" and (binding.node is loop or binding.scope.node is loop):
                    return True
        return False

    def _clears_cache(self, loop: cst.CSTNode, scope: Scope) -> bool:
        """The loop calls ``jax.clear_caches()``: every iteration compiles from scratch."""
        return any(isinstance(node, cst.Call) and self.model.qualified_name(node.func, scope) in CACHE_CLEARERS
                   for node in iter_nodes(loop))

    def _configured_per_call(self, function: cst.FunctionDef, node: cst.CSTNode, creation: Frame) -> bool:
        """Is ``function`` repeated only by a few call sites, none in a loop, each a different
        program: they pass different values for a parameter the jitted callable closes over
        (``pplotter(..., xN)`` then ``pplotter(..., xN * 4)`` sizing an image), or arrays of
        different literal shapes (``normalise(jnp.ones(3))``, ``normalise(jnp.ones(7))``)?
        Then, as for a loop over configurations, hoisting the jit saves nothing and the
        compiles are bounded by the call sites."""
        sites = self._call_sites(function)
        if len(sites) < 2 or any(self._site_repeats(site) for site in sites):
            return False
        scope = self.model.scope_of.get(node) or creation.scope
        function_scope = self.model.scope_of[function]
        closed_over = {loaded.value for loaded in name_loads(node)
                       if any(b.kind == "param" and b.scope is function_scope
                              for b in self.model.lookup(loaded.value, scope))}
        params = function.params
        positional = [p.name.value for p in (*params.posonly_params, *params.params)]
        for param in positional + [p.name.value for p in params.kwonly_params]:
            index = positional.index(param) if param in positional else None
            arguments = [_argument(site.node, param, index) for site in sites]
            if param in closed_over and len({_source(a) for a in arguments}) > 1:
                return True
            shapes = [self._literal_shape(a, site.frame.scope) for a, site in zip(arguments, sites)]
            if None not in shapes and len(set(shapes)) > 1:
                return True
        return False

    def _literal_shape(self, expr: Optional[cst.BaseExpression], scope: Scope) -> Optional[str]:
        """``jnp.ones((3, 4))`` -> "(3, 4)": the shape of an array built from a literal."""
        if not isinstance(expr, cst.Call) or not expr.args:
            return None
        qualname = self.model.qualified_name(expr.func, scope) or ""
        module, _, name = qualname.rpartition(".")
        if module in ("jax.numpy", "numpy") and name in ("zeros", "ones", "empty", "full"):
            shape = expr.args[0].value
        elif qualname.startswith("jax.random.") and len(expr.args) >= 2:
            shape = expr.args[1].value
        else:
            return None
        if isinstance(shape, cst.Integer) or (isinstance(shape, cst.Tuple) and all(
                isinstance(e.value, cst.Integer) for e in shape.elements)):
            return _source(shape)
        return None

    def _is_fresh_callable_instance(self, call: cst.Call, scope: Scope) -> bool:
        """``Model()`` of a class in this module that has ``__call__`` and identity hashing."""
        cls = self._class_of(call.func, scope)
        if cls is None or cls.decorators:
            return False  # decorated classes (dataclasses ...) may define equality
        methods = _methods(cls)
        return "__call__" in methods and "__eq__" not in methods and "__hash__" not in methods

    def _class_of(self, expr: cst.BaseExpression, scope: Scope) -> Optional[cst.ClassDef]:
        if not isinstance(expr, cst.Name):
            return None
        binding = self.model.single_binding(expr.value, scope)
        if binding is not None and binding.kind == "class":
            assert isinstance(binding.node, cst.ClassDef)
            return binding.node
        return None

    def _is_bound_method(self, expr: cst.Attribute, scope: Scope) -> bool:
        """``self.m`` / ``obj.m`` / ``Cls.cm``: each access makes a new method object."""
        attr = expr.attr.value
        base = expr.value
        if not isinstance(base, cst.Name):
            return False
        cls = self._class_of(base, scope)
        if cls is not None:  # Cls.m: only classmethods are bound
            method = _methods(cls).get(attr)
            return method is not None and _has_decorator(method, "classmethod")
        cls = self._instance_class(base, scope)
        if cls is None:
            return False
        method = _methods(cls).get(attr)
        return method is not None and not _has_decorator(method, "staticmethod") \
            and not _has_decorator(method, "property")

    def _instance_class(self, name: cst.Name, scope: Scope) -> Optional[cst.ClassDef]:
        """The class of this module that ``name`` is an instance of: ``self`` in a method,
        or a variable assigned once from ``Cls(...)``."""
        binding = self.model.single_binding(name.value, scope)
        if binding is None:
            return None
        if binding.kind == "param":
            return self._class_of_self(binding)
        if binding.kind == "assign" and isinstance(binding.value, cst.Call):
            return self._class_of(binding.value.func, binding.scope)
        return None

    def _class_of_self(self, param: Binding) -> Optional[cst.ClassDef]:
        """The class whose method has ``param`` as its first parameter (``self``)."""
        function = param.scope.node
        if not isinstance(function, cst.FunctionDef) or _has_decorator(function, "staticmethod"):
            return None
        params = [*function.params.posonly_params, *function.params.params]
        if not params or params[0] is not param.node:
            return None
        outer = self.model.functions[function]
        if outer.scope.kind == "class":
            node = outer.scope.node
            assert isinstance(node, cst.ClassDef)
            return node
        return None

    # ---------------------------------------------------------------- how the result is used
    def _result_called(self, app: JitApplication, within, outside_loops: bool = False) -> bool:
        """Is the jitted result called in the region ``within`` selects (and not lazily built)?"""
        if app.call is not None and self.model.call_site_of[app.call].called_immediately:
            return True
        binding = self._result_binding(app)
        if binding is None:
            return False
        if any(_mentions(if_node.test, binding.name) for if_node in app.frame.ifs_in_scope()):
            return False  # lazy initialisation: built once, then reused
        calls = [site for site in self.model.calls_to(binding) if within(site.frame)]
        if outside_loops and any(site.frame.loops_in_scope() for site in calls):
            return False  # built once per call, then reused in a loop: amortised
        return bool(calls)

    def _result_binding(self, app: JitApplication) -> Optional[Binding]:
        """The local name the jitted callable is bound to, if any."""
        if isinstance(app.target, cst.FunctionDef):
            name, node = app.target.name.value, app.target
        else:
            statement = self.model.parent_statement.get(app.anchor)
            if not isinstance(statement, cst.Assign) or len(statement.targets) != 1:
                return None
            target = statement.targets[0].target
            if not isinstance(target, cst.Name):
                return None
            name, node = target.value, statement
        binding = self.model.single_binding(name, app.frame.scope)
        return binding if binding is not None and binding.node is node else None

    def _is_returned(self, app: JitApplication) -> bool:
        if isinstance(self.model.parent_statement.get(app.anchor), cst.Return):
            return True
        binding = self._result_binding(app)
        if binding is None:
            return False
        if any(_mentions(if_node.test, binding.name) for if_node in app.frame.ifs_in_scope()):
            return False
        scope = app.frame.scope
        return any(
            frame.scope is scope and isinstance(ret.value, cst.Name) and ret.value.value == binding.name
            for ret, frame in self.model.returns
        ) and not self._stored_elsewhere(binding)

    def _stored_elsewhere(self, binding: Binding) -> bool:
        """``cache[key] = f`` / ``self._f = f``: a memo keeps the jitted callable alive."""
        for value, statement in self.model.parent_statement.items():
            if isinstance(statement, cst.Assign) and isinstance(value, cst.Name) \
                    and value.value == binding.name:
                if any(not isinstance(t.target, cst.Name) for t in statement.targets):
                    return True
        return False

    # ---------------------------------------------------------------- does the code repeat
    def _repeated_immediate_call(self, factory: cst.FunctionDef) -> Optional[CallSite]:
        for site in self._call_sites(factory):
            if site.called_immediately and self._site_repeats(site):
                return site
        return None

    def _is_repeated(self, function: cst.FunctionDef) -> bool:
        """Evidence in this module that ``function`` runs more than once."""
        if function in self._repeated:
            return self._repeated[function]
        self._repeated[function] = False  # cycle guard
        if function.name.value == "__call__":
            # A plain class's __call__ runs once per use.  A framework Module's (flax, haiku,
            # equinox: any base class we cannot see) usually runs under an outer jit trace.
            result = self._is_plain_class(self.model.functions[function].scope.node)
        else:
            sites = self._call_sites(function)
            result = len(sites) >= 2 or any(self._site_repeats(site) for site in sites)
        self._repeated[function] = result
        return result

    def _is_plain_class(self, cls: cst.CSTNode) -> bool:
        if not isinstance(cls, cst.ClassDef):
            return False
        for base in cls.bases:
            if isinstance(base.value, cst.Name) and base.value.value == "object":
                continue
            local = self._class_of(base.value, self.model.classes[cls].scope)
            if local is None or not self._is_plain_class(local):
                return False
        return True

    def _site_repeats(self, site: CallSite) -> bool:
        if site.frame.loops_in_scope():
            return True
        caller = site.frame.enclosing_function()
        return caller is not None and self._is_repeated(caller)

    def _call_sites(self, function: cst.FunctionDef) -> list[CallSite]:
        outer = self.model.functions[function]
        if outer.scope.kind == "class":  # a method: self.name(...), or obj.name(...) on an instance
            cls = outer.scope.node
            return [
                site for site in self.model.calls_named(function.name.value)
                if isinstance(site.node.func, cst.Attribute)
                and isinstance(site.node.func.value, cst.Name)
                and self._instance_class(site.node.func.value, site.frame.scope) is cls
            ]
        binding = next((b for b in outer.scope.bindings.get(function.name.value, ())
                        if b.node is function), None)
        return list(self.model.calls_to(binding)) if binding is not None else []

    def _is_memoised(self, function: cst.FunctionDef) -> bool:
        scope = self.model.functions[function].scope
        for decorator in function.decorators:
            expr = decorator.decorator
            if isinstance(expr, cst.Call):
                expr = expr.func
            if self.model.qualified_name(expr, scope) in MEMOISERS:
                return True
        return False

    # ---------------------------------------------------------------- jitted bodies
    def _jitted_defs(self) -> set[cst.FunctionDef]:
        jitted: set[cst.FunctionDef] = set()
        for app in self.ctx.jit_applications:
            if isinstance(app.target, cst.FunctionDef):
                jitted.add(app.target)
            elif isinstance(app.target, cst.Name):
                binding = self.model.single_binding(app.target.value, app.frame.scope)
                if binding is not None and isinstance(binding.node, cst.FunctionDef):
                    jitted.add(binding.node)
        return jitted

    def _inside_jitted_body(self, frame: Frame) -> bool:
        return any(isinstance(f.node, cst.FunctionDef) and f.node in self.jitted_defs for f in frame)


def _argument(call: cst.Call, param: str, index: Optional[int]) -> Optional[cst.BaseExpression]:
    """The argument ``call`` passes for ``param`` (None: the default, or unknown)."""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == param:
            return arg.value
    positional = [a for a in call.args if a.keyword is None and not a.star]
    if index is not None and index < len(positional) and not any(a.star for a in call.args):
        return positional[index].value
    return None


def _source(node: Optional[cst.CSTNode]) -> Optional[str]:
    return cst.Module([]).code_for_node(node) if node is not None else None


def _methods(cls: cst.ClassDef) -> dict[str, cst.FunctionDef]:
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    return {stmt.name.value: stmt for stmt in body if isinstance(stmt, cst.FunctionDef)}


def _has_decorator(function: cst.FunctionDef, name: str) -> bool:
    return any(isinstance(d.decorator, cst.Name) and d.decorator.value == name for d in function.decorators)


def _keyword_is_true(app: JitApplication, name: str) -> bool:
    return any(arg.keyword is not None and arg.keyword.value == name
               and isinstance(arg.value, cst.Name) and arg.value.value == "True"
               for arg in app.keywords)


def _mentions(expr: cst.BaseExpression, name: str) -> bool:
    """Whether ``expr`` reads ``name`` (as a variable or as an attribute name)."""
    found = False

    class _Finder(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            nonlocal found
            found = found or node.value == name

    expr.visit(_Finder())
    return found



class FreshCallableRule(Rule):
    """Base of the JIT1xx rules: each reports the fresh jits of one ``kind``."""

    kind: str

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        for fresh in fresh_jits(ctx):
            if fresh.kind == self.kind:
                yield Violation(fresh.app.anchor, fresh.message())


def _wraps_callable(call: cst.Call) -> bool:
    return any(arg.keyword is None and not arg.star for arg in call.args)


# Shared with the static-argument rules (JIT2xx/JIT4xx): does code run more than once?
def _shared_analysis(ctx: FileContext) -> "_Analysis":
    return ctx.shared("fresh-analysis", _Analysis)


def inside_jitted_body(ctx: FileContext, frame: Frame) -> bool:
    """Code in a jitted body runs only while tracing (then it is inlined)."""
    return _shared_analysis(ctx)._inside_jitted_body(frame)


def site_repeats(ctx: FileContext, site: CallSite) -> bool:
    """Evidence in this module that the call ``site`` runs more than once."""
    return _shared_analysis(ctx)._site_repeats(site)


def function_repeats(ctx: FileContext, function: cst.FunctionDef) -> bool:
    """Evidence in this module that ``function`` runs more than once (and is not memoised)."""
    analysis = _shared_analysis(ctx)
    return not analysis._is_memoised(function) and analysis._is_repeated(function)
