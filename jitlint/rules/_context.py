"""Calling context: how a function of this module runs, judged from how the module calls it.

Every rule that asks "does this code run eagerly, and how often?" asks this one analysis
(``calling_context(ctx)``) instead of keeping a guess of its own.  A function runs

* **traced** (``TRACED``) when it is jitted or handed to a transform anywhere in the module
  (``jax.jit(f)``, ``@jax.jit``, ``jax.vmap(f)``, ``jax.grad``, ``lax.scan``/``fori_loop``/
  ``while_loop``/``cond`` bodies, ``checkpoint``, ``pmap``, ``shard_map``, ``custom_vjp``,
  flax's and equinox's transforms ...), also as a bound method (``jax.jit(env.step)``,
  ``jax.jit(self.step)``: the receiver's class when it is known, else the one class of the
  module that defines a method of that name), or when every one of its callers in the module
  runs traced (a fixed point over the call graph).  A framework Module's ``__call__`` (a class
  whose bases we cannot see) runs under its caller's trace too.  Traced code runs once per
  trace of the outer jit, then the compiled program runs: what it builds costs nothing per
  call;
* **repeated** (``REPEATED``) when an eager caller calls it in a loop, or from a function that
  itself repeats, or two eager call sites call it (outside test files), or it is a plain
  class's ``__call__``;
* **once** (``ONCE``): module level, ``main``/entry points and functions handed to program
  runners (``absl.app.run``), ``__init__``/``setUp``-style construction, ``init``/``setup``/
  ``build``-named initialisation, CLI commands and
  fixtures (by decorator), tests and everything in test files, memoised functions, and
  functions whose every caller runs once;
* **unknown** (``UNKNOWN``): no caller in the module (a public function), or a caller whose
  own context is unknown.

A loop over a literal list or tuple of configurations (written inline, or through a name bound
once to one, or to a ``range``) runs once per distinct program: ``sweeps_configurations``.
"""

from __future__ import annotations

from functools import cached_property
import re
from typing import Iterator, NamedTuple, Optional

import libcst as cst

from jitlint.rule import FileContext
from jitlint.semantic import (COMPREHENSION_TYPES, Binding, CallSite, Frame, Scope, SemanticModel,
                              dotted_name)
from jitlint.values import origin, value_flow
from jitlint.walk import iter_nodes

TRACED = "traced"
REPEATED = "repeated"
ONCE = "once"
UNKNOWN = "unknown"

# Transforms that trace the functions handed to them (by the last part of their name, in
# JAX's and its ecosystem's namespaces).  ``tree_map`` and friends call eagerly: not here.
TRACING_TRANSFORMS = frozenset({
    "jit", "pjit", "pmap", "vmap", "grad", "value_and_grad", "jacfwd", "jacrev", "hessian",
    "jvp", "vjp", "linearize", "checkpoint", "remat", "named_call", "shard_map", "xmap",
    "eval_shape", "make_jaxpr", "custom_vjp", "custom_jvp", "custom_root",
    "custom_linear_solve", "scan", "fori_loop", "while_loop", "cond", "switch", "map",
    "associative_scan", "checkify", "filter_jit", "filter_pmap", "filter_vmap", "filter_grad",
    "filter_value_and_grad", "filter_checkpoint", "filter_custom_vjp", "filter_custom_jvp",
    "filter_eval_shape", "filter_make_jaxpr",
})
TRANSFORM_NAMESPACES = ("jax.", "equinox.", "flax.", "haiku.", "chex.", "diffrax.")
NOT_TRACING = ("jax.tree_util.", "jax.tree.", "jax.debug.", "jax.experimental.io_callback")
# ``f.defvjp(fwd, bwd)``: the rules of a custom derivative are traced with ``f``.
DERIVATIVE_RULES = frozenset({"defvjp", "defjvp", "defjvps", "def_fwd", "def_bwd"})
ECOSYSTEM = frozenset({"jax", "equinox", "flax", "haiku", "chex", "optax", "numpyro", "jaxtyping"})
MEMOISERS = frozenset({"functools.cache", "functools.lru_cache", "jax._src.util.cache",
                       "jax._src.util.weakref_lru_cache", "jax._src.util.memoize"})
MEMO_WORDS = re.compile(r"cache|memo|once", re.IGNORECASE)
PARTIAL_CONSTRUCTORS = frozenset({"functools.partial", "jax.tree_util.Partial"})
# Decorators that leave a function an ordinary function called as often as its callers call it.
PLAIN_DECORATORS = frozenset({"staticmethod", "classmethod", "property", "abc.abstractmethod",
                              "functools.wraps", "typing.overload", "typing_extensions.override",
                              "typing.override"})
# Functions that run once per program, object or test.
RUN_ONCE_NAMES = frozenset({
    "main", "_main", "cli", "run_main", "app_main", "train", "fit", "train_and_evaluate",
    "__init__", "__post_init__", "__new__", "__init_subclass__", "__set_name__", "__enter__",
    "setup", "setUp", "setUpClass", "setUpModule", "setup_method", "setup_class", "setup_module",
    "setup_function", "tearDown", "tearDownClass",
})
# Initialisation and setup functions: once per model, program or object.
SETUP_NAMES = re.compile(r"^_?(init|initialize|initialise|setup|build)(_|$)")
TEST_FILE = re.compile(r"(^|/)(test_[^/]*|[^/]*_test|[^/]*_tests|conftest)\.py$")
ENTRY_POINT_WORDS = re.compile(r"fixture|command|main|group|entrypoint|^cli$|^app$|^run$", re.IGNORECASE)
# Program runners: the function handed to them is the program's entry point (a sweep agent
# runs it once per trial, each with its own configuration: a distinct program each time).
RUNNERS = frozenset({"absl.app.run", "fire.Fire", "typer.run", "multiprocessing.Process",
                     "threading.Thread", "wandb.agent", "ray.tune.run", "ray.tune.Tuner"})


def calling_context(ctx: FileContext) -> "CallingContext":
    return ctx.shared("calling-context", CallingContext)


class CallingContext:
    def __init__(self, ctx: FileContext) -> None:
        self.ctx = ctx
        self.model: SemanticModel = ctx.model
        self.test_file = bool(TEST_FILE.search(ctx.path.replace("\\", "/")))
        self._traced: dict[cst.FunctionDef, bool] = {}
        self._how: dict[cst.FunctionDef, str] = {}

    # ---------------------------------------------------------------- the questions
    def how(self, function: cst.FunctionDef) -> str:
        """TRACED, REPEATED, ONCE or UNKNOWN (see the module's doc)."""
        if function in self._how:
            return self._how[function]
        self._how[function] = ONCE  # cycle guard: recursion adds no evidence either way
        result = self._compute_how(function)
        self._how[function] = result
        return result

    def runs_traced(self, frame: Frame) -> bool:
        """Code at ``frame`` runs only while an outer jit or transform traces it."""
        for f in frame:
            if isinstance(f.node, cst.FunctionDef) and self.traced(f.node):
                return True
            if isinstance(f.node, cst.Lambda) and f.node in self._handed.traced_lambdas:
                return True
        return False

    def traced(self, function: cst.FunctionDef) -> bool:
        if function in self._traced:
            return self._traced[function]
        self._traced[function] = False  # cycle guard
        result = function in self._handed.traced_defs or self._framework_call(function)
        if not result:
            sites = self.call_sites(function)
            result = bool(sites) and all(self.runs_traced(site.frame) for site in sites)
        self._traced[function] = result
        return result

    def site_repeats(self, site: CallSite) -> bool:
        """The eager call ``site`` runs more than once: in a loop, or in a repeated function."""
        if self.runs_traced(site.frame):
            return False
        if site.frame.loops_in_scope():
            return True
        caller = site.frame.enclosing_function()
        return caller is not None and self.how(caller) == REPEATED

    def site_runs_once(self, site: CallSite) -> bool:
        if self.runs_traced(site.frame):
            return True  # traced once per compile of the outer jit, then inlined
        if site.frame.loops_in_scope():
            return False
        caller = site.frame.enclosing_function()
        if caller is None:
            return not any(isinstance(f.node, cst.ClassDef) for f in site.frame)  # module level
        return self.how(caller) in (ONCE, TRACED)

    def call_sites(self, function: cst.FunctionDef) -> list[CallSite]:
        """Where the module calls ``function`` (recursive calls from its own body left out:
        they run wherever the function runs)."""
        outer = self.model.functions[function]
        if outer.scope.kind == "class":  # a method: self.name(...), or obj.name(...) on an instance
            cls = outer.scope.node
            sites = [
                site for site in self.model.calls_named(function.name.value)
                if isinstance(site.node.func, cst.Attribute)
                and isinstance(site.node.func.value, cst.Name)
                and self.instance_class(site.node.func.value, site.frame.scope) is cls
            ]
        else:
            binding = next((b for b in outer.scope.bindings.get(function.name.value, ())
                            if b.node is function), None)
            sites = list(self.model.calls_to(binding)) if binding is not None else []
        return [site for site in sites if not site.frame.is_inside(function)]

    def sweeps_configurations(self, loop: cst.CSTNode, scope: Scope, user: cst.CSTNode) -> bool:
        """``for n in (64, 128): run(n)`` / ``sizes = [...]; for n in sizes: run(n)``: a loop
        over a literal list (or a range bound to a name) whose item ``user`` reads runs once per
        distinct program."""
        if not isinstance(loop, cst.For) or not any(
                isinstance(node, cst.Name) and node.value in loop_targets(loop) for node in iter_nodes(user)):
            return False
        iterable = loop.iter
        if isinstance(iterable, cst.Name):  # the one definition reaching the loop
            made = origin(value_flow(self.ctx), iterable, scope, None)
            if made is None:
                return False
            iterable = made[0]
            if isinstance(iterable, cst.Call) and self.model.qualified_name(iterable.func, made[1]) == "range":
                return True
        return isinstance(iterable, (cst.List, cst.Tuple, cst.Set))

    def memoised(self, function: cst.FunctionDef) -> bool:
        scope = self.model.functions[function].scope
        for decorator in function.decorators:
            expr = decorator.decorator
            if isinstance(expr, cst.Call):
                expr = expr.func
            qualname = self.model.qualified_name(expr, scope) or dotted_name(expr)
            if qualname in MEMOISERS or MEMO_WORDS.search(qualname.rsplit(".", 1)[-1]):
                return True
        return False

    # ---------------------------------------------------------------- classes and instances
    def class_of(self, expr: cst.BaseExpression, scope: Scope) -> Optional[cst.ClassDef]:
        """The class of this module that ``expr`` names."""
        if not isinstance(expr, cst.Name):
            return None
        binding = self.model.single_binding(expr.value, scope)
        if binding is not None and binding.kind == "class":
            assert isinstance(binding.node, cst.ClassDef)
            return binding.node
        return None

    def instance_class(self, name: cst.Name, scope: Scope) -> Optional[cst.ClassDef]:
        """The class of this module that ``name`` is an instance of: ``self`` in a method,
        or a variable assigned once from ``Cls(...)``."""
        binding = self.model.single_binding(name.value, scope)
        if binding is None:
            return None
        if binding.kind == "param":
            return self._class_of_self(binding)
        if binding.kind == "assign" and isinstance(binding.value, cst.Call):
            return self.class_of(binding.value.func, binding.scope)
        return None

    def is_plain_class(self, cls: cst.CSTNode) -> bool:
        """A class whose bases are all in view and plain (no framework Module behind it)."""
        if not isinstance(cls, cst.ClassDef):
            return False
        for base in cls.bases:
            if isinstance(base.value, cst.Name) and base.value.value == "object":
                continue
            local = self.class_of(base.value, self.model.classes[cls].scope)
            if local is None or not self.is_plain_class(local):
                return False
        return True

    def _class_of_self(self, param: Binding) -> Optional[cst.ClassDef]:
        """The class whose method has ``param`` as its first parameter (``self``)."""
        function = param.scope.node
        if not isinstance(function, cst.FunctionDef) or has_decorator(function, "staticmethod"):
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

    # ---------------------------------------------------------------- how a function runs
    def _compute_how(self, function: cst.FunctionDef) -> str:
        if self.traced(function):
            return TRACED
        if self.memoised(function) or self.test_file:
            return ONCE
        sites = self.call_sites(function)
        if self._repeats(function, sites):
            return REPEATED
        if self._runs_once_by_role(function):
            return ONCE
        if sites:
            return ONCE if all(self.site_runs_once(site) for site in sites) else UNKNOWN
        return ONCE if function in self._handed.run_defs else UNKNOWN

    def _repeats(self, function: cst.FunctionDef, sites: list[CallSite]) -> bool:
        if function.name.value == "__call__":
            return self.is_plain_class(self.model.functions[function].scope.node)
        eager = [site for site in sites if not self.runs_traced(site.frame)]
        return len(eager) >= 2 or any(self.site_repeats(site) for site in eager)

    def _runs_once_by_role(self, function: cst.FunctionDef) -> bool:
        """An entry point, a constructor, a test, a fixture or CLI command: once per program,
        object or test."""
        name = function.name.value
        if name in RUN_ONCE_NAMES or name.startswith(("test", "main_")) or name.endswith("_main") \
                or SETUP_NAMES.match(name):
            return True
        if self._decorated_to_run_once(function):
            return True
        outer = self.model.functions[function]
        if outer.scope.kind == "class":
            cls = outer.scope.node
            assert isinstance(cls, cst.ClassDef)
            return cls.name.value.startswith("Test") or any(
                dotted_name(base.value).endswith("TestCase") for base in cls.bases)
        return False

    def _framework_call(self, function: cst.FunctionDef) -> bool:
        """A framework Module's ``__call__`` (flax, haiku, equinox: a base class we cannot see)
        runs under the outer jit's trace."""
        if function.name.value != "__call__":
            return False
        cls = self.model.functions[function].scope.node
        return isinstance(cls, cst.ClassDef) and not self.is_plain_class(cls)

    def _decorated_to_run_once(self, function: cst.FunctionDef) -> bool:
        """An entry point or fixture (``@click.command``, ``@hydra.main``, ``@pytest.fixture``),
        or a function handed to a JAX-ecosystem decorator: it runs once, or under a trace.
        Other decorators (``@prim.def_impl``, ``@wraps``) keep it a function called as often
        as its callers call it."""
        scope = self.model.functions[function].scope
        for decorator in function.decorators:
            expr = decorator.decorator
            if isinstance(expr, cst.Call):
                callee = self.model.qualified_name(expr.func, scope)
                expr = expr.args[0].value if callee in PARTIAL_CONSTRUCTORS and expr.args else expr.func
            qualname = self.model.qualified_name(expr, scope) or dotted_name(expr)
            if qualname in PLAIN_DECORATORS:
                continue
            if ENTRY_POINT_WORDS.search(qualname.rsplit(".", 1)[-1]):
                return True
            if qualname.split(".")[0] in ECOSYSTEM:
                return True
        return False

    # ---------------------------------------------------------------- what is handed to a transform
    @cached_property
    def _handed(self) -> "_Handed":
        """What the module hands to jits, transforms, program runners and other ecosystem
        functions."""
        traced: set[cst.FunctionDef] = set()
        lambdas: set[cst.Lambda] = set()
        handed_once: set[cst.FunctionDef] = set()
        for app in self.ctx.jit_applications:
            if isinstance(app.target, cst.FunctionDef):
                traced.add(app.target)
            elif isinstance(app.target, cst.Lambda):
                lambdas.add(app.target)
            else:
                traced.update(self._functions_named(app.target, app.frame.scope))
        for function, frame in self.model.functions.items():
            if any(self._is_transform(d.decorator, frame.scope) for d in function.decorators):
                traced.add(function)
        for site in self.model.calls:
            func = site.node.func
            scope = site.frame.scope
            if self._is_transform(func, scope):
                target = traced
            elif isinstance(func, cst.Attribute) and func.attr.value in DERIVATIVE_RULES:
                target = traced
            else:
                callee = self.model.qualified_name(func, scope) or ""
                if not (callee.split(".")[0] in ECOSYSTEM or callee in RUNNERS):
                    continue
                target = handed_once
            for value in _passed_callables(site.node):
                if isinstance(value, cst.Lambda):
                    if target is traced:
                        lambdas.add(value)
                else:
                    target.update(self._functions_named(value, scope))
        return _Handed(traced, lambdas, handed_once)

    def _is_transform(self, expr: cst.BaseExpression, scope: Scope) -> bool:
        if isinstance(expr, cst.Call):  # @partial(jax.jit, ...), @jax.custom_vjp(...)
            callee = self.model.qualified_name(expr.func, scope)
            if callee in PARTIAL_CONSTRUCTORS and expr.args:
                return self._is_transform(expr.args[0].value, scope)
            expr = expr.func
        if isinstance(expr, cst.Attribute) and expr.attr.value in DERIVATIVE_RULES:
            return True  # @f.defjvp
        if self.ctx.resolver.resolve(expr, scope) is not None:
            return True
        qualname = self.model.qualified_name(expr, scope) or ""
        return qualname.startswith(TRANSFORM_NAMESPACES) and not qualname.startswith(NOT_TRACING) \
            and qualname.rsplit(".", 1)[-1] in TRACING_TRANSFORMS

    def _functions_named(self, expr: cst.BaseExpression, scope: Scope) -> Iterator[cst.FunctionDef]:
        """The defs of this module that ``expr`` names: ``f``, ``self.step``, ``env.step``."""
        if isinstance(expr, cst.Name):
            binding = self.model.single_binding(expr.value, scope)
            if binding is not None and isinstance(binding.node, cst.FunctionDef):
                yield binding.node
        elif isinstance(expr, cst.Attribute):
            method = expr.attr.value
            cls = self.instance_class(expr.value, scope) if isinstance(expr.value, cst.Name) else None
            if cls is None and isinstance(expr.value, cst.Name):
                cls = self.class_of(expr.value, scope)  # Cls.method
            if cls is not None:
                found = class_methods(cls).get(method)
                if found is not None:
                    yield found
                return
            candidates = [m for c in self.model.classes if (m := class_methods(c).get(method)) is not None]
            if len(candidates) == 1:  # a method name unique among the module's classes
                yield candidates[0]


class _Handed(NamedTuple):
    traced_defs: set[cst.FunctionDef]  # jitted or handed to a transform: traced
    traced_lambdas: set[cst.Lambda]  # lambdas handed to a jit or transform
    run_defs: set[cst.FunctionDef]  # handed to a program runner or another ecosystem function


def loop_targets(loop: cst.CSTNode) -> set[str]:
    """The names a ``for`` loop or a comprehension binds per item."""
    if isinstance(loop, cst.For):
        targets = [loop.target]
    elif isinstance(loop, COMPREHENSION_TYPES):
        targets, comp = [], loop.for_in
        while comp is not None:
            targets.append(comp.target)
            comp = comp.inner_for_in
    else:
        return set()
    return {node.value for target in targets for node in iter_nodes(target) if isinstance(node, cst.Name)}


def _passed_callables(call: cst.Call) -> Iterator[cst.BaseExpression]:
    """Arguments that may be functions: names, attributes, lambdas, also in a list or tuple
    (``lax.switch(i, [f, g], x)``)."""
    for arg in call.args:
        value = arg.value
        if isinstance(value, (cst.List, cst.Tuple)):
            for element in value.elements:
                if isinstance(element.value, (cst.Name, cst.Attribute, cst.Lambda)):
                    yield element.value
        elif isinstance(value, (cst.Name, cst.Attribute, cst.Lambda)):
            yield value


def class_methods(cls: cst.ClassDef) -> dict[str, cst.FunctionDef]:
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    return {stmt.name.value: stmt for stmt in body if isinstance(stmt, cst.FunctionDef)}


def has_decorator(function: cst.FunctionDef, name: str) -> bool:
    return any(isinstance(d.decorator, cst.Name) and d.decorator.value == name for d in function.decorators)
