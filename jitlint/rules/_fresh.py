"""Shared analysis for JIT1xx: jit applied to a callable that is created anew on every run.

JAX caches compiled code on the identity of the wrapped callable (``jax.jit`` even holds it
weakly, so an *equal* new object compiles again once the old one is gone).  ``jax.jit(X)``
where X is *created* by the code that runs it (a lambda, a nested ``def``, a ``partial(...)``,
a bound method, a transformed function, a callable instance) therefore compiles on every run
of that code.  The finding is "every run of this code compiles"; visible repetition (a loop,
several callers) only adds evidence.  How a function runs (traced, repeated, once, unknown)
is the calling-context analysis's answer (``rules/_context.py``).  Code that evidently runs
once, or only while traced, stays silent:

* a module's top level and ``if __name__ == "__main__":`` blocks, ``main``-like entry points,
  test files, test functions and fixtures, ``__init__``/``setUp``-style construction, and
  functions whose only callers in the module run once; functions traced under a caller's jit
  or transform (handed to one anywhere in the module, or called only from traced code);
* a helper called per item of a loop with the item itself, which the jitted callable closes
  over (``[init(m) for m in models]``): one program per item, every compile needed (not when
  the loop iterates batches of data, ``_loaders.batch_source``: then each item is data);
* jits whose result is kept for reuse: lazy initialisation (``if f is None: f = jax.jit(...)``),
  ``self._f = jax.jit(...)``, memoised factories (``functools.cache``, project ``*cache*`` /
  ``*memo*`` decorators), factories that return the jitted callable;
* a function that builds its jit once and reuses it in its own loop, unless that function
  is itself seen to repeat (then it compiles once per call: the ``train_epoch`` shape);
* any jit inside a jitted body (it only runs while tracing), ``inline=True``, and jits that are
  only lowered or traced;
* wrappers that compare equal and are held strongly by the cache: ``jax.pmap(self.f)``,
  ``eqx.filter_jit(eqx.filter_grad(f))``, ``eqx.filter_jit`` of a hashable instance.

A jitted callable in a loop that reads the loop's own variables is a different program per
iteration (an autotuning sweep) when the value shapes arrays, picks a dtype or drives Python
control flow, and so is one that reads a variant the loop builds from the items of a literal
collection (``for name in variants: es = algorithms[name](...)``); when it is only an operand of array arithmetic, it is reported with the advice
to pass the value as an argument.  The same advice is given when the callable reads, only as
an operand, a value assigned in the loop (``scale = 2.0 * step``): hoisting the jit alone would
freeze that value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Optional, Sequence

import libcst as cst

from jitlint.jaxfacts import (FUNCTION_RUNNING_CALLS, JAX_ARRAY_NAMESPACES, FRESH_TRANSFORMS, PYTHON_BOUND_BUILTINS, PYTHON_VALUE_BUILTINS,
                              LAX_CONTROL_FLOW_FUNCTION_PARAMS, TRACING_CALLS)
from jitlint.jitnames import JitApplication, JitRef
from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._context import (live_applications, ONCE, PARTIAL_CONSTRUCTORS, REPEATED, TRACED, calling_context,
                                    class_methods, loop_targets)
from jitlint.rules._jitted import called_positions, name_loads, positional_params
from jitlint.rules._loaders import batch_source
from jitlint.rules._stale import state_changed_after_construction
from jitlint.rules._static import class_verdict
from jitlint.rules._types import ClassRef, member_kind, receiver_class
from jitlint.semantic import (Binding, CallSite, Frame, Scope, SemanticModel, argument_value,
                              dotted_name, has_decorator)
from jitlint.staticargs import IDENTITY, UNHASHABLE
from jitlint.staticargs import UNKNOWN as UNKNOWN_CLASS
from jitlint.values import array_made_by, constant_code, float_values, target_leaves, value_flow
from jitlint.walk import Walker, children, iter_nodes, parent_map

# equinox's transforms return Modules that compare equal field by field; equinox's jits take
# the callable as a static (strongly held, compared by equality) key: one compile.
EQUINOX_TRANSFORMS = frozenset({"equinox.filter_grad", "equinox.filter_value_and_grad", "equinox.filter_vmap"})
# Transforms whose result is a new callable per application (JAX's: jaxfacts.FRESH_TRANSFORMS).
TRANSFORMS = FRESH_TRANSFORMS | EQUINOX_TRANSFORMS
# These jits key their cache on the callable's equality and keep it alive, so an equal new
# bound method or hashable instance hits the cache (measured: pmap(self.f) per call, 1 compile).
EQUALITY_KEYED_JITS = frozenset({"jax.pmap", "equinox.filter_jit", "equinox.filter_pmap"})
# What an attribute access on an instance builds anew each time (_types.member_kind).
BOUND_KINDS = frozenset({"method", "classmethod"})
# ``y, pullback = jax.vjp(f, x)``: the returned function is new on every call.
RETURNS_FRESH_FUNCTION = frozenset({"jax.vjp", "jax.linearize"})
# nnx.jit builds a new jitted wrapper on every application, whatever it wraps (measured:
# nnx.jit(module_level_fn)(x) in a 5-step loop compiles 5 times).
FRESH_WRAPPER_JITS = frozenset({"flax.nnx.jit"})
CACHE_CLEARERS = frozenset({"jax.clear_caches"})
# Pytree maps -> the position of the leaf among the mapped function's parameters.
TREE_MAPS = {"jax.tree.map": 0, "jax.tree_util.tree_map": 0, "jax.tree.map_with_path": 1,
             "jax.tree_util.tree_map_with_path": 1}
# What a program can read of an array leaf that is the same for every leaf of one shape.
SHAPE_ATTRIBUTES = frozenset({"shape", "dtype", "ndim", "size"})
ARITHMETIC = (cst.BinaryOperation, cst.UnaryOperation)

# kind -> what the message calls the jitted callable
KINDS = {
    "lambda": "a lambda",
    "local-def": "a locally defined function",
    "partial": "a partial built in place",
    "bound-method": "a bound method",
    "transformed": "a freshly transformed or instantiated callable",
    "nnx-wrapper": "a callable (nnx.jit builds a new jitted wrapper each time)",
    "jit-of-jit": "a jit-wrapped function created on each run (jit of jit)",
}


MAX_RELATED = 5  # call sites shown as evidence of one finding


# methods that keep a value in a container rather than run it
CONTAINER_METHODS = frozenset({"append", "extend", "insert", "add", "update", "setdefault", "put", "put_nowait"})


@dataclass(eq=False)
class FreshJit:
    app: JitApplication
    kind: str  # a key of KINDS
    # "per-leaf": ``function`` returns it and a pytree map calls ``function`` per leaf;
    # "loop": in a loop body, called there; "loop-operand": the same, reading a loop variable
    # (or a value assigned in the loop) only as a traced operand; "function": every call of ``function`` compiles; "builder":
    # ``function`` builds and reuses it, but itself repeats; "factory": ``function`` returns
    # it and its caller calls it per iteration; "again": the same jit written twice in a row;
    # "per-object": ``__init__`` stores it on an object that a loop makes and calls anew
    repetition: str
    function: Optional[cst.FunctionDef] = None  # the function whose every call compiles
    evidence: Optional[str] = None  # why we believe the code repeats, in words
    operand: Optional[str] = None  # loop-operand: the loop value to pass as an argument
    # where the repetition shows (Violation.related): the loop, or the calls of ``function``
    related: tuple[tuple[cst.CSTNode, str], ...] = ()
    # bound-method: attributes the method reads that change after construction, in words
    # (``self.w`` (changed by `update`)): jitting it once would freeze them (JIT601)
    changing_state: Optional[str] = None
    # loop-operand: the function defined in the loop through which the callable reads the
    # operands (``step`` calls ``nllk_func``, which closes over the iteration's ``x``)
    via: Optional[str] = None

    def _jit_once_fix(self, default: str) -> str:
        if self.changing_state is None:
            return default
        if self.changing_state == ELSEWHERE:
            return (f"{default}, unless it reads attributes that change later (jitted once, it "
                    f"would freeze them: then jit a function that takes them as arguments)")
        return (f"jitting it once would freeze {self.changing_state} at its first trace, so jit "
                f"a function that takes that state as an argument once and pass it in (or use "
                f"nnx.jit / eqx.filter_jit)")

    def message(self) -> str:
        jit = self.app.jit.display
        what = KINDS[self.kind]
        if self.repetition == "loop":
            fix = (self._jit_once_fix("jit the method once before the loop and reuse it")
                   if self.kind == "bound-method"
                   else "create the function once and hoist the jit out of the loop")
            return f"{jit} of {what} inside a loop compiles on every iteration; {fix}"
        if self.repetition == "eager-loop":
            return (f"{jit} of {what} inside a loop, outside any jit, traces and compiles the "
                    f"loop again on every iteration; define the function once before the loop "
                    f"(or jit the code around it)")
        if self.repetition == "loop-operand" and self.via is not None:
            return (f"{jit} of {what} that calls `{self.via}`, defined in the same loop and "
                    f"capturing that iteration's arrays {self.operand}, compiles on every "
                    f"iteration; hoisting it would freeze them at the first trace, so pass them "
                    f"as arguments (to `{self.via}` too) and jit the function once before the loop")
        if self.repetition == "loop-operand":
            return (f"{jit} of {what} that captures the loop value `{self.operand}` compiles on "
                    f"every iteration, though `{self.operand}` is only a traced operand; pass "
                    f"`{self.operand}` as an argument and jit the function once before the loop")
        if self.repetition == "again" and isinstance(self.app, EagerLoopApplication):
            return (f"{jit} of {what} repeats an identical call earlier in this block, outside any "
                    f"jit: the function is a new object each time, so the loop is traced and "
                    f"compiled again; define it once (a def or a name bound once) and pass that")
        if self.repetition == "again":
            return (f"{jit} of {what} repeats an identical jit earlier in this block; the callable "
                    f"is a new object each time, so this traces (and compiles) again; jit it once "
                    f"and reuse the result")
        name = self.function.name.value if self.function is not None else "?"
        seen = f" ({self.evidence})" if self.evidence else ""
        if self.repetition == "function":
            fix = (self._jit_once_fix("jit it once (e.g. in __init__) and reuse it")
                   if self.kind == "bound-method"
                   else "jit a module-level function once and reuse it")
            return f"{jit} of {what} in `{name}` compiles on every call of `{name}`{seen}; {fix}"
        if self.repetition == "per-leaf":
            return (f"{jit} of {what} returned by `{name}`, which {self.evidence} calls once per "
                    f"leaf, compiles once per leaf, also for leaves of the same shape and dtype "
                    f"(the program reads the leaf only through them); jit one function once, with "
                    f"the shape as a static argument or the leaf as an argument: one compile per "
                    f"distinct shape")
        if self.repetition == "per-object":
            cls = self.app.frame.scope.parent.node.name.value if self.app.frame.scope.parent is not None \
                and isinstance(self.app.frame.scope.parent.node, cst.ClassDef) else "the object"
            method = self.app.frame.scope.node.name.value if isinstance(self.app.frame.scope.node, cst.FunctionDef) \
                else "__init__"
            where = f"`{cls}.__init__`" if method == "__init__" else f"`{cls}.{method}` (run by `__init__`)"
            return (f"{jit} of {what} in {where} compiles once per `{cls}` object, and "
                    f"{self.evidence}: every iteration compiles again; make the object once before "
                    f"the loop, or jit a module-level function once and pass the object's values "
                    f"as arguments")
        if self.repetition == "handed":
            return (f"{jit} of the parameter `{self.operand}` in `{name}` compiles on every call: "
                    f"a loop hands `{name}` {what} made on every iteration, a new function each "
                    f"time; make it once before the loop (passing what it reads that changes, "
                    f"such as the model, as an argument) so the jit is reused")
        if self.repetition == "builder":
            return (f"{jit} of {what} in `{name}` compiles once per call of `{name}`{seen}; build "
                    f"the jitted function once, at module level or in the caller, and pass it in")
        return (f"{jit} of {what} is returned by `{name}` and called each time it is made{seen}: "
                f"every new jit compiles again, so build it once or memoise `{name}` with "
                f"functools.cache")


def fresh_jits(ctx: FileContext) -> list[FreshJit]:
    return ctx.shared("fresh-jits", _analyse)


def _analyse(ctx: FileContext) -> list[FreshJit]:
    analysis = _shared_analysis(ctx)
    found = []
    eager_calls_reported = set()  # one finding per eager lax call (its first fresh function)
    for app in [*live_applications(ctx), *analysis.eager_loop_applications()]:
        if isinstance(app, EagerLoopApplication) and id(app.call) in eager_calls_reported:
            continue
        result = analysis.check(app)
        if result is not None:
            if isinstance(app, EagerLoopApplication):
                eager_calls_reported.add(id(app.call))
            if result.kind == "bound-method":
                result.changing_state = _changing_state(ctx, app)
            found.append(result)
    return found


def _changing_state(ctx: FileContext, app: JitApplication) -> Optional[str]:
    """``jax.jit(self.forward)`` / ``jax.jit(model.forward)``: the attributes ``forward`` reads
    that change after construction, in words; ``ELSEWHERE`` when the class is another
    module's (its writes are not in view)."""
    target = app.target
    if not isinstance(target, cst.Attribute):
        return None
    receiver = receiver_class(ctx, target.value, app.frame.scope)
    if receiver is None:
        return None
    if receiver.local is None:
        return ELSEWHERE
    method = class_methods(receiver.local).get(target.attr.value)
    if method is None:
        return None
    changed = state_changed_after_construction(ctx, receiver.local, method)
    if not changed:
        return None
    node, where = changed[0]
    owner = ctx.module.code_for_node(target.value)
    return f"`{owner}.{node.attr.value}` (changed by {where})"


# _changing_state for a class of another module: what its methods change is not in view.
ELSEWHERE = "elsewhere"


class _Analysis:
    def __init__(self, ctx: FileContext) -> None:
        self.ctx = ctx
        self.model: SemanticModel = ctx.model
        self.context = calling_context(ctx)
        self._seen_jits: dict[tuple, JitApplication] = {}

    # ---------------------------------------------------------------- entry point
    def check(self, app: JitApplication) -> Optional[FreshJit]:
        if self.context.runs_traced(app.frame):
            return None  # runs only while the outer function is traced, then inlined
        if _keyword_is_true(app, "inline"):
            return None  # inline=True: meant to be traced inside another jit
        if isinstance(app, EagerLoopApplication) and not self._evidently_eager(app.frame):
            return None  # lax loops in code that may run under an outer jit: inlined there
        created = self._classify(app)
        if created is None:
            return None if isinstance(app, EagerLoopApplication) else self._handed_fresh(app)
        kind, creation, callable_node = created
        for loop in app.frame.loops_in_scope():
            if creation.is_inside(loop):
                found = self._in_loop(app, kind, creation, callable_node, loop)
                if found is not None:
                    found.related = ((loop, "the loop that runs it on every iteration"),)
                return found
        # A helper that runs a lax loop over a body it defines, called eagerly, is JIT520's
        # finding, made where the helper is called in a loop (also in files that never say jit).
        found = None if isinstance(app, EagerLoopApplication) else \
            self._in_function(app, kind, creation, callable_node)
        if found is None:
            found = self._straight_line_repeat(app, kind)
        elif found.function is not None and found.evidence is not None and not found.related:
            found.related = self._evidence_sites(found.function)
        return found

    def _in_loop(self, app, kind, creation, callable_node, loop) -> Optional[FreshJit]:
        if not self._result_called(app, lambda frame: frame.is_inside(loop)):
            return None
        if self._clears_cache(loop, app.frame.scope):
            return None  # a cold-compile benchmark: the compiles are what it measures
        varying = self._loop_values_read(callable_node, loop, creation)
        derived = self._derived_from_listed_items(callable_node, loop, creation)
        if not varying and derived and not all(self._only_traced_operand(callable_node, name, creation)
                                               for name in derived):
            return None  # ``for name in es_dict: es = algorithms[name](...)``: one program per variant
        if not varying:
            if isinstance(app, EagerLoopApplication):
                return FreshJit(app, kind, "eager-loop")
            if self._called_per_swept_size(app, loop):
                return None  # a new shape per iteration compiles each pass anyway (a size sweep)
            # ``scale = 2.0 * step`` in the loop, read only as an operand: hoisting the jit
            # would freeze ``scale``; passing it as an argument is the fix
            set_in_loop = self._values_set_in_loop(callable_node, loop, creation, captured_only=True)
            if set_in_loop and all(self._only_traced_operand(callable_node, name, creation)
                                   for name in set_in_loop):
                return FreshJit(app, kind, "loop-operand", operand=min(set_in_loop))
            through = self._arrays_captured_through_loop_def(callable_node, loop, creation)
            if through is not None:
                via, arrays = through
                return FreshJit(app, kind, "loop-operand", operand=", ".join(f"`{n}`" for n in sorted(arrays)),
                                via=via)
            return FreshJit(app, kind, "loop")
        # Each iteration may be a genuinely different program (autotuning): silent, unless
        # every loop value read is only an operand of array arithmetic in a loop that does
        # not time its variants.
        if self.context.times_iterations(loop) or not all(self._only_traced_operand(callable_node, name, creation)
                                           for name in varying):
            return None
        return FreshJit(app, kind, "loop-operand", operand=min(varying))

    def _called_per_swept_size(self, app: JitApplication, loop: cst.CSTNode) -> bool:
        """Every call of the jitted result in the loop passes an array made there with a shape
        the loop's item sets (``for N in Ns: x = jax.random.normal(key, (N, D)); f(x)`` over a
        list of sizes): each pass is a new program, jitted anew or not (hmankodiya's timing
        notebook: 12 compiles for 6 sizes either way)."""
        calls = self._result_calls(app, lambda frame: frame.is_inside(loop)) or []
        flow = value_flow(self.ctx)
        for site in calls:
            passed = [e.value for arg in site.node.args for e in (
                arg.value.elements if isinstance(arg.value, (cst.Tuple, cst.List)) else [arg])]  # ``step(m, (x, y))``
            made = [b.value for value in passed if isinstance(value, cst.Name)
                    for b in [flow.single(value, site.frame.scope)]
                    if b is not None and b.kind == "assign" and b.value is not None and b.frame is not None
                    and b.frame.is_inside(loop)]
            if not any(self.context.sweeps_configurations(loop, site.frame.scope, value) for value in made):
                return False
        return bool(calls)

    def _handed_fresh(self, app: JitApplication) -> Optional[FreshJit]:
        """``policy = eqx.filter_jit(policy)`` in ``rollout(env, policy)``, called in a loop that
        hands it a function made anew on every iteration (``partial_agent = lambda x:
        agent(x)[0]``): every call jits a new function and compiles again."""
        target, scope = app.target, app.frame.scope
        if not isinstance(target, cst.Name) or scope.kind != "function" or app.frame.loops_in_scope():
            return None
        bindings = value_flow(self.ctx).reaching(target, scope)
        if len(bindings) != 1 or bindings[0].kind != "param" \
                or not self._result_called(app, lambda frame: frame.scope is scope):
            return None
        function = scope.node
        assert isinstance(function, cst.FunctionDef)
        names = called_positions(self.model, function)
        param = target.value
        for site in self.context.call_sites(function):
            passed = argument_value(site.node, names.index(param) if param in names else None, param)
            created = self._classify_expr(passed, site.frame.scope, site.frame, app) if passed is not None else None
            if created is None:
                continue
            kind, creation, callable_node = created
            loop = next((loop for loop in site.frame.loops_in_scope() if creation.is_inside(loop)), None)
            if loop is None or self.context.times_iterations(loop) or self._clears_cache(loop, site.frame.scope):
                continue
            varying = self._loop_values_read(callable_node, loop, creation)
            if varying and not all(self._only_traced_operand(callable_node, name, creation) for name in varying):
                continue  # one program per value the loop sweeps: every compile is needed
            return FreshJit(app, kind, "handed", function, operand=param, related=(
                (site.node, f"hands `{function.name.value}` {KINDS[kind]} made on every iteration"),
                (loop, "the loop that runs it on every iteration")))
        return None

    def _in_function(self, app: JitApplication, kind: str, creation: Frame,
                     callable_node: cst.CSTNode) -> Optional[FreshJit]:
        scope = app.frame.scope
        if scope.kind != "function" or creation.scope is not scope or creation.loops_in_scope():
            return None
        function = scope.node
        assert isinstance(function, cst.FunctionDef)
        mapping = self._mapped_per_leaf(app, function, callable_node, creation)
        if mapping is not None:
            mapper = self.model.qualified_name(mapping.node.func, mapping.frame.scope)
            return FreshJit(app, kind, "per-leaf", function, f"`{mapper}`", related=(
                (mapping.node, f"maps `{function.name.value}` over a pytree: one jit per leaf"),))
        if function.name.value == "__init__":
            return self._per_object(app, kind, function, self._stored_attribute(
                self.model.parent_statement.get(app.call) if app.call is not None else None, function))
        stored = self._stored_by_init(app, function)
        if stored is not None:  # ``self._fn = self._setup()`` in ``__init__``, the jit made there
            return self._per_object(app, kind, *stored)
        if self.context.how(function) in (ONCE, TRACED):
            return None
        if self._configured_per_call(app, function, callable_node, creation):
            return None  # a few call sites, each a different program: bounded, like a sweep
        if self._distinct_per_iteration(function, callable_node, creation):
            return None  # one program per item: every compile is needed
        reuse = self._reuse(app)
        if reuse == "closure":
            return None  # kept alive by a closure that escapes: a factory, built once per product
        if reuse == "loop":
            # train()/fit() called once (or once per configuration) build once: silent
            evidence = self.context.repetition_evidence(function, repeating_site=True)
            if evidence is not None:
                return FreshJit(app, kind, "builder", function, evidence)
            return None
        if self._result_called(app, lambda frame: frame.scope is scope or self._helper_run_in(frame.scope, scope)):
            return FreshJit(app, kind, "function", function, self.context.repetition_evidence(function))
        returned = self._returned_position(app)
        if returned is not None:
            evidence = self._factory_result_called_per_iteration(function, returned)
            if evidence is not None:
                return FreshJit(app, kind, "factory", function, evidence)
        return None

    def _helper_run_in(self, inner: Scope, scope: Scope) -> bool:
        """``inner`` is a def nested in ``scope`` and called there (``def body_fn(batch): return
        loss_fn(**batch)`` run by the function's own loop): what it calls runs on each call of
        the function."""
        return bool(self._helper_calls(inner, scope))

    def _helper_calls(self, inner: Scope, scope: Scope) -> list[CallSite]:
        """The calls in ``scope`` of the def ``inner`` nested in it (none when it escapes: it
        is read anywhere but as the callee of a call there)."""
        node = inner.node
        if inner.kind != "function" or inner.parent is not scope or not isinstance(node, cst.FunctionDef):
            return []
        bindings = [b for b in self.model.lookup(node.name.value, scope) if b.node is node]
        if len(bindings) != 1:
            return []
        calls = list(self.model.calls_to(bindings[0]))
        reads = [n for n in iter_nodes(scope.node) if isinstance(n, cst.Name) and n.value == node.name.value]
        if not calls or any(site.frame.scope is not scope for site in calls) or len(reads) != len(calls) + 1:
            return []  # also read elsewhere (returned, stored, handed on): it may run later
        return calls

    @staticmethod
    def _stored_attribute(statement, method: cst.FunctionDef) -> Optional[str]:
        """``attr`` when ``statement`` is ``self.attr = ...`` in ``method`` (``self`` its first
        parameter)."""
        if not (isinstance(statement, cst.Assign) and len(statement.targets) == 1
                and isinstance(statement.targets[0].target, cst.Attribute)
                and isinstance(statement.targets[0].target.value, cst.Name)
                and [p.name.value for p in positional_params(method)][:1] == [statement.targets[0].target.value.value]):
            return None
        return statement.targets[0].target.attr.value

    def _stored_by_init(self, app: JitApplication, method: cst.FunctionDef) -> Optional[tuple[cst.FunctionDef, str]]:
        """(``__init__``, the attribute) when ``method`` returns the jit it makes and its one call
        is ``self.attr = self.method()`` in ``__init__`` of its class (squishyplanet's
        ``self._lightcurve = self._setup_lightcurve_func()``)."""
        if self.model.functions[method].scope.kind != "class" or self._returned_position(app) != -1:
            return None
        sites = self.context.call_sites(method)
        caller = sites[0].frame.enclosing_function() if len(sites) == 1 else None
        if caller is None or caller.name.value != "__init__" \
                or self.model.functions[caller].scope is not self.model.functions[method].scope:
            return None  # (``__init__`` of the same class)
        statement = self.model.parent_statement.get(sites[0].node)
        attribute = self._stored_attribute(statement, caller)
        return (caller, attribute) if attribute is not None and statement.value is sites[0].node else None

    def _per_object(self, app: JitApplication, kind: str, init: cst.FunctionDef,
                    attribute: Optional[str]) -> Optional[FreshJit]:
        """``self.act = jax.jit(lambda x: ...)`` in ``__init__`` of a class whose objects are
        made on every iteration of a loop and called there (``ctrl = Controller(g)``, then
        ``ctrl.act(x)``, or a method of the class that calls ``self.act``): each new object
        compiles its jit again."""
        if attribute is None or self.context.how(init) != REPEATED:
            return None
        cls = self.model.functions[init].scope.node
        assert isinstance(cls, cst.ClassDef)
        # the names called on the object that run the jit: the attribute, or a method calling it
        entries = {attribute} | {name for name, method in class_methods(cls).items() if any(
            isinstance(use.node.func, cst.Attribute) and isinstance(use.node.func.value, cst.Name)
            and use.node.func.value.value == "self" and use.frame.is_inside(method)
            for use in self.model.calls_named(attribute))}
        for site in self.context.call_sites(init):
            loops = site.frame.loops_in_scope()
            if not loops or not self.context.site_repeats(site) or self.context.times_iterations(loops[0]):
                continue
            name = _assigned_name(site, -1)
            for use in (use for entry in sorted(entries) for use in self.model.calls_named(entry)):
                receiver = use.node.func.value if isinstance(use.node.func, cst.Attribute) else None
                if use.frame.is_inside(loops[0]) and (receiver is site.node or (
                        name is not None and isinstance(receiver, cst.Name) and receiver.value == name)):
                    called = use.node.func.attr.value  # type: ignore[attr-defined]
                    return FreshJit(app, kind, "per-object", init,
                                    f"a new `{cls.name.value}` is made and its `{called}` called on every "
                                    f"iteration of a loop", related=(
                                        (site.node, f"a new `{cls.name.value}` on every iteration"),
                                        (use.node, f"its `{called}` compiles here")))
        return None

    # ---------------------------------------------------------------- what is jitted
    def _classify(self, app: JitApplication) -> Optional[tuple[str, Frame, cst.CSTNode]]:
        """(kind, frame where the callable is created, the creating node), when it is
        created anew each run."""
        if isinstance(app.target, cst.FunctionDef):
            return "local-def", app.frame, app.target
        if app.jit.qualname in FRESH_WRAPPER_JITS and app.call is not None:
            return "nnx-wrapper", app.frame, app.call
        return self._classify_expr(app.target, app.frame.scope, app.frame, app)

    def _classify_expr(self, expr: cst.BaseExpression, scope: Scope, creation: Frame,
                       app: JitApplication) -> Optional[tuple[str, Frame, cst.CSTNode]]:
        equality_keyed = app.jit.qualname in EQUALITY_KEYED_JITS
        origin = self.model.value_origin(expr, scope, creation)
        if origin is None:
            return self._unpacked_or_rebound(expr, scope, app)
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
                if callee in EQUINOX_TRANSFORMS and app.jit.qualname in EQUALITY_KEYED_JITS:
                    return None
                return "transformed", creation, node
            if self.ctx.resolver.resolve(node.func, scope) is not None and _wraps_callable(node):
                return "jit-of-jit", creation, node  # jax.jit(jax.jit(f)): the inner wrapper is new
            if self._is_fresh_callable_instance(node, scope, equality_keyed):
                return "transformed", creation, node
            return self._returned_function(node, scope, creation)
        if isinstance(node, cst.Attribute) and not equality_keyed and self._is_bound_method(node, scope):
            return "bound-method", creation, node
        return None

    def _returned_function(self, call: cst.Call, scope: Scope,
                           creation: Frame) -> Optional[tuple[str, Frame, cst.CSTNode]]:
        """``make_body(0.9)``: a module function (or a method: ``self._get_integrate_fn()``)
        whose every ``return`` gives a def or lambda it creates: each call makes a new
        function, where the call runs."""
        made = self.context.made_function(call, scope)
        if made is None:
            return None
        return "local-def" if isinstance(made, cst.FunctionDef) else "lambda", creation, call


    def _unpacked_or_rebound(self, expr: cst.BaseExpression, scope: Scope,
                             app: JitApplication) -> Optional[tuple[str, Frame, cst.CSTNode]]:
        """``y, pullback = jax.vjp(f, x)`` then ``jax.jit(pullback)``; ``f = jax.vmap(g)``
        then ``f = jax.jit(f)`` (the name is bound twice, the jit reads the first binding)."""
        if not isinstance(expr, cst.Name):
            return None
        bindings = [b for b in self.model.lookup(expr.value, scope)
                    if not (isinstance(b.node, cst.Assign) and b.node.value is app.anchor)]
        if len(bindings) != 1 or bindings[0].kind != "assign" or bindings[0].frame is None:
            return None
        binding = bindings[0]
        statement = binding.node
        if binding.value is not None:
            if len(self.model.lookup(expr.value, scope)) == 1:
                return None  # value_origin already said no
            return self._classify_expr(binding.value, binding.scope, binding.frame, app)
        if isinstance(statement, cst.Assign) and isinstance(statement.value, cst.Call) and \
                self.model.qualified_name(statement.value.func, binding.scope) in RETURNS_FRESH_FUNCTION:
            return "transformed", binding.frame, statement.value
        return None

    def _reads(self, node: cst.CSTNode, creation: Frame) -> Iterator[tuple[cst.Name, Scope]]:
        """The names the callable reads, each with the scope it is looked up in: its parameters'
        defaults where it is made (``lambda x, net=net: net(x)`` reads the loop's ``net``)."""
        scope = self.model.scope_of.get(node) or creation.scope
        params = node.params if isinstance(node, (cst.Lambda, cst.FunctionDef)) else None
        defaults = {id(n) for p in (params.params + params.posonly_params + params.kwonly_params if params else ())
                    if p.default is not None for n in name_loads(p.default)}
        for loaded in name_loads(node):
            yield loaded, creation.scope if id(loaded) in defaults else scope

    def _loop_values_read(self, node: cst.CSTNode, loop: cst.CSTNode, creation: Frame) -> set[str]:
        """Targets of ``loop`` the callable reads (``for k in ...: jit(lambda: ... k)``)."""
        return {loaded.value for loaded, scope in self._reads(node, creation)
                if any(binding.kind == "loop-target" and (binding.node is loop or binding.scope.node is loop)
                       for binding in self.model.lookup(loaded.value, scope))}

    def _derived_from_listed_items(self, node: cst.CSTNode, loop: cst.CSTNode, creation: Frame) -> set[str]:
        """Names the callable reads that the body of ``loop`` builds from its item, when the loop
        runs over a literal collection (``for name in es_dict: ES = algorithms[name]; es =
        ES(...)``): a sweep over variants, each a program of its own."""
        if not isinstance(loop, cst.For) or not self._listed(loop.iter, creation.scope):
            return set()
        derived = set(loop_targets(loop))
        assignments = [(target, statement.value) for statement in iter_nodes(loop.body)
                       if isinstance(statement, cst.Assign) for target in statement.targets]
        for _ in range(3):  # a short chain: ``ES = algorithms[name]`` then ``es = ES(...)``
            for target, value in assignments:
                if any(loaded.value in derived for loaded in name_loads(value)):
                    derived |= {n.value for n in iter_nodes(target.target) if isinstance(n, cst.Name)}
        return self._values_set_in_loop(node, loop, creation) & derived

    def _listed(self, iterable: cst.BaseExpression, scope: Scope) -> bool:
        """A list, tuple, set or dict display, or a library call listing them (``games =
        pgx.available_envs()``: not ``range`` or another builtin), or a name bound once to one,
        also numbered (``for i, n in enumerate(NS)``)."""
        if isinstance(iterable, cst.Call) and isinstance(iterable.func, cst.Name) and iterable.func.value == "enumerate" \
                and not self.model.lookup("enumerate", scope) and iterable.args and not iterable.args[0].star:
            iterable = iterable.args[0].value
        if isinstance(iterable, cst.Name):
            binding = value_flow(self.ctx).single(iterable, scope)
            iterable = binding.value if binding is not None and binding.kind == "assign" and binding.value is not None \
                else iterable
        if isinstance(iterable, cst.Call):
            qualname = self.model.qualified_name(iterable.func, scope)
            return qualname is not None and "." in qualname and not any(
                b.kind != "import" for b in self.model.lookup(dotted_name(iterable.func).split(".")[0], scope))
        return isinstance(iterable, (cst.List, cst.Tuple, cst.Set, cst.Dict))

    def _values_set_in_loop(self, node: cst.CSTNode, loop: cst.CSTNode, creation: Frame,
                            captured_only: bool = False) -> set[str]:
        """Names the callable reads that are assigned in the body of ``loop`` (their value
        may change from one iteration to the next); ``captured_only``: not the callable's own
        locals (``gain = ...`` in its body)."""
        own = self.model.scope_of.get(node) if captured_only else None
        return {loaded.value for loaded, scope in self._reads(node, creation)
                if any(binding.kind in ("assign", "other") and binding.frame is not None and binding.scope is not own
                       and binding.frame.is_inside(loop) for binding in self.model.lookup(loaded.value, scope))}

    def _arrays_captured_through_loop_def(self, node: cst.CSTNode, loop: cst.CSTNode, creation: Frame
                                          ) -> Optional[tuple[str, set[str]]]:
        """A function defined in the body of ``loop`` that the callable calls, and the values set
        in the loop that it captures, when each is a jax array it reads as array data (``def
        nllk_func(...)`` over the iteration's ``x`` and ``fx``, called by the jitted ``step``):
        hoisting the callable would freeze them; they are arguments waiting to be passed."""
        for loaded, scope in self._reads(node, creation):
            defs = [b for b in self.model.lookup(loaded.value, scope) if b.kind == "def"]
            if len(defs) != 1 or defs[0].frame is None or not defs[0].frame.is_inside(loop) \
                    or not isinstance(defs[0].node, cst.FunctionDef):
                continue
            inner = defs[0].node
            captured = self._values_set_in_loop(inner, loop, defs[0].frame, captured_only=True)
            inner_scope = self.model.scope_of.get(inner) or defs[0].frame.scope
            if captured and all(self._only_traced_operand(inner, name, defs[0].frame)
                                or self._array_data_set_in_loop(inner, name, inner_scope, loop) for name in captured):
                return inner.name.value, captured
        return None

    def _array_data_set_in_loop(self, function: cst.FunctionDef, name: str, scope: Scope, loop: cst.CSTNode) -> bool:
        """Every binding of ``name`` in ``loop`` is a jax array (a ``jax.random`` draw, a
        ``jax.numpy`` result, a slice of or arithmetic on one), and ``function`` never tests it
        or turns it into a Python number: as an argument it is an operand like any other."""
        bindings = [b for b in self.model.lookup(name, scope) if b.frame is not None and b.frame.is_inside(loop)]
        if not bindings or not all(b.kind == "assign" and b.value is not None
                                   and _jax_array_expression(self.model, b.value, b.scope) for b in bindings):
            return False
        concrete = [test for n in iter_nodes(function.body) if isinstance(n, (cst.If, cst.While, cst.IfExp))
                    for test in [n.test]] + [
            n for n in iter_nodes(function.body) if isinstance(n, cst.Call) and isinstance(n.func, cst.Name)
            and (n.func.value in PYTHON_VALUE_BUILTINS or n.func.value in PYTHON_BOUND_BUILTINS)
            and not self.model.lookup(n.func.value, scope)]
        return not any(loaded.value == name for expr in concrete for loaded in name_loads(expr))

    def _only_traced_operand(self, node: cst.CSTNode, name: str, creation: Frame) -> bool:
        """Is ``name`` read in the callable only as an operand of array arithmetic (``p - lr * g``),
        never as a shape, dtype, index, static or control-flow value?

        A partial's bound positional argument is followed into the function it binds."""
        if isinstance(node, cst.Call) and node.args and \
                self.model.qualified_name(node.func, creation.scope) in RETURNS_FRESH_FUNCTION:
            # jax.vjp(f, x): the primal point is an operand of the pullback's program
            return not any(n.value == name for n in name_loads(node.args[0].value))
        if isinstance(node, cst.Call):  # partial(f, value, ...): where does the value go?
            target = self._partial_param(node, name, creation)
            if target is None:
                return False
            function, param = target
            if not any(n.value == param for n in name_loads(function.body)):
                return True  # bound but never read: it changes nothing in the program
            return _operand_only(function.body, param, _params(function), self._array_call(creation))
        if isinstance(node, cst.Lambda):
            return _operand_only(node.body, name, {p.name.value for p in node.params.params}, self._array_call(creation))
        if isinstance(node, cst.FunctionDef):
            return _operand_only(node.body, name, _params(node), self._array_call(creation))
        return False

    def _array_call(self, creation: Frame):
        """Whether a call is a jax.numpy (jax.nn, jax.lax) function: its positional arguments
        are array operands, its result an array (``jnp.sum((batch @ w) ** 2)``); also a
        function a mapping transform made (``jax.vmap(per_example)(source_batch, target_batch)``:
        it maps over its arguments' leading axes, arrays)."""
        def array_call(call: cst.Call):
            if isinstance(call.func, cst.Call):
                transform = TRACING_CALLS.get(self.model.qualified_name(call.func.func, creation.scope) or "")
                return MAPPED if transform is not None and transform.in_axes is not None else False
            qualname = self.model.qualified_name(call.func, creation.scope) or ""
            return qualname.startswith(JAX_ARRAY_NAMESPACES)
        return array_call

    def _clears_cache(self, loop: cst.CSTNode, scope: Scope) -> bool:
        """The loop calls ``jax.clear_caches()``: every iteration compiles from scratch."""
        return any(isinstance(node, cst.Call) and self.model.qualified_name(node.func, scope) in CACHE_CLEARERS
                   for node in iter_nodes(loop))

    def _configured_per_call(self, app: JitApplication, function: cst.FunctionDef, node: cst.CSTNode,
                             creation: Frame) -> bool:
        """Is ``function`` repeated only by a few call sites, none in a loop, each a different
        program: they pass different values for a parameter the jitted callable closes over
        (``pplotter(..., xN)`` then ``pplotter(..., xN * 4)`` sizing an image), or for one that
        sizes the arrays the function hands the jit (``generate_dataset(5000, key)`` then
        ``generate_dataset(100, key)`` with ``jax.random.uniform(key, (n_samples, 5))``), or
        arrays of different literal shapes (``normalise(jnp.ones(3))``,
        ``normalise(jnp.ones(7))``)? Then, as for a loop over configurations, hoisting the jit
        saves nothing and the compiles are bounded by the call sites."""
        sites = self.context.call_sites(function)
        if len(sites) < 2 or any(self.context.site_repeats(site) for site in sites):
            return False
        closed_over = self._closed_over_params(function, node, creation)
        params = function.params
        positional = [p.name.value for p in (*params.posonly_params, *params.params)]
        for param in positional + [p.name.value for p in params.kwonly_params]:
            index = positional.index(param) if param in positional else None
            arguments = [argument_value(site.node, index, param) for site in sites]
            if param in closed_over and len({_source(a) for a in arguments}) > 1:
                return True
            if len({(constant_code(a, site.frame.scope, self.model) or _source(a)) if a is not None else ""
                    for a, site in zip(arguments, sites)}) > 1 \
                    and self._sizes_jitted_arguments(app, function, param):
                return True
            shapes = [self._literal_shape(a, site.frame.scope) for a, site in zip(arguments, sites)]
            if None not in shapes and len(set(shapes)) > 1:
                return True
        return False

    def _distinct_per_iteration(self, function: cst.FunctionDef, node: cst.CSTNode, creation: Frame) -> bool:
        """Does every repeating call of ``function`` sit in a loop over items and pass the item
        itself for a parameter the jitted callable closes over other than as a traced operand
        (``[init(m) for m in models]`` with ``jax.jit(lambda k: model.init(k, x))``)?  Each
        item is a distinct program, so each compile is needed, as in a sweep."""
        closed_over = self._closed_over_params(function, node, creation)
        if not closed_over:
            return False
        sites = self.context.call_sites(function)
        repeating = [site for site in sites if self.context.site_repeats(site)]
        if not repeating:
            # every call sits in a loop over a literal list of sizes (``for depth in [1, 2,
            # 3]``, site_repeats): one program per item, as in a sweep
            return bool(sites) and all(site.frame.loops_in_scope() for site in sites)
        positional = [p.name.value for p in (*function.params.posonly_params, *function.params.params)]
        if self.model.functions[function].scope.kind == "class" and not has_decorator(function, "staticmethod"):
            closed_over.pop(positional[0] if positional else "", None)  # self / cls: the receiver
            positional = positional[1:]  # obj.method(a, b): a is the second parameter
        for site in repeating:
            loops = site.frame.loops_in_scope()
            if not loops:
                return False  # repeated through its caller: the items are not in view
            if isinstance(loops[0], cst.For) and batch_source(self.model, value_flow(self.ctx), loops[0].iter,
                                                              site.frame.scope, passed=self.context.passed_to):
                return False  # batches of data: one program, fed new values
            if isinstance(loops[0], cst.For) and float_values(self.model, value_flow(self.ctx), loops[0].iter,
                                                              site.frame.scope):
                return False  # ``for sig in jnp.linspace(0.1, 1.0, 10)``: data values, one program
            items = loop_targets(loops[0])
            if not any(self._item_itself(argument_value(site.node, positional.index(param) if param in positional
                                                        else None, param), items, site.frame.scope)
                       and not self._only_traced_operand(node, read, creation)
                       for param, read in closed_over.items()):
                return False
        return True

    def _item_itself(self, arg: Optional[cst.BaseExpression], items: set[str], scope: Scope) -> bool:
        """``arg`` is the loop's item, also converted to a Python int (``fit(int(width))``)."""
        if isinstance(arg, cst.Call) and isinstance(arg.func, cst.Name) and arg.func.value == "int" \
                and not self.model.lookup("int", scope) and len(arg.args) == 1:
            arg = arg.args[0].value
        return isinstance(arg, cst.Name) and arg.value in items

    def _mapped_per_leaf(self, app: JitApplication, function: cst.FunctionDef, node: cst.CSTNode,
                         creation: Frame) -> Optional[CallSite]:
        """``jax.tree.map(make_init, specs)`` where ``make_init`` returns a fresh jit whose program
        reads the leaf only through its shape and dtype (or as a traced operand): leaves of one
        shape are one program, compiled again for each leaf.  The eager map call, or None."""
        if self._returned_position(app) != -1 or self.context.traced(function):
            return None
        params = positional_params(function)
        for site in self.model.calls:
            position = TREE_MAPS.get(self.model.qualified_name(site.node.func, site.frame.scope) or "")
            if position is None or not site.node.args or position >= len(params) \
                    or self.context.runs_traced(site.frame):
                continue
            mapped = site.node.args[0].value
            binding = self.model.single_binding(mapped.value, site.frame.scope) \
                if isinstance(mapped, cst.Name) else None
            if binding is None or binding.node is not function:
                continue
            leaf = params[position].name.value
            if leaf in self._closed_over_params(function, node, creation) and \
                    not _reads_only_shape(node, leaf, _params(function) - {leaf}):
                return None
            return site
        return None

    def _closed_over_params(self, function: cst.FunctionDef, node: cst.CSTNode, creation: Frame) -> dict[str, str]:
        """Parameters of ``function`` that the callable ``node`` reads -> the name it reads them
        by: the parameter itself, or a local that ``function`` builds from it once (``op =
        Operator(values, method=method)`` read by ``lambda x: Operator.mv(op, x)``: the program
        follows ``method``)."""
        scope = self.model.scope_of.get(node) or creation.scope
        function_scope = self.model.scope_of[function]
        found: dict[str, str] = {}
        for loaded in name_loads(node):
            bindings = self.model.lookup(loaded.value, scope)
            if any(b.kind == "param" and b.scope is function_scope for b in bindings):
                found[loaded.value] = loaded.value
            elif len(bindings) == 1 and bindings[0].kind == "assign" and bindings[0].scope is function_scope \
                    and bindings[0].value is not None:
                for name in name_loads(bindings[0].value):
                    if any(b.kind == "param" and b.scope is function_scope
                           for b in self.model.lookup(name.value, function_scope)):
                        found.setdefault(name.value, loaded.value)
        return found

    def _shape_argument(self, expr: Optional[cst.BaseExpression], scope: Scope) -> Optional[cst.BaseExpression]:
        """The shape (or count) argument of an array constructor or random draw:
        ``jnp.ones((3, 4))``, ``jax.random.uniform(key, (n, 5))``, ``jax.random.split(key, n)``."""
        if not isinstance(expr, cst.Call) or not expr.args:
            return None
        qualname = self.model.qualified_name(expr.func, scope) or ""
        module, _, name = qualname.rpartition(".")
        if module in ("jax.numpy", "numpy") and name in ("zeros", "ones", "empty", "full"):
            return expr.args[0].value
        if qualname.startswith("jax.random.") and len(expr.args) >= 2:
            return expr.args[1].value
        return None

    def _literal_shape(self, expr: Optional[cst.BaseExpression], scope: Scope) -> Optional[str]:
        """``jnp.ones((3, 4))`` -> "(3, 4)": the shape of an array built from a literal."""
        shape = self._shape_argument(expr, scope)
        if isinstance(shape, cst.Integer) or (isinstance(shape, cst.Tuple) and all(
                isinstance(e.value, cst.Integer) for e in shape.elements)):
            return _source(shape)
        return None

    def _sizes_jitted_arguments(self, app: JitApplication, function: cst.FunctionDef, param: str) -> bool:
        """A call of the new jit in ``function`` passes an array the function makes with a
        shape of ``param`` (``params = jax.random.uniform(key, (n_samples, 5))``)."""
        flow = value_flow(self.ctx)
        for site in self._result_calls(app, lambda frame: frame.enclosing_function() is function) or ():
            for arg in site.node.args:
                binding = flow.single(arg.value, site.frame.scope) if isinstance(arg.value, cst.Name) else None
                shape = self._shape_argument(binding.value, binding.scope) \
                    if binding is not None and binding.kind == "assign" else None
                if shape is not None and any(n.value == param for n in name_loads(shape)):
                    return True
        return False

    def _partial_param(self, call: cst.Call, name: str, creation: Frame) -> Optional[tuple[cst.FunctionDef, str]]:
        scope = creation.scope
        if not call.args or self.model.qualified_name(call.func, scope) not in PARTIAL_CONSTRUCTORS:
            return None
        origin = self.model.value_origin(call.args[0].value, scope, creation)
        if origin is None or not isinstance(origin[0], cst.FunctionDef):
            return None
        function = origin[0]
        positional = [p.name.value for p in (*function.params.posonly_params, *function.params.params)]
        found = None
        for index, arg in enumerate(call.args[1:]):
            if isinstance(arg.value, cst.Name) and arg.value.value == name:
                if arg.keyword is not None:
                    param = arg.keyword.value
                elif index < len(positional):
                    param = positional[index]
                else:
                    return None
                if found is not None:
                    return None
                found = param
            elif any(isinstance(n, cst.Name) and n.value == name for n in name_loads(arg.value)):
                return None  # the loop value inside an expression: not followed
        return (function, found) if found is not None else None

    def _is_fresh_callable_instance(self, call: cst.Call, scope: Scope, equality_keyed: bool) -> bool:
        """``Model()`` of a class in this module that has ``__call__``.  jax.jit holds the
        callable weakly, so even an equal (hashable) new instance compiles again once the old
        one is gone; jits that key on equality (pmap, equinox's) need identity hashing."""
        cls = self.context.class_of(call.func, scope)
        if cls is None:
            return False
        methods = class_methods(cls)
        if "__call__" not in methods:
            return False
        if cls.decorators:
            # A dataclass hashes as its arguments say (eq=False: by identity); an unhashable
            # one is another error, an unknown decorator may make anything of it.
            verdict = class_verdict(self.ctx, call.func, scope)
            if verdict is None or verdict[1] in (UNHASHABLE, UNKNOWN_CLASS):
                return False
            return not equality_keyed or verdict[1] == IDENTITY
        return not equality_keyed or ("__eq__" not in methods and "__hash__" not in methods)

    def _is_bound_method(self, expr: cst.Attribute, scope: Scope) -> bool:
        """``self.m`` / ``obj.m`` / ``Cls.cm`` / ``self.model.m``: each access makes a new
        method object."""
        attr = expr.attr.value
        base = expr.value
        if isinstance(base, cst.Name):
            cls = self.context.class_of(base, scope)
            if cls is not None:  # Cls.m: only classmethods are bound
                method = class_methods(cls).get(attr)
                return method is not None and has_decorator(method, "classmethod")
        if isinstance(base, (cst.Name, cst.Call)):
            # an instance: ``obj.m`` of ``obj = Cls(...)``, or ``Cls(...).m`` of one made there
            cls = self.context.instance_class(base, scope) if isinstance(base, cst.Name) \
                else self.context.constructed_class(base.func, scope)
            if cls is not None:
                if attr in _instance_attributes(cls):
                    return False  # ``self.f = self.f`` pins one bound method on the instance
                method = class_methods(cls).get(attr)
                if method is None:
                    # ``self.update`` that the class neither defines nor assigns: inherited from
                    # a base class we cannot see, where a name called like a method is a method.
                    if isinstance(base, cst.Name) and base.value == "self" and not self.context.is_plain_class(cls) \
                            and attr not in _class_attributes(cls) and self._called_as_method(attr):
                        return True
                    return member_kind(self.ctx, ClassRef(local=cls), attr) in BOUND_KINDS
                return not has_decorator(method, "staticmethod") and not has_decorator(method, "property")
        if isinstance(base, cst.Attribute):  # ``self._output.apply``, ``self._output`` filled by
            cls = self.context.attribute_class(base, scope)  # every construction with one class
            method = class_methods(cls).get(attr) if cls is not None else None
            if method is not None and attr not in _instance_attributes(cls):
                return not has_decorator(method, "staticmethod") and not has_decorator(method, "property")
            if cls is not None and method is None and attr not in _instance_attributes(cls) \
                    and attr not in _class_attributes(cls):
                # ``state.model.apply`` of a ``model: GPT`` field, ``apply`` inherited from nn.Module
                return member_kind(self.ctx, ClassRef(local=cls), attr) in BOUND_KINDS
        # The class the code states: an annotation, a pytest fixture, ``self.attr = Cls()``,
        # a class imported from another module or an installed package.
        receiver = receiver_class(self.ctx, base, scope)
        return receiver is not None and member_kind(self.ctx, receiver, attr) in BOUND_KINDS

    def _called_as_method(self, attr: str) -> bool:
        return any(isinstance(site.node.func, cst.Attribute) and isinstance(site.node.func.value, cst.Name)
                   and site.node.func.value.value in ("self", "super") for site in self.model.calls_named(attr)) \
            or any(isinstance(site.node.func, cst.Attribute) and isinstance(site.node.func.value, cst.Call)
                   for site in self.model.calls_named(attr))

    # ---------------------------------------------------------------- how the result is used
    def _result_called(self, app: JitApplication, within) -> bool:
        """Is the jitted result called in the region ``within`` selects (and not lazily built),
        or handed there to a library call that runs it (``scipy.optimize.minimize(loss, ...)``,
        jaxfacts.FUNCTION_RUNNING_CALLS)?"""
        if isinstance(app, EagerLoopApplication) or \
                app.call is not None and self.model.call_site_of[app.call].called_immediately:
            return True
        if app.call is not None and any(
                site.node.args and site.node.args[0].value is app.call
                and any(within(call.frame) for call in self.context.result_calls(site, TRANSFORMS) or ())
                for site in self.model.calls):
            # ``jax.vmap(jax.jit(run_once))(keys)``, or ``solver = vmap(jit(partial(solve, mu)))``
            # then ``solver(keys)``: calling the transform calls the new jit
            return True
        # a call traced inside another jitted function is inlined there: it compiles nothing of
        # its own (the outer jit's finding, if any, says what recompiles)
        calls = [site for site in self._result_calls(app, within) or () if not self.context.runs_traced(site.frame)]
        return bool(calls) or self._handed_to_runner(app, within)

    def _handed_to_runner(self, app: JitApplication, within) -> bool:
        binding = self._result_binding(app)
        if binding is None or self._stored_elsewhere(binding) \
                or any(_mentions(if_node.test, binding.name) for if_node in app.frame.ifs_in_scope()):
            return False
        return self._runs_name(binding, within, 0)

    def _runs_name(self, binding: Binding, within, depth: int) -> bool:
        """A call in ``within`` hands the function ``binding`` names to a library call that runs
        it, or to a function of this module that does (one level: ``cls.from_loss(loss)``)."""
        for site in self.model.calls:
            if not within(site.frame):
                continue
            params = FUNCTION_RUNNING_CALLS.get(self.model.qualified_name(site.node.func, site.frame.scope) or "")
            callee = self.context.callee(site.node, site.frame.scope) if params is None and depth == 0 else None
            if callee is not None and self.context.traced(callee):
                callee = None  # handed to a jitted function: a static argument there (JIT201)
            if params is None and callee is None:
                if depth == 0 and self._library_handoff(site, binding):
                    return True
                continue
            positional = [a.value for a in site.node.args if a.keyword is None and not a.star]
            keywords = {a.keyword.value: a.value for a in site.node.args if a.keyword is not None}
            if callee is not None:
                names = called_positions(self.model, callee)  # obj.method(a) / cls.method(a)
                params = tuple((i, name) for i, name in enumerate(names)) + tuple(
                    (-1, p.name.value) for p in callee.params.kwonly_params)
            for position, keyword in params:
                value = positional[position] if 0 <= position < len(positional) else keywords.get(keyword)
                if not (isinstance(value, cst.Name) and value.value == binding.name
                        and binding in self.model.lookup(value.value, site.frame.scope)):
                    continue
                if callee is None:
                    return True
                inner = self.model.scope_of[callee]
                param = next((b for b in inner.bindings.get(keyword, ()) if b.kind == "param"), None)
                if param is not None and (self.model.calls_to(param) or self._runs_name(
                        param, lambda frame: frame.is_inside(callee), depth + 1)):
                    return True
        return False

    def _library_handoff(self, site: CallSite, binding: Binding) -> bool:
        """``iminuit.Minuit.from_array_func(loss, x0, grad=devf)``: the jitted function handed to
        a library's function or method (neither a def of this module nor a builtin, nor a
        container's method), which takes it to run it: a fresh jit there compiles once per
        iteration whatever the library does with it."""
        func = site.node.func
        qualname = self.model.qualified_name(func, site.frame.scope) or ""
        if not isinstance(func, cst.Attribute) or func.attr.value in CONTAINER_METHODS \
                or qualname.startswith("jax.") or qualname in TRACING_CALLS \
                or self.context.callee(site.node, site.frame.scope) is not None:
            return False  # JAX traces what it is handed: the rules of its transforms say how
        return any(isinstance(a.value, cst.Name) and a.value.value == binding.name
                   and binding in self.model.lookup(a.value.value, site.frame.scope) for a in site.node.args)

    def _reuse(self, app: JitApplication) -> Optional[str]:
        """How the function reuses the jitted callable it binds to a local name: "loop" when a
        loop of its own calls it, "closure" when a nested function calls it (the closure may
        run many times), None when neither."""
        scope = app.frame.scope
        calls = self._result_calls(app, lambda frame: True) or []
        # a call in a helper def the function runs itself counts where the helper is called
        frames = [helper.frame for site in calls if self._helper_run_in(site.frame.scope, scope)
                  for helper in self._helper_calls(site.frame.scope, scope)]
        if any(_enclosing_def(site.frame) is not scope.node and not self._helper_run_in(site.frame.scope, scope)
               for site in calls):
            return "closure"
        frames += [site.frame for site in calls if not self._helper_run_in(site.frame.scope, scope)]
        if any(frame.loops_in_scope() or frame.scope.kind == "comprehension" for frame in frames):
            return "loop"
        return None

    def _result_calls(self, app: JitApplication, within) -> Optional[list[CallSite]]:
        binding = self._result_binding(app)
        if binding is None:
            return None
        if any(_mentions(if_node.test, binding.name) for if_node in app.frame.ifs_in_scope()):
            return None  # lazy initialisation: built once, then reused
        if self._stored_elsewhere(binding):
            return None  # kept in a memo or on an object for later
        if len(self.model.lookup(binding.name, app.frame.scope)) > 1:
            # ``f = jax.jit(f)`` rebinds the name: calls of it in this scope reach the jit
            calls = [site for site in self.model.calls_named(binding.name)
                     if isinstance(site.node.func, cst.Name) and site.frame.scope is binding.scope]
            calls += self._transformed_calls(binding)
        else:
            calls = [*self.model.calls_to(binding), *self._transformed_calls(binding)]
        return [site for site in calls if within(site.frame)]

    def _transformed_calls(self, binding: Binding) -> Iterator[CallSite]:
        """``jax.grad(f)(x)``, ``eqx.filter_grad(f)(...)``: calling what a transform of ``f``
        returns calls ``f``."""
        flow = value_flow(self.ctx)
        # the definition that reaches the transform's argument (a loop's own ``@jit def`` after
        # a module-level one of the same name: the loop's)
        yield from self._transformed_calls_of(
            binding.name, lambda site: flow.reaching(site.node.args[0].value, site.frame.scope) == [binding])

    def _transformed_calls_of(self, name: str, reaches=lambda site: True) -> Iterator[CallSite]:
        """The calls ``T(name)(...)`` of a transform ``T`` (jax.grad, jax.value_and_grad ...),
        also through a name bound to ``T(name)`` in the same scope (``g = jax.grad(f)``, ``g(x)``);
        ``reaches``: which transform calls ``T(name)`` take the binding asked about."""
        for site in self.model.calls:
            if self._transforms(site.node, name, site.frame.scope) and reaches(site):
                yield from self.context.result_calls(site, TRANSFORMS) or ()

    def _transforms(self, call: cst.Call, name: str, scope: Scope) -> bool:
        """``call`` is ``T(name)`` for a transform ``T`` that calls its function."""
        return bool(call.args) and not call.args[0].keyword and not call.args[0].star \
            and isinstance(call.args[0].value, cst.Name) and call.args[0].value.value == name \
            and self.model.qualified_name(call.func, scope) in TRANSFORMS

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
        bindings = self.model.lookup(name, app.frame.scope)
        return next((b for b in bindings if b.node is node), None)

    def _returned_position(self, app: JitApplication) -> Optional[int]:
        """-1 when the function returns the jitted callable itself, i >= 0 when it returns it
        as element i of a tuple; None when it does not return it."""
        if isinstance(self.model.parent_statement.get(app.anchor), cst.Return):
            return -1
        for ret, _ in self.model.returns:  # ``return jax.jit(cost), jax.jit(jax.grad(cost))``
            if isinstance(ret.value, cst.Tuple):
                for index, element in enumerate(ret.value.elements):
                    if element.value is app.anchor:
                        return index
        binding = self._result_binding(app)
        if binding is None:
            return None
        if any(_mentions(if_node.test, binding.name) for if_node in app.frame.ifs_in_scope()):
            return None
        if self._stored_elsewhere(binding):
            return None
        scope = app.frame.scope
        for ret, frame in self.model.returns:
            if frame.scope is not scope or ret.value is None:
                continue
            if isinstance(ret.value, cst.Name) and ret.value.value == binding.name:
                return -1
            if isinstance(ret.value, cst.Tuple):
                for index, element in enumerate(ret.value.elements):
                    if isinstance(element.value, cst.Name) and element.value.value == binding.name:
                        return index
        return None

    def _stored_elsewhere(self, binding: Binding) -> bool:
        """``cache[key] = f`` / ``self._f = f``: a memo keeps the jitted callable alive."""
        for value, statement in self.model.parent_statement.items():
            if isinstance(statement, cst.Assign) and isinstance(value, cst.Name) \
                    and value.value == binding.name:
                if any(not isinstance(t.target, cst.Name) for t in statement.targets):
                    return True
        return False

    # ---------------------------------------------------------------- does the code repeat
    def _factory_result_called_per_iteration(self, factory: cst.FunctionDef, position: int) -> Optional[str]:
        """``make(...)(x)`` in a loop, or ``a, f = make(...)`` then ``f(x)`` in the same iteration."""
        for site in self.context.call_sites(factory):
            if not self.context.site_repeats(site):
                continue
            if position == -1 and site.called_immediately:
                return f"`{factory.name.value}(...)(...)` runs repeatedly"
            if position == -1 and _is_property(factory) and isinstance(site.node.func, cst.Attribute):
                # ``self._poly_basis(x, y, z)``: every access of the property builds the jit anew
                return f"the property `{factory.name.value}` is read and called repeatedly"
            name = _assigned_name(site, position)
            loops = site.frame.loops_in_scope()
            if name is None:
                continue
            for use in (*self.model.calls_named(name), *self._transformed_calls_of(name)):
                scope = use.frame.scope
                while scope.kind == "comprehension" and scope.parent is not None:
                    scope = scope.parent  # ``[run(b) for b in batches]`` calls it in the same function
                if scope is not site.frame.scope or not isinstance(use.node.func, (cst.Name, cst.Call)):
                    continue
                if loops and use.frame.is_inside(loops[0]):
                    return f"its result `{name}` is called in the loop that calls `{factory.name.value}`"
                caller = site.frame.enclosing_function()
                if not loops and caller is not None:
                    # ``cost_fn = build(data)`` then ``cost_fn(q)`` in a function that runs repeatedly
                    return (f"`{caller.name.value}` makes it with `{factory.name.value}(...)` and calls "
                            f"`{name}` on each of its runs, and `{caller.name.value}` runs repeatedly")
        return None

    def _evidence_sites(self, function: cst.FunctionDef) -> tuple[tuple[cst.CSTNode, str], ...]:
        """The calls of ``function`` that _evidence speaks of: those in a loop, else all."""
        sites = self.context.call_sites(function)
        name = function.name.value
        runner = self.context.runner_call(function)
        if runner is not None and not sites:
            return ((runner[1].node, f"`{runner[0]}` calls `{name}` again and again"),)
        in_loops = [site for site in sites if site.frame.loops_in_scope()]
        return tuple((site.node, f"`{name}` is called here, in a loop" if in_loops
                      else f"`{name}` is called here") for site in (in_loops or sites)[:MAX_RELATED])

    def _evidently_eager(self, frame: Frame) -> bool:
        """Module-level code, or an undecorated function (not a method) whose calling context
        shows it eager: run once or repeated, never traced or unknown."""
        if any(isinstance(f.node, cst.ClassDef) for f in frame):
            return False
        function = frame.enclosing_function()
        return function is None or not function.decorators and self.context.how(function) in (ONCE, REPEATED)

    # ---------------------------------------------------------------- straight-line repetition
    def _straight_line_repeat(self, app: JitApplication, kind: str) -> Optional[FreshJit]:
        """The same fresh-callable jit written again in the same block (``jit(obj.f).lower()``
        twice): the second builds a new callable, so it traces and compiles again.  The same
        means the whole expression that uses it (the call with its arguments: other arguments
        may be other shapes, a compile either way) with every name in it bound by the same
        definition (a notebook that redefines ``f`` jits another function).  ``.trace()``
        alone compiles nothing."""
        if app.call is None or isinstance(app.target, cst.Name) or app.frame.loops_in_scope():
            return None
        use = self._use_expression(app.call)
        if use is None or (use is app.call and not isinstance(app, EagerLoopApplication)):
            return None  # only traced, or a jit kept for later (two handles may serve other calls)
        definitions = tuple(id(b.node) for name in _names_read(use)
                            for b in self.model.bindings_at(name, app.frame.scope))
        key = (app.frame.node, self._use_text(use, app.call),
               self.ctx.module.code_for_node(app.target), definitions)
        if key in self._seen_jits:
            return FreshJit(app, kind, "again")
        self._seen_jits[key] = app
        return None

    def _use_text(self, use: cst.BaseExpression, call: cst.Call) -> tuple:
        """``use`` as text, from the jit ``call`` out, a Python number passed directly read as
        its type: ``jit(f)(3)`` and ``jit(f)(5)`` run one program (a scalar's value is not part
        of it), ``jit(f)(jnp.arange(7))`` and ``jit(f)(jnp.arange(8))`` two; ``jit(f).lower(x)``
        traces what ``jit(f)(x)`` does."""
        code = self.ctx.module.code_for_node
        parts: list = [code(call)]
        node = use
        chain = []
        while node is not call:
            chain.append(node)
            node = node.func if isinstance(node, cst.Call) else node.value
        for node in reversed(chain):
            if isinstance(node, cst.Attribute):
                if node.attr.value != "lower":  # ``.lower(x)`` traces as the call ``(x)`` does
                    parts.append(node.attr.value)
            else:
                parts.append(tuple(type(arg.value).__name__ if isinstance(arg.value, (cst.Integer, cst.Float))
                                   else code(arg) for arg in node.args))
        return tuple(parts)

    def _use_expression(self, call: cst.Call) -> Optional[cst.BaseExpression]:
        """``jit(f)(x)`` or ``jit(f).lower(x).compile()`` around the jit ``call``: what runs it
        (None: it is only traced, ``jit(f).trace(x)``)."""
        site = self.model.call_site_of.get(call)
        statement = site.statement if site is not None else None
        if statement is None:
            return call
        parent = parent_map(statement)
        use: cst.BaseExpression = call
        while True:
            above = parent.get(id(use))
            if isinstance(above, cst.Call) and above.func is use:
                use = above
            elif isinstance(above, cst.Attribute) and above.value is use:
                if above.attr.value == "trace":
                    return None
                use = above
            else:
                return use

    # ---------------------------------------------------------------- eager control flow
    def _names_eager_loop(self, name: cst.Name, scope: Scope) -> bool:
        """A lax loop under another name: ``loop = lax.fori_loop``, ``from jax.lax import scan
        as run`` (one binding)."""
        bindings = self.model.lookup(name.value, scope)
        if len(bindings) != 1:
            return False
        binding = bindings[0]
        leaf = binding.imported if binding.kind == "import" else (
            dotted_name(binding.value) if binding.kind == "assign" and binding.value is not None else "")
        return bool(leaf) and leaf.rsplit(".", 1)[-1] in EAGER_LOOP_NAMES

    def eager_loop_applications(self) -> list[JitApplication]:
        """``jax.lax.scan(lambda ...)`` and friends outside any jit: each call traces and
        compiles the loop again when its body (or a while loop's condition) is a new function.
        One application per function argument: ``check`` reports the first that is fresh."""
        found = []
        for site in self.model.calls:
            func = site.node.func
            if not (isinstance(func, cst.Attribute) and func.attr.value in EAGER_LOOP_NAMES
                    or isinstance(func, cst.Name) and (func.value in EAGER_LOOP_NAMES
                                                       or self._names_eager_loop(func, site.frame.scope))):
                continue
            qualname = self.model.qualified_name(func, site.frame.scope)
            positions = EAGER_LOOPS.get(qualname or "")
            if positions is None:
                continue
            args = [a for a in site.node.args if a.keyword is None and not a.star]
            for index in positions:
                if index < len(args) and isinstance(args[index].value, (cst.Lambda, cst.Name, cst.Call)):
                    found.append(EagerLoopApplication(JitRef(qualname), args[index].value, site.node,
                                                site.frame, (), site.node))
        return found


def _source(node: Optional[cst.CSTNode]) -> Optional[str]:
    return cst.Module([]).code_for_node(node) if node is not None else None


class EagerLoopApplication(JitApplication):
    """``jax.lax.scan(body, ...)`` run eagerly: the call itself traces and compiles ``body``."""


# jax.lax loops -> positions of their function arguments (the first fresh one is reported); not
# switch, whose branches come as one sequence
EAGER_LOOPS = {name: tuple(position for position, _ in params)
               for name, params in LAX_CONTROL_FLOW_FUNCTION_PARAMS.items() if name != "jax.lax.switch"}
EAGER_LOOP_NAMES = frozenset(name.rsplit(".", 1)[1] for name in EAGER_LOOPS)


def _names_read(expr: cst.CSTNode) -> list[cst.Name]:
    """The names ``expr`` reads (not attribute names, keywords or a lambda's parameters)."""
    found, stack = [], [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Name):
            found.append(node)
        elif isinstance(node, cst.Attribute):
            stack.append(node.value)
        elif isinstance(node, cst.Arg):
            stack.append(node.value)
        elif isinstance(node, cst.Lambda):
            stack.append(node.body)
        else:
            stack.extend(children(node))
    return found


def _enclosing_def(frame: Frame) -> Optional[cst.CSTNode]:
    """The innermost def or lambda around ``frame`` (comprehensions are looked through)."""
    for f in frame:
        if isinstance(f.node, (cst.FunctionDef, cst.Lambda, cst.ClassDef, cst.Module)):
            return f.node
    return None


def _assigned_name(site: CallSite, position: int) -> Optional[str]:
    """The name the call's result (or its element ``position``) is assigned to."""
    statement = site.statement
    if statement is None or not isinstance(statement, cst.SimpleStatementLine):
        return None
    assign = statement.body[0]
    if not isinstance(assign, cst.Assign) or assign.value is not site.node or len(assign.targets) != 1:
        return None
    target = assign.targets[0].target
    if position == -1:
        return target.value if isinstance(target, cst.Name) else None
    if isinstance(target, (cst.Tuple, cst.List)) and position < len(target.elements):
        element = target.elements[position].value
        return element.value if isinstance(element, cst.Name) else None
    return None


def _params(function: cst.FunctionDef) -> set[str]:
    params = function.params
    return {p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)}


def _jax_array_expression(model: SemanticModel, expr: cst.BaseExpression, scope: Scope) -> bool:
    """``expr`` certainly computes a jax array: a ``jax.numpy`` or ``jax.random`` call, or a
    slice of, a sign on or arithmetic with one."""
    while isinstance(expr, (cst.Subscript, cst.UnaryOperation)):
        expr = expr.value if isinstance(expr, cst.Subscript) else expr.expression
    if isinstance(expr, cst.BinaryOperation):
        return _jax_array_expression(model, expr.left, scope) or _jax_array_expression(model, expr.right, scope)
    return isinstance(expr, cst.Call) and array_made_by(model, expr, scope) == "a jax Array"


def _operand_only(body: cst.CSTNode, name: str, params: set[str], array_call=lambda call: False) -> bool:
    """Every read of ``name`` in ``body`` sits in an arithmetic expression that also reads a
    parameter (so the expression is an array computation), and that expression is a whole
    value: returned, assigned, or the body of a lambda, never a call argument, an index, a
    condition or a keyword (shapes, dtypes, static values, control flow)."""
    loads = {id(loaded) for loaded in name_loads(body) if loaded.value == name}
    verdicts: list[bool] = []
    traced = _traced_locals(body, params - {name})

    class _Check(Walker):
        def __init__(self) -> None:
            self.stack: list[cst.CSTNode] = []

        def on_visit(self, node: cst.CSTNode) -> bool:
            if id(node) in loads:
                verdicts.append(_arithmetic_operand(self.stack, traced, array_call))
            self.stack.append(node)
            return True

        def on_leave(self, node: cst.CSTNode) -> None:
            self.stack.pop()

    _Check().walk(body)
    return bool(verdicts) and all(verdicts)


def _traced_locals(body: cst.CSTNode, params: set[str]) -> set[str]:
    """``params`` and the names the body assigns from them (``predicted = x @ params``):
    arrays computed from the callable's arguments."""
    traced = set(params)
    assigns = [n for n in iter_nodes(body) if isinstance(n, cst.Assign)]
    grew = True
    while grew:
        grew = False
        for assign in assigns:
            if not any(n.value in traced for n in name_loads(assign.value)):
                continue
            for leaf in (leaf for target in assign.targets for leaf in target_leaves(target.target)):
                if isinstance(leaf, cst.Name) and leaf.value not in traced:
                    traced.add(leaf.value)
                    grew = True
    return traced


def _reads_only_shape(node: cst.CSTNode, name: str, outer: set[str]) -> bool:
    """Every read of ``name`` in the callable ``node`` is ``name.shape`` (``dtype``, ``ndim``,
    ``size``) or an operand of array arithmetic: leaves of one shape and dtype give one
    program.  ``outer``: the enclosing function's other parameters (not the callable's)."""
    body = node.body if isinstance(node, (cst.Lambda, cst.FunctionDef)) else node
    params = _params(node) if isinstance(node, cst.FunctionDef) else \
        {p.name.value for p in node.params.params} if isinstance(node, cst.Lambda) else set()
    params -= outer
    loads = {id(loaded) for loaded in name_loads(body) if loaded.value == name}
    verdicts: list[bool] = []

    class _Check(Walker):
        def __init__(self) -> None:
            self.stack: list[cst.CSTNode] = []

        def on_visit(self, visited: cst.CSTNode) -> bool:
            if id(visited) in loads:
                parent = self.stack[-1] if self.stack else None
                verdicts.append(isinstance(parent, cst.Attribute) and parent.value is visited
                                and parent.attr.value in SHAPE_ATTRIBUTES
                                or _arithmetic_operand(self.stack, params))
            self.stack.append(visited)
            return True

        def on_leave(self, visited: cst.CSTNode) -> None:
            self.stack.pop()

    _Check().walk(body)
    return all(verdicts)


MAPPED = "mapped"  # what ``_array_call`` says of a call of a function a mapping transform made


def _arithmetic_operand(ancestors: list[cst.CSTNode], params: set[str], array_call=lambda call: False) -> bool:
    """The read whose ancestors these are sits in array arithmetic on a parameter (through
    positional arguments of jax.numpy functions too, which ``array_call`` recognises) whose
    whole value is returned or assigned."""
    index = len(ancestors) - 1
    if index > 0 and isinstance(ancestors[index], cst.Arg) and ancestors[index].keyword is None \
            and not ancestors[index].star and isinstance(ancestors[index - 1], cst.Call) \
            and array_call(ancestors[index - 1]) == MAPPED:
        return True  # ``jax.vmap(per_example)(batch)``: a mapped argument is array data
    if index < 0 or not isinstance(ancestors[index], ARITHMETIC):
        return False
    while index > 0:
        if isinstance(ancestors[index - 1], ARITHMETIC):
            index -= 1
        elif index > 1 and isinstance(ancestors[index - 1], cst.Arg) and ancestors[index - 1].keyword is None \
                and not ancestors[index - 1].star and isinstance(ancestors[index - 2], cst.Call) \
                and array_call(ancestors[index - 2]):
            index -= 2
        else:
            break
    top = ancestors[index]
    if index > 2 and isinstance(ancestors[index - 1], cst.Element) and isinstance(ancestors[index - 2], cst.Tuple):
        index -= 2  # ``return loss, aux``: an element of a returned or assigned tuple is whole
    holder = ancestors[index - 1] if index > 0 else None
    if not any(loaded.value in params for loaded in name_loads(top)):
        return False  # arithmetic on Python values only (e.g. a size): not an array operand
    return holder is None or isinstance(holder, (cst.Lambda, cst.Return, cst.Assign, cst.AnnAssign))


def _instance_attributes(cls: cst.ClassDef) -> set[str]:
    """Attributes that the class's methods assign on ``self`` (they shadow methods)."""
    names: set[str] = set()
    for method in class_methods(cls).values():
        for node in _walk_statements(method.body):
            if isinstance(node, cst.Assign):
                for target in node.targets:
                    t = target.target
                    if isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value == "self":
                        names.add(t.attr.value)
    return names


def _class_attributes(cls: cst.ClassDef) -> set[str]:
    names: set[str] = set()
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    for statement in body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.Assign):
                    names.update(t.target.value for t in small.targets if isinstance(t.target, cst.Name))
                elif isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                    names.add(small.target.value)
    return names


def _is_property(function: cst.FunctionDef) -> bool:
    """``@property``: its body runs on every access (``functools.cached_property`` runs once)."""
    return any(isinstance(d.decorator, cst.Name) and d.decorator.value == "property" for d in function.decorators)


def _walk_statements(block: cst.CSTNode) -> Iterator[cst.CSTNode]:
    stack = [block]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)) and node is not block:
            continue
        if isinstance(node, (cst.BaseSuite, cst.BaseCompoundStatement, cst.SimpleStatementLine,
                             cst.Else, cst.ExceptHandler, cst.Finally)):
            stack.extend(node.children)
    return


def _keyword_is_true(app: JitApplication, name: str) -> bool:
    return any(arg.keyword is not None and arg.keyword.value == name
               and isinstance(arg.value, cst.Name) and arg.value.value == "True"
               for arg in app.keywords)


def _mentions(expr: cst.BaseExpression, name: str) -> bool:
    """Whether ``expr`` reads ``name`` (as a variable or as an attribute name)."""
    return any(isinstance(node, cst.Name) and node.value == name for node in iter_nodes(expr))


# The repetition model, the same for every JIT1xx rule: added to each rule's "What it does".
WHEN_IT_FIRES = """\
It fires where the code that builds the callable runs more than once: in a loop body that
calls the result (also through a transform around it: `solver = vmap(jit(partial(solve,
mu)))` then `solver(keys)`, hflow's viscosity sweep, 5 compiles for 5 values, one with `mu`
an argument), or in a function that calls the result (every call of that function
compiles, whether or not its callers are in view; a caller seen in a loop is named as
evidence). A function that builds the jit once and reuses it in its own loop is reported
only when it is itself seen to repeat (a `train_epoch` called per epoch), and a factory only
when its result (or a tuple element of it) is called per iteration, or when a pytree map
calls it per leaf (`jax.tree.map(make_init, specs)`) and its jit reads the leaf only through
its shape and dtype (leaves of one shape are one program, compiled again per leaf; measured:
12 leaves of 2 shapes, 12 compiles; one jit with the shape static, 2). A jit that `__init__`
stores on the object (directly, or through a setup method it runs, `self._fn =
self._setup()`) is reported when a loop makes a new object on every iteration and calls it,
or a method of the class that calls it (5 compiles for 5 objects). A jitted local def may be
called through a name a branch binds to one of several (`sample = sample_f` or `sample =
sample_t`). The same jit written twice in one block is reported at the second. Silent: module top level, `if __name__ ==
"__main__":`, `main`/`train`/`fit`-like entry points, test files and tests,
`__init__`/`setUp`, `init`/`setup`/`build`-named initialisation functions, functions only
called from code that runs once or from traced code (also functions handed to a jit or
transform anywhere in the module, `jax.jit(env.step)` included), a helper called per item
with the item its jitted callable closes over (one program per item: `[init(m) for m in
models]`; a loop over batches of data from a loader or a generator that yields slices or
arrays is not that: its items are data, flax#1218), memoised factories (`functools.cache`, `*cache*`/`*memo*` decorators), lazy init,
jits stored on objects or returned, `inline=True`, `.lower()`/`.trace()` only."""


class FreshCallableRule(Rule):
    """Base of the JIT1xx rules: each reports the fresh jits of its ``kinds``."""

    kinds: Sequence[str]

    @classmethod
    def doc(cls) -> str:
        own = super().doc()
        why = own.index("## Why is this bad?")
        return own[:why] + WHEN_IT_FIRES + "\n\n" + own[why:]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        # Several fresh jits in one function that compile on each of its calls are one thing to
        # change (build them once, outside): one finding, at the first, the others related.
        grouped: dict[tuple, list[FreshJit]] = {}
        for fresh in fresh_jits(ctx):
            if fresh.kind not in self.kinds:
                continue
            key = (fresh.kind, id(fresh.function), _branches(fresh.app)) \
                if fresh.function is not None and fresh.repetition in ("function", "builder") else (id(fresh),)
            grouped.setdefault(key, []).append(fresh)
        for group in grouped.values():
            first, others = group[0], group[1:]
            message = first.message()
            if others:
                name = first.function.name.value if first.function is not None else "?"
                message += (f"; {len(others)} more jit{'s' if len(others) > 1 else ''} in `{name}` "
                            f"{'are' if len(others) > 1 else 'is'} built anew on each call the same way")
            related = first.related + tuple((other.app.anchor, "also jitted anew on each call")
                                            for other in others)
            yield Violation(first.app.anchor, message, related)


def _branches(app: JitApplication) -> tuple[tuple[int, bool], ...]:
    """The ``if`` branches ``app`` is written in (each ``if`` and whether in its body): jits in
    exclusive branches run on different calls, each is its own finding."""
    return tuple((id(node), any(n is app.anchor for n in iter_nodes(node.body)))
                 for node in app.frame.ifs_in_scope())


def _wraps_callable(call: cst.Call) -> bool:
    return any(arg.keyword is None and not arg.star for arg in call.args)


def _shared_analysis(ctx: FileContext) -> "_Analysis":
    return ctx.shared("fresh-analysis", _Analysis)
