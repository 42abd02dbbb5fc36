"""Calling context: how a function of this module runs, judged from how the module calls it.

Every rule that asks "does this code run eagerly, and how often?" asks this one analysis
(``calling_context(ctx)``) instead of keeping a guess of its own.  A function runs

* **traced** (``TRACED``) when it is jitted or handed to a transform anywhere in the module
  (``jax.jit(f)``, ``@jax.jit``, ``jax.vmap(f)``, ``jax.grad``, ``lax.scan``/``fori_loop``/
  ``while_loop``/``cond`` bodies, ``checkpoint``, ``pmap``, ``shard_map``, ``custom_vjp``,
  flax's and equinox's transforms ...), also as a bound method (``jax.jit(env.step)``,
  ``jax.jit(self.step)``: the receiver's class when it is known, else the one class of the
  module that defines a method of that name), or when every one of its callers in the module
  runs traced (a fixed point over the call graph).  A transform that keeps no compiled
  program (``jax.grad``, ``jax.vmap``: ``jaxfacts.RETRACING_TRANSFORMS``) runs the function
  again on every call of its result: there the calls of the result (``jax.grad(loss)(w)``,
  ``g = jax.grad(loss)`` then ``g(w)``) count as calls of the function, eager where they are
  eager; a result that goes anywhere else (into a jit, returned, stored) is taken as traced.
  A framework Module's ``__call__`` (a class whose bases we cannot see) runs under its
  caller's trace too, unless the module applies a flax.linen Module only eagerly
  (``model.init(key, x)`` then ``model.apply(params, x)`` in plain code): then each
  application is a call site of its ``__call__``.  Traced code runs once per trace of the outer jit, then the compiled
  program runs: what it builds costs nothing per call;
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
once to one, or to a ``range``, a parameter's literal default, or a list appended to in a loop
over such items) runs once per distinct program: ``sweeps_configurations``.  A call there does
not repeat its callee when it reads the item as a configuration, also through names the loop
binds from it (``for lvl in levels: y = lvl["projections"]; align(y)``: a new shape per level).
"""

from __future__ import annotations

import dataclasses
import functools
from functools import cached_property
from typing import Iterator, NamedTuple, Optional

import libcst as cst

from jitlint.callgraph import (ECOSYSTEM, ENTRY_POINT_WORDS, MEMO_WORDS, MEMOISERS, NOT_TRACING,
                               ONCE, REPEATED, RUNNERS, TRACED, UNKNOWN, is_test_file, is_transform,
                               runs_once_by_name)
from jitlint.jaxfacts import (APPLIED_MODULE_BASES, APPLYING_METHODS, CONCRETE_PARAMS, FUNCTION_KEEPING_ESTIMATORS, FUNCTION_RUNNING_CALLS,
                              RETRACING_TRANSFORMS, SEEDING_CALLS, concrete_param)
from jitlint.project import module_name_for
from jitlint.rule import FileContext
from jitlint.semantic import (COMPREHENSION_TYPES, Binding, CallSite, Frame, Scope, SemanticModel,
                              argument_value, dotted_name, has_decorator, is_none, passed_values)
from jitlint.values import (array_made_by, builtin_call, class_namespace_alias, literal_truth, Returned, attribute_written_elsewhere, fields_made_in_init, fields_set_in_init, function_returns,
                            method_of_self, origin, returned_made_function, returned_values,
                            self_attribute_value, single_local_base, tuple_elements, unpacked_call, value_flow)
from jitlint.walk import children, iter_nodes, own_nodes, source_text

# ``f.defvjp(fwd, bwd)``: the rules of a custom derivative are traced with ``f``.
DERIVATIVE_RULES = frozenset({"defvjp", "defjvp", "defjvps", "def_fwd", "def_bwd"})
PARTIAL_CONSTRUCTORS = frozenset({"functools.partial", "jax.tree_util.Partial"})
# Decorators that leave a function an ordinary function called as often as its callers call it.
PLAIN_DECORATORS = frozenset({"staticmethod", "classmethod", "property", "abc.abstractmethod",
                              "functools.wraps", "typing.overload", "typing_extensions.override",
                              "typing.override"})

# Timing calls: a loop that measures each variant is a benchmark sweep, one compile each.
BENCHMARK_TIMERS = frozenset({"timeit.timeit", "timeit.repeat"})
TIMERS = BENCHMARK_TIMERS | frozenset({"time.time", "time.perf_counter", "time.monotonic", "time.process_time",
                                       "timeit.default_timer"})


def calling_context(ctx: FileContext) -> "CallingContext":
    return ctx.shared("calling-context", CallingContext)


def live_applications(ctx: FileContext) -> list:
    """The module's jit applications that can run: all but those under an ``if`` that no call
    takes (CallingContext.never_runs: ``if jit: self.update = jax.jit(self._update)`` of a
    class every construction gives ``jit=False``)."""
    return ctx.shared("live-jit-applications", lambda ctx: [
        app for app in ctx.jit_applications if not calling_context(ctx).never_runs(app.anchor, app.frame)])


class CallingContext:
    def __init__(self, ctx: FileContext) -> None:
        self.ctx = ctx
        self.model: SemanticModel = ctx.model
        self.test_file = is_test_file(ctx.path)
        self._traced: dict[cst.FunctionDef, bool] = {}
        self._how: dict[cst.FunctionDef, str] = {}
        self._known: dict[cst.FunctionDef, bool] = {}
        self._passed: dict[object, Optional[cst.ClassDef]] = {}
        self._passed_at: dict[int, CallSite] = {}  # a call through a parameter -> the passing call
        self._typing: set[int] = set()  # instance_class's bindings being resolved (cycle guard)

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
        framework = self._framework_call(function)
        result = function in self._handed.traced_defs or framework
        if result and not function.decorators and not framework:
            # handed to a transform, and also called directly, outside any trace, again and
            # again (``with_inner_jit(1)``, ``with_inner_jit(-1)``, then checkify of it): it
            # runs eagerly too, so it is judged by those calls
            direct = [site for site in self.call_sites(function) if isinstance(site.node.func, cst.Name)
                      and not self.runs_traced(site.frame)]
            result = not (direct and self._repeats(function, direct))
        if not result:
            sites = self.call_sites(function)
            if sites:
                result = all(self.runs_traced(site.frame) for site in sites)
            elif function not in self._handed.run_defs and function not in self._handed.library_handoffs:
                verdict = self._project(function)  # only callers in other modules
                result = verdict is not None and verdict[0] == TRACED
        self._traced[function] = result
        return result

    def site_repeats(self, site: CallSite) -> bool:
        """The eager call ``site`` runs more than once: in a loop, or in a repeated function."""
        if self.runs_traced(site.frame):
            return False
        # a loop over a literal list of configurations runs the call once per distinct program
        # (``for lvl in levels: align(..., lvl["projections"])``, a new shape per level)
        if any(not self.sweeps_configurations(loop, site.frame.scope, site.node, sizes_only=True)
               for loop in site.frame.loops_in_scope()) \
                or any(f.node in self._handed.runner_lambdas for f in site.frame):
            return True
        if id(site) in self._passed_at:
            return self.site_repeats(self._passed_at[id(site)])
        caller = site.frame.enclosing_function()
        return caller is not None and self.how(caller) == REPEATED

    def site_runs_once(self, site: CallSite) -> bool:
        if self.runs_traced(site.frame):
            return True  # traced once per compile of the outer jit, then inlined
        if site.frame.loops_in_scope():
            return False
        if id(site) in self._passed_at:
            return self.site_runs_once(self._passed_at[id(site)])
        caller = site.frame.enclosing_function()
        if caller is None:
            return not any(isinstance(f.node, cst.ClassDef) for f in site.frame)  # module level
        return self.how(caller) in (ONCE, TRACED)

    # ---------------------------------------------------------------- what a verdict rests on
    def unknown_context(self, node: cst.CSTNode) -> Optional["UnknownContext"]:
        """What makes the context of ``node`` unknown, when it lies in a function whose callers
        jitlint cannot see (neither traced nor reached from code known to run eagerly): a
        finding there rests on a guess (the opt-in group ``unknown-callers``)."""
        function = self.function_around(node)
        if function is None or self.context_known(function):
            return None
        roots: dict[cst.FunctionDef, str] = {}
        self._unknown_roots(function, roots, set())
        return UnknownContext(tuple(roots.items()), tuple(
            q for root in roots if (q := self.qualname(root)) is not None))

    def context_known(self, function: cst.FunctionDef) -> bool:
        """Whether the call graph shows how ``function`` runs: traced, or reached from code that
        runs eagerly (module level, an entry point, a test, a constructor, a caller known so),
        in this module or, through the project index, in another."""
        if function in self._known:
            return self._known[function]
        self._known[function] = False  # cycle guard: a recursion shows nothing
        # REPEATED alone is no evidence: "called in a loop" inside a function whose own callers
        # are unknown says how often it would run if eager, not that it runs eagerly.
        result = self.traced(function) or self._repeats_by_role(function) or self.memoised(function) \
            or self.test_file \
            or self._runs_once_by_role(function) or self._project(function) is not None \
            or any(self._site_known(frame) for frame in self._handed.run_defs.get(function, ())) \
            or (function in self._handed.runner_called and self._site_known(self._handed.runner_called[function][1].frame)) \
            or any(self._site_known(site.frame) for site in self.call_sites(function))
        self._known[function] = result
        return result

    def function_around(self, node: cst.CSTNode) -> Optional[cst.FunctionDef]:
        """The innermost def whose body holds ``node`` (None at module level or in a class
        body; a def's decorators run where the def is)."""
        best: Optional[cst.FunctionDef] = None
        for function in self.model.functions:  # the innermost: the latest entered of those around it
            if self.model.encloses(function.body, node) \
                    and (best is None or self.model.order(function.body) > self.model.order(best.body)):
                best = function
        return best

    def qualname(self, function: cst.FunctionDef) -> Optional[str]:
        """``module.f`` or ``module.Class.method``: how other modules' calls name it (None for
        a nested def, which only its own module can call)."""
        outer = self.model.functions[function].scope
        module = self.model.module_name or module_name_for(self.ctx.path)[0]
        if outer is self.model.module_scope:
            return f"{module}.{function.name.value}"
        if outer.kind == "class" and self.model.classes[outer.node].scope is self.model.module_scope:  # type: ignore[index]
            return f"{module}.{outer.node.name.value}.{function.name.value}"  # type: ignore[attr-defined]
        return None

    def repetition_evidence(self, function: cst.FunctionDef, repeating_site: bool = False) -> Optional[str]:
        """Visible repetition of ``function`` in this module, in words (None: none seen).
        ``repeating_site``: several plain call sites are not enough, one must repeat."""
        if self.how(function) != REPEATED:
            return None
        if function.name.value == "__call__":
            return "it runs on every call of the object"
        sites = self.call_sites(function)
        runner = self.runner_call(function)
        if runner is not None and not sites:
            return f"`{runner[0]}` calls it again and again"
        elsewhere = self.project_evidence(function)
        if elsewhere is not None and not sites:
            return elsewhere  # "called on every iteration at train.py:88"
        if repeating_site and not any(self.site_repeats(site) for site in sites):
            return None
        if any(site.frame.loops_in_scope() for site in sites):
            return "it is called in a loop"
        if len(sites) >= 2:
            return f"it is called from {len(sites)} places"
        callers = [site.frame.enclosing_function() for site in sites]
        names = sorted({c.name.value for c in callers if c is not None})
        return f"it is called from `{names[0]}`, which runs repeatedly" if names else "it runs repeatedly"

    def project_evidence(self, function: cst.FunctionDef) -> Optional[str]:
        """Where another module (or this one, seen project-wide) repeats ``function``: "called
        on every iteration at train.py:88"."""
        verdict = self._project(function)
        return verdict[1] if verdict is not None and verdict[0] == REPEATED else None

    def _project(self, function: cst.FunctionDef) -> Optional[tuple[str, str]]:
        """(how, evidence) of ``function`` from its callers across the project, when they show
        it (the index's call graph, phase 2); None when unknown or not asked."""
        index = self.ctx.index
        if index is None or not (index.callers or index.traced):
            return None
        qualname = self.qualname(function)
        if qualname is None:
            return None
        verdict = index.callers.get(qualname)
        if verdict is None and qualname in index.traced:  # its traced callers in other modules
            return TRACED, f"called with traced arguments from {index.traced[qualname][2]}"
        return verdict

    def _project_how(self, function: cst.FunctionDef) -> str:
        verdict = self._project(function)
        return UNKNOWN if verdict is None else verdict[0]

    def _site_known(self, frame: Frame) -> bool:
        if self.runs_traced(frame):
            return True
        caller = frame.enclosing_function()
        if caller is None:
            return True  # module level (or a class body): runs on import
        return self.context_known(caller)

    def _unknown_roots(self, function: cst.FunctionDef, roots: dict[cst.FunctionDef, str],
                       seen: set[cst.FunctionDef]) -> None:
        """The functions, up the local callers of ``function``, whose own callers are not seen:
        each with why ("nothing in the project calls `f`", "`f` is handed to `optax.X`")."""
        if function in seen:
            return
        seen.add(function)
        handed = self._handed.library_handoffs.get(function)
        if handed:
            roots[function] = f"`{function.name.value}` is handed to `{handed}`, which jitlint cannot follow"
        sites = [site for site in self.call_sites(function) if not self._site_known(site.frame)]
        callers = [site.frame.enclosing_function() for site in sites]
        for caller in callers:
            if caller is not None:
                self._unknown_roots(caller, roots, seen)
        if not sites and not handed:
            roots[function] = f"nothing in the project calls `{function.name.value}`"

    def call_sites(self, function: cst.FunctionDef) -> list[CallSite]:
        """Where the module calls ``function`` (recursive calls from its own body left out:
        they run wherever the function runs)."""
        outer = self.model.functions[function]
        if outer.scope.kind == "class":
            # a method: self.name(...), obj.name(...) on an instance, Cls(...).name(...), or
            # Cls.name(...) (a classmethod or staticmethod)
            # (an instance of a subclass that inherits it runs it too)
            # (and ``self.name(...)`` in a base class that leaves ``name`` to its subclasses)
            sites = [site for site in self.model.calls_named(function.name.value)
                     if isinstance(site.node.func, cst.Attribute)
                     and (receiver := self._receiver_class(site.node.func.value, site.frame.scope)) is not None
                     and self._runs_method(receiver, site.node.func, function)]
        else:
            binding = next((b for b in outer.scope.bindings.get(function.name.value, ())
                            if b.node is function), None)
            sites = list(self.model.calls_to(binding)) if binding is not None else []
            # ``pkg.sim(...)`` through a class used as a namespace (``sim = staticmethod(sim)``)
            sites += [site for site in self.model.calls_named(function.name.value) if binding is not None
                      and isinstance(site.node.func, cst.Attribute)
                      and class_namespace_alias(self.model, site.node.func, site.frame.scope) is binding]
        sites += self._handed.applied.get(function, ())
        sites += self._called_through_parameters.get(function, ())
        sites += self._calls_of_made_functions.get(function, ())
        sites += self._calls_through_partials.get(function, ())
        sites += self._calls_through_self_attributes.get(function, ())
        sites += self._instantiations(function)
        sites += self._applications(function)
        return [site for site in sites if not site.frame.is_inside(function)]

    def _runs_method(self, receiver: cst.ClassDef, func: cst.Attribute, method: cst.FunctionDef) -> bool:
        """``receiver_obj.name`` runs ``method``: the class (or a base) defines it, or ``self``
        of a base class that does not, whose subclass ``method`` supplies it."""
        found = inherited_method(self.model, receiver, method.name.value)
        if found is not None:
            return found is method
        return isinstance(func.value, cst.Name) and func.value.value == "self" \
            and method in overriding_methods(self.model, receiver, method.name.value)

    def never_runs(self, node: cst.CSTNode, frame: Frame) -> bool:
        """``node`` sits in the body of an ``if FLAG:`` (or the ``else`` of one) that no call
        takes: ``FLAG`` is a parameter every call in the module fills with a literal of the other
        truth (its default where a call leaves it out: ``SACAgent(..., jit=False)`` and ``if
        jit: self.update = jax.jit(self._update)``), or ``not FLAG`` of one."""
        if self.model.span(node) is None:
            return False
        for enclosing in frame:
            if isinstance(enclosing.node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
                return False
            if not isinstance(enclosing.node, cst.If):
                continue
            truth = self._flag_truth(enclosing.node.test, enclosing.scope)
            if truth is not None and self.model.encloses(enclosing.node.body, node) != truth:
                return True
        return False

    def _flag_truth(self, test: cst.BaseExpression, scope: Scope) -> Optional[bool]:
        """The one truth value every call gives ``test``, a parameter or ``not`` one; None when
        calls differ or are not known."""
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            inner = self._flag_truth(test.expression, scope)
            return None if inner is None else not inner
        if not isinstance(test, cst.Name):
            return None
        binding = self.model.single_binding(test.value, scope)
        passed = self.passed_to(binding) if binding is not None and binding.kind == "param" else None
        truths = {literal_truth(value) for value, _ in passed or ()}
        return truths.pop() if len(truths) == 1 and None not in truths else None

    def passed_to(self, param: Binding) -> Optional[list[tuple[cst.BaseExpression, CallSite]]]:
        """What every call in the module gives the parameter ``param`` of a plain def, or of a
        class's ``__init__`` through the constructions of the class (its default where a call
        leaves it out); None when a call's arguments are not readable, or for another method
        (its callers pass values through receivers)."""
        func = param.scope.node
        if param.kind != "param" or not isinstance(param.node, cst.Param) or not isinstance(func, cst.FunctionDef) \
                or func.params.star_arg is param.node:
            return None
        positional = [p.name.value for p in (*func.params.posonly_params, *func.params.params)]
        sites = self.call_sites(func)
        through_partials = {id(site) for site in self._calls_through_partials.get(func, ())}
        if any(id(site) in through_partials for site in sites):
            return None  # a partial binds some of the arguments elsewhere
        if self.model.functions[func].scope.kind == "class":
            if any(has_decorator(func, name) for name in ("staticmethod", "classmethod")) \
                    or not positional or param.name == positional[0]:
                return None
            positional = positional[1:]
            # a method: its calls through an instance (``evaluator.evaluate(actor, state)``)
            # bind ``self`` first; any other kind of call leaves the values unknown
            if func.name.value != "__init__" and not all(
                    isinstance(site.node.func, cst.Attribute) and func.name.value == site.node.func.attr.value
                    and self.class_of(site.node.func.value, site.frame.scope) is None for site in sites):
                return None
        position = positional.index(param.name) if param.name in positional else None
        return passed_values(sites, position, param.name, param.node.default)

    def handed_bindings(self, param: Binding, depth: int = 0) -> Optional[list[Binding]]:
        """The bindings of the names every call hands the parameter ``param``, through the
        parameters of other functions that pass it on (``solve_ode(dfx=linear_2D)`` passing
        ``dfx`` to ``rk4``): the defs or jits a parameter called as a function runs.  None
        when a call hands anything but a name, or nothing is known."""
        passed = self.passed_to(param) if depth < 3 else None
        if not passed:
            return None
        found: list[Binding] = []
        for value, site in passed:
            binding = self.model.single_binding(value.value, site.frame.scope) if isinstance(value, cst.Name) else None
            if binding is None:
                return None
            inner = self.handed_bindings(binding, depth + 1) if binding.kind == "param" else [binding]
            if inner is None:
                return None
            found.extend(b for b in inner if all(b is not seen for seen in found))
        return found

    @cached_property
    def _calls_through_self_attributes(self) -> dict[cst.FunctionDef, list[CallSite]]:
        """``self._broadcast_key_fn = _broadcast_key`` (a def, in any method, also lazily under
        ``if not self._broadcast_key_fn:``) then ``self._broadcast_key_fn(k)``: the call runs
        that def, when it is the one def the class ever stores there."""
        stored: dict[tuple[int, str], set] = {}
        for cls in self.model.classes:
            for field, default in self._function_fields(cls).items():
                stored.setdefault((id(cls), field), set()).update(default)
            for method in class_methods(cls).values():
                scope = self.model.scope_of.get(method)
                params = [*method.params.posonly_params, *method.params.params]
                if scope is None or not params:
                    continue
                for node in iter_nodes(method.body):
                    if not isinstance(node, cst.Assign):
                        continue
                    for target in node.targets:
                        attr = target.target
                        if not (isinstance(attr, cst.Attribute) and isinstance(attr.value, cst.Name)
                                and attr.value.value == params[0].name.value):
                            continue
                        key = (id(cls), attr.attr.value)
                        if is_none(node.value):
                            continue  # ``self._fn = None`` until it is made
                        value = node.value
                        if isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name) \
                                and value.value.value == params[0].name.value:
                            # ``self._do_step = self._do_step_fixed``: a method of the class (one
                            # it does not define, perhaps inherited, adds no call of its own)
                            method_def = class_methods(cls).get(value.attr.value)
                            if method_def is not None:
                                stored.setdefault(key, set()).add(method_def)
                            continue
                        binding = self.model.single_binding(value.value, scope) \
                            if isinstance(value, cst.Name) else None
                        stored.setdefault(key, set()).add(
                            binding.node if binding is not None and binding.kind == "def" else None)
        found: dict[cst.FunctionDef, list[CallSite]] = {}
        for site in self.model.calls:
            func = site.node.func
            if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)):
                continue
            method = method_of_self(self.model, func.value, site.frame.scope)
            owner = self.model.functions[method].scope.node if method is not None and method in self.model.functions \
                else None
            defs = stored.get((id(owner), func.attr.value)) if isinstance(owner, cst.ClassDef) else None
            # one of several (``self._do_step = self._do_step_adaptive if ... else
            # self._do_step_fixed``): the call runs whichever the object holds, a call of each
            for each in defs if defs is not None and None not in defs else ():
                found.setdefault(each, []).append(site)
        return found

    @cached_property
    def _calls_of_made_functions(self) -> dict[cst.CSTNode, list[CallSite]]:
        """``integrate = self._get_integrate_fn(...)`` then ``integrate(state)``: a call of the
        def the factory (or method) creates and returns runs that def."""
        found: dict[cst.CSTNode, list[CallSite]] = {}
        for site, binding in self._calls_of_names_bound_to_calls:
            made = self.made_function(binding.value, binding.scope)
            if isinstance(made, cst.FunctionDef):
                found.setdefault(made, []).append(site)
        return found

    @cached_property
    def _calls_of_names_bound_to_calls(self) -> list[tuple[CallSite, Binding]]:
        """(call, binding) for each call of a name bound once to what a call returned
        (``integrate = make(...)``, ``sample_fn = partial(...)``)."""
        found = []
        for site in self.model.calls:
            func = site.node.func
            binding = self.model.single_binding(func.value, site.frame.scope) if isinstance(func, cst.Name) else None
            if binding is not None and binding.kind == "assign" and isinstance(binding.value, cst.Call):
                found.append((site, binding))
        return found

    @cached_property
    def _calls_through_partials(self) -> dict[cst.CSTNode, list[CallSite]]:
        """``sample_fn = partial(implicit, num_images=16, ...)`` then ``sample_fn(seed=0)``: a
        call of the partial runs the def (its arguments are not all at the call: passed_to
        leaves such calls unknown)."""
        found: dict[cst.CSTNode, list[CallSite]] = {}
        for site, binding in self._calls_of_names_bound_to_calls:
            value = binding.value
            if not (value.args and value.args[0].keyword is None and isinstance(value.args[0].value, cst.Name)
                    and self.model.qualified_name(value.func, binding.scope) in PARTIAL_CONSTRUCTORS):
                continue
            target = self.model.single_binding(value.args[0].value.value, binding.scope)
            if target is not None and target.kind == "def" and isinstance(target.node, cst.FunctionDef):
                found.setdefault(target.node, []).append(site)
        return found

    @cached_property
    def _called_through_parameters(self) -> dict[cst.FunctionDef, list[CallSite]]:
        """``run_algorithm(vfi, model)`` where the def ``run_algorithm`` calls its parameter
        (``algorithm(model)``): ``vfi`` runs at those calls, as often as the passing call runs
        (``_passed_at``; ``run_algorithm`` itself may run more often, for other functions)."""
        found: dict[cst.FunctionDef, list[CallSite]] = {}
        for site in self.model.calls:
            scope = site.frame.scope
            passed = [(index, arg) for index, arg in enumerate(site.node.args)
                      if not arg.star and isinstance(arg.value, (cst.Name, cst.Attribute))]
            if not passed:
                continue
            receiver = next(self._functions_named(site.node.func, scope, guess=False), None)
            if receiver is None:
                continue
            params = receiver.params.params
            if self.model.functions[receiver].scope.kind == "class" and params \
                    and params[0].name.value in ("self", "cls"):
                params = params[1:]  # ``runner.run(step)``: the first argument fills the second
            for index, arg in passed:
                functions = list(self._functions_named(arg.value, scope, guess=False))
                name = arg.keyword.value if arg.keyword is not None else \
                    params[index].name.value if index < len(params) else None
                if not functions or name is None:
                    continue
                binding = self.model.single_binding(name, self.model.scope_of[receiver])
                if binding is None or binding.kind != "param":
                    continue
                for function in functions:
                    for inner in self.model.calls_to(binding):
                        # its own copy: it repeats as the call that passed ``function`` does
                        through = dataclasses.replace(inner)
                        self._passed_at[id(through)] = site
                        found.setdefault(function, []).append(through)
        return found

    def runner_calls(self) -> dict[cst.FunctionDef, tuple[str, CallSite]]:
        """Every def the module hands to such a library call (``runner_call``)."""
        return dict(self._handed.runner_called)

    def runner_call(self, function: cst.FunctionDef) -> Optional[tuple[str, CallSite]]:
        """The library call that runs ``function`` many times (``scipy.optimize.minimize``,
        jaxfacts.FUNCTION_RUNNING_CALLS), and where, when the module hands it to one."""
        return self._handed.runner_called.get(function)

    def _function_fields(self, cls: cst.ClassDef) -> dict[str, set]:
        """A class-body field whose default is a def of the module (``loss_fn: Callable =
        cross_entropy_loss``): that def, and what the class's calls give the field by keyword
        (a def, or None for anything else; None too when a call may pass it positionally)."""
        body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
        fields: list[str] = []
        found: dict[str, set] = {}
        for line in body:
            small = line.body[0] if isinstance(line, cst.SimpleStatementLine) and line.body else None
            if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                target, value = small.target.value, small.value
                fields.append(target)
            elif isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
                target, value = small.targets[0].target.value, small.value
            else:
                continue
            default = self.model.single_binding(value.value, self.model.classes[cls].scope) \
                if isinstance(value, cst.Name) else None
            if default is None or default.kind != "def":
                continue
            defs: set = {default.node}
            for site in self._class_calls(cls):
                given = argument_value(site.node, fields.index(target) if target in fields else None, target)
                if given is not None or any(a.star for a in site.node.args):
                    made = self.model.single_binding(given.value, site.frame.scope) if isinstance(given, cst.Name) else None
                    defs.add(made.node if made is not None and made.kind == "def" else None)
            found[target] = defs
        return found

    def _instantiations(self, function: cst.FunctionDef) -> list[CallSite]:
        """``Controller(gain)`` runs ``Controller.__init__``: the calls of a plain class of this
        module, for its ``__init__``, and of its subclasses that inherit it."""
        if function.name.value != "__init__":
            return []
        cls = self.model.functions[function].scope.node
        if not isinstance(cls, cst.ClassDef) or not self.is_plain_class(cls):
            return []
        inheriting = [other for other in self.model.classes if other is not cls and "__init__" not in class_methods(other)
                      and inherited_method(self.model, other, "__init__") is function]
        return [site for each in (cls, *inheriting) for site in self._class_calls(each)]

    def _class_calls(self, cls: cst.ClassDef) -> list[CallSite]:
        """The calls of the class ``cls`` of this module (``Trainer(...)``)."""
        outer = self.model.classes[cls].scope
        binding = next((b for b in outer.bindings.get(cls.name.value, ()) if b.node is cls), None)
        return list(self.model.calls_to(binding)) if binding is not None else []

    def times_iterations(self, loop: cst.CSTNode, benchmarks_only: bool = False) -> bool:
        """A loop that times each iteration (a benchmark or autotuning sweep): the compile each
        new variant or shape costs is what it runs, or what it keeps out of the timing.
        ``benchmarks_only``: by ``timeit`` (a training loop logs ``time.time()`` per step too)."""
        timers = BENCHMARK_TIMERS if benchmarks_only else TIMERS
        return any(site.frame.is_inside(loop) and self.model.qualified_name(site.node.func, site.frame.scope) in timers
                   for site in self.model.calls)

    def sweeps_configurations(self, loop: cst.CSTNode, scope: Scope, user: cst.CSTNode,
                              sizes_only: bool = False) -> bool:
        """``for n in (64, 128): run(n)`` / ``sizes = [...]; for n in sizes: run(n)``: a loop
        over a literal list (or a range bound to a name) whose item ``user`` reads runs once per
        distinct program.  An item read only as array data (``jnp.full(2, start)``,
        ``jnp.asarray(lr)``: not a shape, size or axis there) is one program with new values.
        ``sizes_only``: the literal items are integers (sizes, factors, widths), not floats,
        strings or dicts that may as well be data (``for prompt in prompts``)."""
        if not isinstance(loop, cst.For) or not self._reads_as_configuration(user, loop_targets(loop), scope, loop):
            return False
        return self._literal_items(loop.iter, scope, sizes_only)

    def _literal_items(self, iterable: cst.BaseExpression, scope: Scope, sizes_only: bool, depth: int = 0) -> bool:
        """``iterable`` is a literal list or tuple (or a comprehension, a ``range``), written
        there or bound to a name once, or a parameter every call hands a literal display
        (_literal_display), or its literal default; also an empty list
        filled by ``append`` in loops over such items (``levels = []; for f in factors:
        levels.append({...})``)."""
        if isinstance(iterable, cst.Call) and isinstance(iterable.func, cst.Name) and iterable.func.value == "enumerate" \
                and not self.model.lookup("enumerate", scope) and iterable.args and not iterable.args[0].star:
            iterable = iterable.args[0].value  # ``for i, lvl in enumerate(levels)``
        listed: Optional[tuple[str, Scope]] = None
        for _ in range(3):  # the one definition reaching the loop, through crops (``Ns = Ns[:6]``)
            if not isinstance(iterable, cst.Name):
                break
            binding = value_flow(self.ctx).single(iterable, scope)
            if binding is not None and binding.kind == "param" and isinstance(binding.node, cst.Param):
                # ``def align_multires(..., factors=(2, 1))``, or what every call passes
                # (``benchmark_forward(32, [1, 2, 4])``)
                passed = self.passed_to(binding) if depth < 2 else None
                if passed:
                    return all(self._literal_display(value, site.frame.scope, sizes_only) for value, site in passed)
                default = binding.node.default
                return isinstance(default, (cst.List, cst.Tuple)) and bool(default.elements) \
                    and (not sizes_only or _sizes(default))
            listed = (iterable.value, scope)
            made = origin(value_flow(self.ctx), iterable, scope, None)
            if made is None:
                return False
            iterable, scope = made[0], made[1]
            if builtin_call(iterable, "list", self.model, scope) and len(iterable.args) == 1:  # type: ignore[attr-defined]
                iterable = iterable.args[0].value  # type: ignore[attr-defined]  # ``list(range(...))``
            if builtin_call(iterable, "range", self.model, scope):
                return not sizes_only  # a counter may as well count epochs or steps
            if isinstance(iterable, cst.Subscript) and isinstance(iterable.value, cst.Name):
                iterable = iterable.value
        if isinstance(iterable, cst.List) and not iterable.elements:
            return listed is not None and depth < 2 and self._appended_per_item(*listed, sizes_only, depth)
        # a literal list, or one a comprehension computes (``[1 << i for i in range(2, 15)]``)
        if sizes_only:
            return _sizes(iterable)
        if isinstance(iterable, (cst.List, cst.Tuple, cst.Set)) and len(iterable.elements) > 1 \
                and self._arrays_of_one_shape([e.value for e in iterable.elements], scope):
            return False  # ``[jnp.array([1., -2.]), jnp.array([3., 4.])]``: inputs, data of one program
        return isinstance(iterable, (cst.List, cst.Tuple, cst.Set, cst.ListComp))

    def _literal_display(self, value: cst.BaseExpression, scope: Scope, sizes_only: bool, depth: int = 0) -> bool:
        """A list or tuple display of literal numbers or strings (``[1, 2, 4]``), written there,
        bound once to a name, or either of two (``[1, 2] if grid >= 16 else [1, 2, 4]``): the
        items a caller hands a sweep.  Arrays or comprehensions may be data: not these."""
        if isinstance(value, cst.Name) and depth < 2:
            made = origin(value_flow(self.ctx), value, scope, None)
            return made is not None and self._literal_display(made[0], made[1], sizes_only, depth + 1)
        if isinstance(value, cst.IfExp):
            return all(self._literal_display(branch, scope, sizes_only, depth) for branch in (value.body, value.orelse))
        return isinstance(value, (cst.List, cst.Tuple)) and bool(value.elements) and all(
            isinstance(e.value, (cst.Integer, cst.Float, cst.SimpleString)) for e in value.elements) \
            and (not sizes_only or _sizes(value))

    def _arrays_of_one_shape(self, items: list[cst.BaseExpression], scope: Scope) -> bool:
        """Every item makes an array (``jnp.array([...])`` of a literal list, or a constructor
        given a shape) and all say the same shape: inputs of one program.  ``jnp.ones(2)``
        beside ``jnp.ones(3)`` are two programs."""
        shapes = set()
        for item in items:
            if not (isinstance(item, cst.Call) and item.args and array_made_by(self.model, item, scope) is not None):
                return False
            first = item.args[0].value
            if isinstance(first, (cst.List, cst.Tuple)):  # ``jnp.array([1.0, -2.0, 3.0])``: its nesting
                shape, level = [], first
                while isinstance(level, (cst.List, cst.Tuple)) and level.elements:
                    shape.append(len(level.elements))
                    level = level.elements[0].value
                shapes.add(("literal", tuple(shape)))
            else:
                shapes.add(("shape", source_text(first, 200)))
        return len(shapes) == 1

    def _appended_per_item(self, name: str, scope: Scope, sizes_only: bool, depth: int) -> bool:
        """The list ``name`` (of ``scope``) is filled only by ``name.append(...)`` in loops over
        literal items."""
        appends = [site for site in self.model.calls
                   if isinstance(site.node.func, cst.Attribute) and isinstance(site.node.func.value, cst.Name)
                   and site.node.func.value.value == name and site.frame.scope is scope]
        if not appends or any(site.node.func.attr.value != "append" for site in appends):  # type: ignore[union-attr]
            return False
        for site in appends:
            loops = [loop for loop in site.frame.loops_in_scope() if isinstance(loop, cst.For)]
            if not loops or not self._literal_items(loops[0].iter, scope, sizes_only, depth + 1):
                return False
        return True

    def _reads_as_configuration(self, expr: cst.CSTNode, targets: set[str], scope: Scope,
                                loop: Optional[cst.CSTNode] = None, depth: int = 0) -> bool:
        """``expr`` reads one of ``targets`` other than as the data of a NumPy / jax.numpy call
        (jaxfacts.CONCRETE_PARAMS tells which of its parameters are shapes, sizes, axes), also
        through a name the body of ``loop`` binds once from one (``y = lvl["projections"]``)."""
        if isinstance(expr, cst.Name):
            if expr.value in targets:
                return True
            if loop is None or depth > 2:
                return False
            binding = value_flow(self.ctx).single(expr, scope)
            return binding is not None and binding.kind == "assign" and binding.value is not None \
                and binding.frame is not None and binding.frame.is_inside(loop) \
                and self._reads_as_configuration(binding.value, targets, binding.scope, loop, depth + 1)
        read = functools.partial(self._reads_as_configuration, loop=loop, depth=depth)
        if isinstance(expr, (cst.Attribute, cst.Arg)):  # not ``cfg.n`` / ``f(n=...)``'s names
            return read(expr.value, targets, scope)
        if isinstance(expr, cst.Call):
            qualname = self.model.qualified_name(expr.func, scope) or ""
            if qualname in SEEDING_CALLS:
                return False  # ``jax.random.PRNGKey(seed)``: new numbers, the same program
            callee = self.callee(expr, scope) if not any(a.star for a in expr.args) else None
            if callee is not None:  # ``run(seed)``: read as the callee reads its parameter
                return read(expr.func, targets, scope) or any(
                    read(arg.value, targets, scope)
                    and not self._only_seeds(callee, param, 0)
                    for arg, param in _bound_params(callee, expr))
            if qualname.startswith(("jax.numpy.", "numpy.")) and not any(a.star for a in expr.args):
                facts = CONCRETE_PARAMS.get("jax.numpy." + qualname.split("numpy.", 1)[1], ())
                position = 0
                for arg in expr.args:
                    index = position if arg.keyword is None else None
                    position += arg.keyword is None
                    keyword = arg.keyword.value if arg.keyword is not None else None
                    if concrete_param(facts, index, keyword) is not None or keyword == "dtype":
                        if read(arg.value, targets, scope):
                            return True
                return False
        return any(read(child, targets, scope) for child in children(expr))

    def _only_seeds(self, function: cst.FunctionDef, param: Optional[str], depth: int) -> bool:
        """Every read of ``param`` in ``function`` is a seed: an argument of a seeding call
        (jaxfacts.SEEDING_CALLS), or handed on to a def of this module that only seeds with it."""
        scope = self.model.scope_of.get(function)
        if param is None or scope is None or depth > 2 or any(
                b.kind != "param" for b in scope.bindings.get(param, [])):
            return False
        seeded: set[int] = set()
        for call in (n for n in own_nodes(function.body) if isinstance(n, cst.Call)):
            qualname = self.model.qualified_name(call.func, scope) or ""
            callee = self.callee(call, scope) if qualname not in SEEDING_CALLS else None
            for arg, inner in (((a, None) for a in call.args) if qualname in SEEDING_CALLS
                               else _bound_params(callee, call) if callee is not None else ()):
                if isinstance(arg.value, cst.Name) and arg.value.value == param and (
                        callee is None or self._only_seeds(callee, inner, depth + 1)):
                    seeded.add(id(arg.value))
        reads = [n for n in own_nodes(function.body) if isinstance(n, cst.Name) and n.value == param]
        return bool(reads) and all(id(n) in seeded for n in reads)

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
        """The class of this module that ``expr`` names (also ``Outer.Inner``, a class nested
        in one)."""
        if isinstance(expr, cst.Attribute):
            outer = self.class_of(expr.value, scope)
            body = outer.body.body if outer is not None and isinstance(outer.body, cst.IndentedBlock) else ()
            return next((s for s in body if isinstance(s, cst.ClassDef) and s.name.value == expr.attr.value), None)
        if not isinstance(expr, cst.Name):
            return None
        binding = self.model.single_binding(expr.value, scope)
        if binding is not None and binding.kind == "class":
            assert isinstance(binding.node, cst.ClassDef)
            return binding.node
        return None

    def instance_class(self, name: cst.Name, scope: Scope) -> Optional[cst.ClassDef]:
        """The class of this module that ``name`` is an instance of: ``self`` in a method,
        a variable assigned once from ``Cls(...)`` (or the one such assignment that reaches
        this read: ``counter = Counter()`` ... ``counter = CounterV2()`` further down) or from a
        factory that returns one, or a parameter that every call gives one; also a name that
        every reaching assignment gives an instance of the one class (``agent = Agent.create()``
        then ``agent, info = agent.update(batch)`` in the loop, a method returning
        ``self.replace(...)``)."""
        binding = self.model.single_binding(name.value, scope) or value_flow(self.ctx).single(name, scope)
        if binding is not None:
            return self._binding_class(binding)
        # the loop-carried rebinding is being typed further up when the read is its own receiver
        classes = {self._binding_class(b) for b in value_flow(self.ctx).reaching(name, scope)
                   if id(b) not in self._typing}
        return classes.pop() if len(classes) == 1 else None

    def _binding_class(self, binding: Binding) -> Optional[cst.ClassDef]:
        if binding.kind == "param":
            return self._class_of_self(binding) or self._class_passed(binding)
        if binding.kind != "assign":
            return None
        if isinstance(binding.value, cst.Call):
            made = self.constructed_class(binding.value.func, binding.scope)
            if made is not None or id(binding) in self._typing:
                return made  # (``jax = jax.jit(f)``: the call's own receiver is the name being typed)
        unpacked = unpacked_call(binding) if not isinstance(binding.value, cst.Call) else None
        if unpacked is None and not isinstance(binding.value, cst.Call):
            return None
        self._typing.add(id(binding))
        try:
            if unpacked is None:
                return self.class_made_by(binding.value, binding.scope)
            call, position, arity = unpacked
            callee = self.callee(call, binding.scope)
            elements = tuple_elements(function_returns(self.model, callee), position, arity) if callee else []
            classes = {self._returned_class(Returned(callee, value, value_scope, None)) for value, value_scope in elements}
            return classes.pop() if len(classes) == 1 else None
        finally:
            self._typing.discard(id(binding))

    def constructed_class(self, func: cst.BaseExpression, scope: Scope) -> Optional[cst.ClassDef]:
        """The class of this module whose instance calling ``func`` makes: the class itself, or
        a name bound once to ``functools.partial(Cls, ...)`` (``RK4 = partial(RKConfig,
        tableau=bt_rk4)``)."""
        found = self.class_of(func, scope)
        if found is not None or not isinstance(func, cst.Name):
            return found
        binding = self.model.single_binding(func.value, scope)
        value = binding.value if binding is not None and binding.kind == "assign" else None
        if isinstance(value, cst.Call) and value.args and value.args[0].keyword is None \
                and self.model.qualified_name(value.func, binding.scope) == "functools.partial":
            return self.class_of(value.args[0].value, binding.scope)
        return None

    def class_made_by(self, call: cst.Call, scope: Scope) -> Optional[cst.ClassDef]:
        """``env = create_env(name)`` where every ``return`` of the factory is ``OvercookedV3(...)``:
        that class of this module; also what an instance's ``__call__`` returns (``integrator =
        RK4(dt=0.04)(f, t0, y0)``, a config called to build the object)."""
        func = call.func
        maker = self.constructed_class(func.func, scope) if isinstance(func, cst.Call) \
            else self.instance_class(func, scope) if isinstance(func, cst.Name) else None
        dunder = inherited_method(self.model, maker, "__call__") if maker is not None else None
        returns = function_returns(self.model, dunder) if dunder is not None else self.call_returns(call, scope)
        if not returns and isinstance(func, cst.Attribute):
            # a jitted method (``@jax.jit def update(self, batch)``): jit hands back the
            # function's own pytree, an instance of the same class
            method = self.callee(call, scope)
            method_scope = self.model.functions[method].scope if method in self.model.functions else None
            if method is not None and method_scope is not None and method.decorators and all(
                    self.ctx.resolver.resolve(d.decorator, method_scope) is not None for d in method.decorators):
                returns = function_returns(self.model, method)
        classes = {self._returned_class(r) for r in returns}
        return classes.pop() if len(classes) == 1 else None

    def _returned_class(self, returned: Returned) -> Optional[cst.ClassDef]:
        """The class of this module whose instance a ``return`` makes: ``return Cls(...)``, or
        ``return cls(...)`` in a classmethod of the class (``JaxFormer.init(key, ...)``)."""
        if not isinstance(returned.value, cst.Call):
            return None
        func = returned.value.func
        updated = self._class_updating_self(returned)
        if updated is not None:
            return updated
        made = self.constructed_class(func, returned.scope)
        if made is not None or not isinstance(func, cst.Name):
            return made
        function = returned.function
        params = [*function.params.posonly_params, *function.params.params]
        defined_in = self.model.scope_of.get(function)
        owner = defined_in.parent if defined_in is not None else None
        if params and params[0].name.value == func.value and owner is not None and owner.kind == "class" \
                and any(dotted_name(d.decorator) == "classmethod" for d in function.decorators):
            return owner.node  # type: ignore[return-value]
        return None

    def _class_updating_self(self, returned: Returned) -> Optional[cst.ClassDef]:
        """``return self.replace(params=...)`` (a flax struct or chex dataclass) or
        ``dataclasses.replace(self, ...)`` in a plain method: a new instance of the method's own
        class."""
        call = returned.value
        function = returned.function
        params = [*function.params.posonly_params, *function.params.params]
        defined_in = self.model.scope_of.get(function)
        owner = defined_in.parent if defined_in is not None else None
        if not (isinstance(call, cst.Call) and params and owner is not None and owner.kind == "class"
                and not any(dotted_name(d.decorator) in ("classmethod", "staticmethod") for d in function.decorators)):
            return None
        this = params[0].name.value
        func = call.func
        if isinstance(func, cst.Attribute) and func.attr.value == "replace" and _names(func.value, this):
            # the library's ``replace``, not one the class (or a base of the module) defines
            return owner.node if inherited_method(self.model, owner.node, "replace") is None else None
        if self.model.qualified_name(func, returned.scope) == "dataclasses.replace" and call.args \
                and _names(call.args[0].value, this):
            return owner.node  # type: ignore[return-value]
        return None

    def instance_method(self, expr: cst.Attribute, scope: Scope) -> Optional[cst.FunctionDef]:
        """The method def that ``obj.method`` binds when ``obj`` is an instance of a class of
        this module (not ``Cls.method``, which binds nothing)."""
        cls = self.instance_class(expr.value, scope) if isinstance(expr.value, cst.Name) else None
        return inherited_method(self.model, cls, expr.attr.value) if cls is not None else None

    def _receiver_class(self, receiver: cst.BaseExpression, scope: Scope) -> Optional[cst.ClassDef]:
        if isinstance(receiver, cst.Name):  # an instance, or the class itself (``Fit.from_conditions(...)``)
            return self.instance_class(receiver, scope) or self.class_of(receiver, scope)
        if self._is_super(receiver, scope):  # ``super().__init__(env)`` in a subclass's method
            owner = self._method_class(scope)
            return single_local_base(self.model, owner) if owner is not None else None
        if isinstance(receiver, cst.Call):  # a method called on the instance just made
            return self.constructed_class(receiver.func, scope)
        return self.attribute_class(receiver, scope)

    def _is_super(self, expr: cst.BaseExpression, scope: Scope) -> bool:
        """``super()``, the builtin."""
        return isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value == "super" \
            and not self.model.lookup("super", scope)

    def _method_class(self, scope: Scope) -> Optional[cst.ClassDef]:
        """The class whose method ``scope`` is (``super()`` there starts at its bases)."""
        method = scope.node
        owner = self.model.functions[method].scope if method in self.model.functions else None
        return owner.node if owner is not None and isinstance(owner.node, cst.ClassDef) else None

    def attribute_class(self, expr: cst.BaseExpression, scope: Scope) -> Optional[cst.ClassDef]:
        """``self.module`` in a method: the class of this module whose instance ``__init__``
        stores there, made in place (``self.module = Wrapper(...)``) or received by a parameter
        that every construction fills with one (``Model(Wrapper(vae, params), data)``)."""
        if not isinstance(expr, cst.Attribute):
            return None
        stored = self_attribute_value(self.model, expr, scope, any_value=True)
        if stored is None:
            return self._annotated_field_class(expr, scope)
        value, value_scope = stored
        if isinstance(value, cst.Call):
            return self.class_of(value.func, value_scope)
        binding = self.model.single_binding(value.value, value_scope) if isinstance(value, cst.Name) else None
        if binding is None or binding.kind != "param":
            return None
        key = ("attribute", id(binding.node))
        if key in self._passed:
            return self._passed[key]
        self._passed[key] = None  # cycle guard: constructions read while finding the callers
        classes = {self.class_of(v.func, site.frame.scope) if isinstance(v, cst.Call)
                   else self.instance_class(v, site.frame.scope) if isinstance(v, cst.Name) else None
                   for v, site in self.passed_to(binding) or ()}
        self._passed[key] = result = classes.pop() if len(classes) == 1 else None
        return result

    def _annotated_field_class(self, expr: cst.Attribute, scope: Scope) -> Optional[cst.ClassDef]:
        """``state.model`` of ``state``, an instance of a class of this module whose body
        declares ``model: GPT`` (a dataclass or NamedTuple field): the class of this module the
        annotation names."""
        owner = self.instance_class(expr.value, scope) if isinstance(expr.value, cst.Name) else None
        body = owner.body.body if owner is not None and isinstance(owner.body, cst.IndentedBlock) else ()
        for statement in body:
            for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
                if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) \
                        and small.target.value == expr.attr.value:
                    return self.class_of(small.annotation.annotation, self.model.module_scope)
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

    def _class_passed(self, param: Binding) -> Optional[cst.ClassDef]:
        """The class of this module whose instances every call of a function (or of a method,
        through its instances) gives ``param`` (``get_learner_fn(env, config)`` with ``env =
        LogWrapper(ToyEnv())``: the nested ``env.step`` the learner runs is ``LogWrapper.step``)."""
        key = id(param.node)
        if key in self._passed:
            return self._passed[key]
        self._passed[key] = None  # cycle guard
        function = param.scope.node
        if not isinstance(function, cst.FunctionDef) or not isinstance(param.node, cst.Param):
            return None
        # (a method's parameter through the calls of its instances: ``trainer.run(agent)``)
        classes = {self.instance_class(value, site.frame.scope) if isinstance(value, cst.Name)
                   else self.constructed_class(value.func, site.frame.scope) if isinstance(value, cst.Call)
                   else None
                   for value, site in self.passed_to(param) or [(None, None)]}
        result = classes.pop() if len(classes) == 1 else None
        self._passed[key] = result
        return result

    def only_none(self, param: Binding) -> bool:
        """``param`` of a plain function defaults to None and every call of the function in
        the module (there is one) leaves it out or passes None: handed on to a jit, it is an
        empty pytree, never a tracer (``epoch_step(..., l1_reg_lambda=None)`` forwards it)."""
        function = param.scope.node
        if not isinstance(function, cst.FunctionDef) or not isinstance(param.node, cst.Param) \
                or not is_none(param.node.default) or self.model.functions[function].scope.kind == "class":
            return False
        positional = [*function.params.posonly_params, *function.params.params]
        position = positional.index(param.node) if param.node in positional else None
        sites = self.call_sites(function)
        return bool(sites) and all(
            not any(a.star for a in site.node.args) and (
                (value := argument_value(site.node, position, param.name)) is None or is_none(value))
            for site in sites)

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
        runner = self._handed.runner_called.get(function)
        if self._repeats(function, sites) or runner is not None and not self.runs_traced(runner[1].frame):
            return REPEATED
        if self._runs_once_by_role(function):
            return ONCE
        if sites:
            return ONCE if all(self.site_runs_once(site) for site in sites) else self._project_how(function)
        handed = function in self._handed.run_defs or function in self._handed.library_handoffs
        return ONCE if handed else self._project_how(function)

    def _repeats(self, function: cst.FunctionDef, sites: list[CallSite]) -> bool:
        if function.name.value == "__call__" and not self._applications(function):
            return self._repeats_by_role(function)
        eager = [site for site in sites if not self.runs_traced(site.frame)]
        if function.name.value == "__init__":
            # an object made per iteration and used there once repeats its construction; one
            # made per run of a loop that uses it many times (``for seed in seeds: agent =
            # Agent(seed)``, then a training loop) pays it once per run
            return any(self.site_repeats(site) and not _amortised(site, self.model) for site in eager)
        return len(eager) >= 2 or any(self.site_repeats(site) for site in eager)

    def _repeats_by_role(self, function: cst.FunctionDef) -> bool:
        """A plain class's ``__call__``: its objects are called like functions, again and again."""
        return function.name.value == "__call__" and \
            self.is_plain_class(self.model.functions[function].scope.node)

    def _runs_once_by_role(self, function: cst.FunctionDef) -> bool:
        """An entry point, a constructor, a test, a fixture or CLI command: once per program,
        object or test."""
        if runs_once_by_name(function.name.value):
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
        runs under the outer jit's trace, unless the module shows it applied only eagerly
        (``_applications``: ``model.init`` then ``model.apply`` in a plain loop)."""
        if function.name.value != "__call__":
            return False
        cls = self.model.functions[function].scope.node
        if not isinstance(cls, cst.ClassDef) or self.is_plain_class(cls):
            return False
        applications = self._applications(function)
        return not applications or any(self.runs_traced(site.frame) for site in applications)

    def _applications(self, function: cst.FunctionDef) -> list[CallSite]:
        """``model.apply(params, x)`` / ``model.init(key, x)`` of an instance of the flax.linen
        Module whose ``__call__`` is ``function`` (jaxfacts.APPLIED_MODULE_BASES): each runs it
        once, where it is called."""
        if function.name.value != "__call__":
            return []
        cls = self.model.functions[function].scope.node
        if not isinstance(cls, cst.ClassDef):
            return []
        class_scope = self.model.classes[cls].scope
        if not any(self.model.qualified_name(base.value, class_scope) in APPLIED_MODULE_BASES for base in cls.bases):
            return []
        return [site for site in self.model.calls
                if isinstance(site.node.func, cst.Attribute) and site.node.func.attr.value in APPLYING_METHODS
                and self._instance_of(site.node.func.value, site.frame.scope) is cls]

    def _instance_of(self, receiver: cst.BaseExpression, scope: Scope) -> Optional[cst.ClassDef]:
        """``model`` of ``model = Net()``, or ``Net()`` itself: the class of this module."""
        if isinstance(receiver, cst.Name):
            return self.instance_class(receiver, scope)
        return self.class_of(receiver.func, scope) if isinstance(receiver, cst.Call) else None

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
    @property
    def _handed(self) -> "_Handed":
        """What the module hands to jits, transforms, program runners and other ecosystem
        functions. Computed once; a question asked while it is computed (the class of a
        parameter, whose calls it reads) sees nothing handed yet, instead of computing it again
        in a recursion (measured: 619 computations for 115 files of jax's sources)."""
        found = self.__dict__.get("_handed_found")
        if found is None:
            self.__dict__["_handed_found"] = _Handed(set(), set(), {}, {}, {}, {}, set())
            self.__dict__["_handed_found"] = found = self._find_handed()
        return found

    def _find_handed(self) -> "_Handed":
        traced: set[cst.FunctionDef] = set()
        lambdas: set[cst.Lambda] = set()
        runs: dict[cst.FunctionDef, list[Frame]] = {}
        library: dict[cst.FunctionDef, str] = {}
        applied: dict[cst.FunctionDef, list[CallSite]] = {}
        runner_called: dict[cst.FunctionDef, tuple[str, CallSite]] = {}
        runner_lambdas: set[cst.Lambda] = set()
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
            callee = ""
            if not (self._is_transform(func, scope)
                    or isinstance(func, cst.Attribute) and func.attr.value in DERIVATIVE_RULES):
                callee = self.model.qualified_name(func, scope) or self._library_base_init(func, scope) or ""
                if callee in FUNCTION_RUNNING_CALLS:
                    # ``scipy.optimize.minimize(objective, x0)``: it calls ``objective`` again and again
                    for param in FUNCTION_RUNNING_CALLS[callee]:
                        value = argument_value(site.node, *param)
                        if isinstance(value, cst.Name):  # ``objective = self.boosting_loss`` before
                            origin = self.model.value_origin(value, scope, site.frame)
                            value = origin[0] if origin is not None and isinstance(origin[0], cst.Attribute) else value
                        if value is None:
                            continue
                        if isinstance(value, cst.Call) and value.args and \
                                self.model.qualified_name(value.func, scope) in PARTIAL_CONSTRUCTORS:
                            value = value.args[0].value  # ``partial(objective, data)``
                        if isinstance(value, cst.Lambda):
                            runner_lambdas.add(value)  # ``lambda p: objective(p, data)``
                            if isinstance(value.body, cst.Call):
                                value = value.body.func
                        runner = f"{callee}(...).fit" if callee in FUNCTION_KEEPING_ESTIMATORS else callee
                        for function in self._functions_named(value, scope):
                            runner_called.setdefault(function, (runner, site))
                    continue
                if not (callee.split(".")[0] in ECOSYSTEM or callee in RUNNERS):
                    continue
            applications = None if callee else self.result_calls(site)
            for value in _passed_callables(site.node):
                if not callee:
                    if isinstance(value, cst.Lambda):
                        lambdas.add(value)
                    elif applications is not None and value is site.node.args[0].value:
                        # ``jax.grad(loss)(p)``: loss runs where, and as often as, that is called
                        for function in self._functions_named(value, scope):
                            applied.setdefault(function, []).extend(applications)
                    else:
                        traced.update(self._functions_named(value, scope))
                elif not isinstance(value, cst.Lambda):
                    for function in self._functions_named(value, scope):
                        if callee in RUNNERS or callee.startswith(NOT_TRACING):
                            runs.setdefault(function, []).append(site.frame)  # called there
                        else:
                            library.setdefault(function, callee)  # kept in a library object
        return _Handed(traced, lambdas, runs, library, applied, runner_called, runner_lambdas)

    def result_calls(self, site: CallSite, transforms: frozenset[str] = RETRACING_TRANSFORMS
                     ) -> Optional[list[CallSite]]:
        """Where what ``site`` returns is called, when ``site`` applies a transform that keeps
        no compiled program (``jaxfacts.RETRACING_TRANSFORMS``): ``jax.grad(f)(x)``, ``g =
        jax.grad(f)`` then ``g(x)``, ``jax.vmap(jax.grad(f))(xs)``.  Each of those calls runs
        ``f``'s Python again.  None when the result goes anywhere else (to a jit, returned,
        stored) or is never called here: how ``f`` runs then is not known from these calls.
        ``transforms``: the transforms to follow (any that calls its function: _fresh's)."""
        if self.model.qualified_name(site.node.func, site.frame.scope) not in transforms:
            return None
        outer = self._calls_of_calls.get(site.node)
        if outer is not None:
            return [outer]
        wrapper = self._transformed_by.get(site.node)
        if wrapper is not None:
            return self.result_calls(wrapper, transforms)
        statement = self.model.parent_statement.get(site.node)
        if isinstance(statement, cst.Assign) and len(statement.targets) == 1 \
                and isinstance(statement.targets[0].target, cst.Name) and statement.value is site.node:
            name = statement.targets[0].target.value
            binding = next((b for b in self.model.lookup(name, site.frame.scope) if b.value is site.node), None)
            calls = list(self.model.calls_to(binding)) if binding is not None else []
            return calls or None
        return None

    @cached_property
    def _calls_of_calls(self) -> dict[cst.Call, CallSite]:
        """``T(f)(x)``: the inner call -> the call of its result."""
        return {site.node.func: site for site in self.model.calls if isinstance(site.node.func, cst.Call)}

    @cached_property
    def _transformed_by(self) -> dict[cst.Call, CallSite]:
        """``jax.vmap(jax.grad(f))``: the inner call -> the call that transforms its result."""
        return {site.node.args[0].value: site for site in self.model.calls
                if site.node.args and isinstance(site.node.args[0].value, cst.Call)}

    def callee(self, call: cst.Call, scope: Scope) -> Optional[cst.FunctionDef]:
        """The def of this module that ``call`` runs: ``f(x)`` (the one def ``f`` names),
        ``obj.method(x)`` / ``self.method(x)`` on an instance of a class of this module, and
        ``jax.grad(f)(x)`` (``result_calls``: calling what such a transform returns runs ``f``)."""
        return next(self._functions_named(call.func, scope, guess=False), None) or self._applied_at.get(call)

    def made_function(self, call: cst.Call, scope: Scope) -> Optional[cst.CSTNode]:
        """``make_schedule(config)`` / ``self._get_integrate_fn(...)``: the def or lambda the
        module function or method that ``call`` runs creates and returns on every ``return`` (a
        new function per call); None when unknown or some return gives anything else."""
        method = self.called_method(call, scope) or self._stored_factory(call.func, scope)
        return returned_made_function(self.model, value_flow(self.ctx), call, scope, method)

    def _stored_factory(self, func: cst.BaseExpression, scope: Scope) -> Optional[cst.FunctionDef]:
        """``driver.rollout_policy_fn(params)``: the one def of this module that every
        construction of the instance's class hands the ``__init__`` parameter stored in that
        field (``self.rollout_policy_fn = rollout_policy_fn``, ``Driver(cfg, make_policy)``)."""
        if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)):
            return None
        cls = self.instance_class(func.value, scope)
        if cls is None or attribute_written_elsewhere(self.model, func.attr.value):
            return None
        stored = list(fields_set_in_init(self.model, cls, [func.attr.value]))
        if len(stored) != 1 or not isinstance(stored[0][1], cst.Name):
            return None
        param = self.model.single_binding(stored[0][1].value, stored[0][2])
        handed = self.handed_bindings(param) if param is not None and param.kind == "param" else None
        defs = {b.node for b in handed or () if b.kind == "def" and isinstance(b.node, cst.FunctionDef)}
        return defs.pop() if len(defs) == 1 and len(handed) == 1 else None  # type: ignore[arg-type]

    def stored_made_function(self, attr: cst.Attribute, scope: Scope) -> Optional[cst.CSTNode]:
        """``force.get_energy`` where the class's ``__init__`` stores ``self.get_energy =
        self.generate_get_energy()``: the def or lambda that call makes (one per instance), when
        nothing else writes ``.get_energy``."""
        cls = self.instance_class(attr.value, scope) if isinstance(attr.value, cst.Name) else None
        if cls is None or attribute_written_elsewhere(self.model, attr.attr.value):
            return None
        stored = [(value, value_scope) for _, value, value_scope in fields_made_in_init(self.model, cls, [attr.attr.value])]
        if len(stored) != 1 or not isinstance(stored[0][0], cst.Call):
            return None
        return self.made_function(*stored[0])

    def call_returns(self, call: cst.Call, scope: Scope) -> list[Returned]:
        """What ``call`` may return: each ``return`` of the plain function it names, or of the
        undecorated method it runs (``kernel.interpolator(...)``)."""
        method = self.called_method(call, scope)
        return function_returns(self.model, method) if method is not None \
            else returned_values(self.model, value_flow(self.ctx), call, scope)

    def called_method(self, call: cst.Call, scope: Scope) -> Optional[cst.FunctionDef]:
        """The undecorated method of a class of this module that ``obj.method(...)`` runs."""
        method = self.callee(call, scope) if isinstance(call.func, cst.Attribute) else None
        return method if method is not None and all(
            dotted_name(d.decorator) in ("classmethod", "staticmethod") for d in method.decorators) else None

    def unpacked_values(self, binding: Binding) -> list[tuple[cst.BaseExpression, Scope]]:
        """``params, memory = init_strategy(...)`` binding ``params`` (also ``env.reset(key)``,
        ``jax.vmap(env.reset)(keys)``): the element at the name's position of each tuple that
        the def of this module the call runs returns (empty when unknown)."""
        unpacked = unpacked_call(binding)
        callee = self.callee(unpacked[0], binding.scope) if unpacked is not None else None
        if callee is None:
            return []
        _, position, arity = unpacked
        return tuple_elements(function_returns(self.model, callee), position, arity)

    def applies_transform(self, call: cst.Call) -> bool:
        """``call`` calls what a transform keeping no program returned (``jax.grad(f)(x)``)."""
        return call in self._applied_at

    @cached_property
    def _applied_at(self) -> dict[cst.Call, cst.FunctionDef]:
        return {site.node: function for function, sites in self._handed.applied.items() for site in sites}

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
        return is_transform(self.model.qualified_name(expr, scope) or "")

    def _library_base_init(self, func: cst.BaseExpression, scope: Scope) -> Optional[str]:
        """``super().__init__`` in a method of a class whose one base is a library class: that
        class's qualified name (``lightgbm.LGBMClassifier``), whose constructor the call runs."""
        if not (isinstance(func, cst.Attribute) and func.attr.value == "__init__" and self._is_super(func.value, scope)):
            return None
        owner = self._method_class(scope)
        if owner is None or len(owner.bases) != 1:
            return None
        return self.model.qualified_name(owner.bases[0].value, self.model.classes[owner].scope)

    def _functions_named(self, expr: cst.BaseExpression, scope: Scope, guess: bool = True
                         ) -> Iterator[cst.FunctionDef]:
        """The defs of this module that ``expr`` names: ``f``, ``self.step``, ``env.step``.
        ``guess``: also the one method of that name among the module's classes when the
        receiver's class is not known."""
        if isinstance(expr, cst.Name):
            binding = self.model.single_binding(expr.value, scope)
            if binding is not None and isinstance(binding.node, cst.FunctionDef):
                yield binding.node
                return
            # ``self(x)`` in a method: the class's own ``__call__``
            cls = self._class_of_self(binding) if binding is not None and binding.kind == "param" else None
            found = inherited_method(self.model, cls, "__call__") if cls is not None else None
            if found is not None:
                yield found
        elif isinstance(expr, cst.Attribute):
            method = expr.attr.value
            alias = class_namespace_alias(self.model, expr, scope)  # ``pkg.sim`` of ``sim = staticmethod(sim)``
            if alias is not None and isinstance(alias.node, cst.FunctionDef):
                yield alias.node
                return
            # ``obj.run``, ``Cls.method``, ``Cls(...).run``, ``self.module.get_inference_fn``
            cls = self._receiver_class(expr.value, scope)
            if cls is not None and not (isinstance(expr.value, cst.Name) and self.class_of(expr.value, scope) is cls) \
                    and any(True for _ in fields_set_in_init(self.model, cls, [method])):
                return  # ``self.sample = jax.jit(partial(self.sample, ...))`` in ``__init__``: that runs
            if cls is not None:
                found = inherited_method(self.model, cls, method)
                if found is not None:
                    yield found
                return
            candidates = [m for c in self.model.classes if (m := class_methods(c).get(method)) is not None]
            if guess and len(candidates) == 1:  # a method name unique among the module's classes
                yield candidates[0]


def _sizes(literal: cst.BaseExpression) -> bool:
    """A non-empty literal list, tuple or set of integers (sizes, factors, widths: ``(4, 2, 1)``);
    floats may as well be values the program computes with (``for radius in [0.1, 0.2]``)."""
    return isinstance(literal, (cst.List, cst.Tuple, cst.Set)) and bool(literal.elements) \
        and all(isinstance(e.value, cst.Integer) for e in literal.elements)


def _bound_params(function: Optional[cst.FunctionDef], call: cst.Call) -> Iterator[tuple[cst.Arg, Optional[str]]]:
    """Each argument of ``call`` with the parameter of ``function`` it binds (None: not known);
    a method called through an instance or ``self`` binds ``self`` first."""
    if function is None:
        return
    params = [p.name.value for p in (*function.params.posonly_params, *function.params.params)]
    if params and params[0] in ("self", "cls") and isinstance(call.func, cst.Attribute):
        params = params[1:]
    named = {p.name.value for p in (*function.params.posonly_params, *function.params.params,
                                    *function.params.kwonly_params)}
    position = 0
    for arg in call.args:
        if arg.keyword is not None:
            yield arg, arg.keyword.value if arg.keyword.value in named else None
        else:
            yield arg, params[position] if position < len(params) else None
            position += 1


class _Handed(NamedTuple):
    traced_defs: set[cst.FunctionDef]  # jitted or handed to a transform: traced
    traced_lambdas: set[cst.Lambda]  # lambdas handed to a jit or transform
    # handed to a program runner (``absl.app.run``) or an eager caller (``tree_map``): where
    run_defs: dict[cst.FunctionDef, list[Frame]]
    # handed as a value to another ecosystem function (``optax.GradientTransformation(init,
    # update)``): kept in a library object, called whenever and however the library does
    library_handoffs: dict[cst.FunctionDef, str]
    # handed to a transform that keeps no program (``jax.grad``), and where its result is called
    applied: dict[cst.FunctionDef, list[CallSite]]
    # handed to a library call that runs it many times (jaxfacts.FUNCTION_RUNNING_CALLS)
    runner_called: dict[cst.FunctionDef, tuple[str, CallSite]]
    runner_lambdas: set[cst.Lambda]  # lambdas handed to one: what they call runs again and again


class UnknownContext(NamedTuple):
    """Why a finding's context is unknown: the functions whose callers are not seen, each with
    why, and the project-wide names of those another module could call (the index may know)."""

    roots: tuple[tuple[cst.FunctionDef, str], ...]
    qualnames: tuple[str, ...]

    def evidence(self) -> str:
        return "; ".join(why for _, why in self.roots[:2])


def _amortised(site: CallSite, model: SemanticModel) -> bool:
    """The innermost loop around ``site`` holds another loop that runs after it: what the call
    builds serves many iterations of that inner loop (a loop before it does not use it)."""
    loops = site.frame.loops_in_scope()
    if not loops:
        return False
    start = model.order(site.node)
    return any(isinstance(node, (cst.For, cst.While)) and node is not loops[0] and not site.frame.is_inside(node)
               and model.order(node) > start for node in iter_nodes(loops[0]))


def names_assigned_in(node: cst.CSTNode) -> set[str]:
    """The plain names that statements in ``node`` assign (``=``, ``+=``): what a loop body
    rebinds from one iteration to the next."""
    assigned = {name.value for target in iter_nodes(node) if isinstance(target, cst.AssignTarget)
                for name in iter_nodes(target.target) if isinstance(name, cst.Name)}
    return assigned | {statement.target.value for statement in iter_nodes(node)
                       if isinstance(statement, cst.AugAssign) and isinstance(statement.target, cst.Name)}


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


def bound_method_target(ctx: FileContext, target: cst.BaseExpression, scope: Scope) -> Optional[cst.FunctionDef]:
    """The plain method that ``jax.jit(model.loss)`` / ``jax.jit(self.loss)`` wraps, when
    ``model`` is an instance of a class of this module (``calling_context.instance_class``) and
    ``loss`` an undecorated method of it taking ``self``; for ``jax.jit(factor)`` of such an
    instance, its ``__call__``."""
    if isinstance(target, cst.Name):
        receiver, name = target, "__call__"
    elif isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name):
        receiver, name = target.value, target.attr.value
    else:
        return None
    cls = calling_context(ctx).instance_class(receiver, scope)
    method = inherited_method(ctx.model, cls, name) if cls is not None else None
    if method is None or method.decorators:
        return None
    params = [*method.params.posonly_params, *method.params.params]
    return method if params and params[0].name.value == "self" else None


def subclasses(model: SemanticModel, cls: cst.ClassDef) -> list[cst.ClassDef]:
    """The module's subclasses of ``cls`` (direct or not)."""
    return [other for other in model.classes if other is not cls and isinstance(other, cst.ClassDef)
            and _derives_from(model, other, cls, 0)]


def overriding_methods(model: SemanticModel, cls: cst.ClassDef, name: str) -> list[cst.FunctionDef]:
    """The defs of ``name`` in the module's subclasses of ``cls`` (direct or not): what
    ``self.name(...)`` runs in a base class that leaves ``name`` to them (gymnax's
    ``Environment.step`` calling ``self.step_env``)."""
    return [method for other in subclasses(model, cls) if (method := class_methods(other).get(name)) is not None]


def sole_override(model: SemanticModel, cls: cst.ClassDef, name: str, chosen) -> Optional[cst.FunctionDef]:
    """``self.name(...)`` in a method of ``cls``, a base class the module never instantiates
    itself: the one def of ``name`` in its subclasses for which ``chosen`` holds (a jitted
    override: netket's ``LinearOperator.solve`` calling ``self._solve``), else None."""
    for site in model.calls_named(cls.name.value):
        if isinstance(site.node.func, cst.Name):
            binding = model.single_binding(site.node.func.value, site.frame.scope)
            if binding is not None and binding.node is cls:
                return None  # instances of the base itself run its own def
    found = [method for method in overriding_methods(model, cls, name) if chosen(method)]
    return found[0] if len(found) == 1 else None


def _derives_from(model: SemanticModel, cls: cst.ClassDef, base: cst.ClassDef, depth: int) -> bool:
    frame = model.classes.get(cls)
    if frame is None or depth > 5:
        return False
    for arg in cls.bases:
        value = arg.value.value if isinstance(arg.value, cst.Subscript) else arg.value  # ``Env[State, Params]``
        binding = model.single_binding(value.value, frame.scope) if isinstance(value, cst.Name) else None
        if binding is not None and binding.kind == "class" and isinstance(binding.node, cst.ClassDef) and (
                binding.node is base or _derives_from(model, binding.node, base, depth + 1)):
            return True
    return False


def class_methods(cls: cst.ClassDef) -> dict[str, cst.FunctionDef]:
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    return {stmt.name.value: stmt for stmt in body if isinstance(stmt, cst.FunctionDef)}


def _names(expr: cst.BaseExpression, name: str) -> bool:
    return isinstance(expr, cst.Name) and expr.value == name


def inherited_method(model: SemanticModel, cls: cst.ClassDef, name: str, depth: int = 0
                     ) -> Optional[cst.FunctionDef]:
    """The def ``instance.name`` runs for an instance of ``cls``: its own, else the first base's
    in order, for bases that are classes of this module (``class DDIMSampler(DiffusionSampler)``);
    None when a base the lookup reaches is not one (an imported class may define it)."""
    found = class_methods(cls).get(name)
    if found is not None or depth > 5:
        return found
    frame = model.classes.get(cls)
    for base in cls.bases:
        if base.keyword is not None or base.star:
            return None
        binding = model.single_binding(base.value.value, frame.scope) \
            if isinstance(base.value, cst.Name) and frame is not None else None
        if binding is None or binding.kind != "class" or not isinstance(binding.node, cst.ClassDef):
            return None
        found = inherited_method(model, binding.node, name, depth + 1)
        if found is not None:
            return found
    return None
