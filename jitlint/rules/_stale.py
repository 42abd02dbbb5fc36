"""Analyses for JIT601 (a jitted function reads an outer variable that changes between calls)
and JIT602 (outer state a jitted body writes flows into or out of the trace); JIT603 (a static
argument mutated between calls, _mutated.py) shares the ordering of writes and calls.

jit runs the Python body once per input signature; names read from outside the function (module
globals, variables of an enclosing function) are baked into the compiled code as constants at
that first trace.  When the program later reassigns or mutates such a variable and calls the
jitted function again, the call silently uses the old value (measured: 1 compile in 5 calls,
outputs frozen at the first value, for a reassigned global float, a mutated dict and a
reassigned global jnp array).

Reported when, after following calls one or two levels up (``main()`` calling both), some
write of the variable (a re-assignment, ``global`` / ``nonlocal`` assignment elsewhere, item or
attribute assignment, ``append`` / ``update`` / ... on a list, dict or set) happens *between*
two calls of the jitted function in the same body, or shares a loop with a call.  Silent for names bound once
(constants), imports, functions and classes, writes that all happen before the first call or
after the last, and jitted functions re-created in the loop that writes (each is traced anew).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Callable, Iterator, Optional

import libcst as cst

from jitlint.jaxfacts import (STATIC_STATE_FIELD_NAMES, PYTREE_CLASS_DECORATORS, CACHE_CLEARS, CACHE_KEY_MISSING_FLAGS, CONFIG_UPDATES, DISPATCHED_RANDOM_DRAWS,
                              HOST_CLOCK_READS, HOST_ITERATOR_MAKERS, HOST_RANDOM_DRAWS, HOST_RANDOM_GENERATORS,
                              LAX_LOOP_BODIES)
from jitlint.callgraph import MEMOISERS
from jitlint.project import absolute, attribute_reads, module_name_for
from jitlint.rule import FileContext
from jitlint.rules._context import (live_applications, PARTIAL_CONSTRUCTORS, bound_method_target, calling_context, class_methods, loop_targets,
                                    inherited_method, names_assigned_in, overriding_methods, subclasses)
from jitlint.rules._jitted import (JittedFunction, binds_name, jitted_calls, jitted_functions, jitted_lambdas,
                                   name_loads, positional_params, scopes_within, static_names)
from jitlint.rules._nnx import NNX_JIT, NNX_UPDATE, creates_nnx_object, in_place_updates
from jitlint.walk import own_nodes
from jitlint.semantic import Binding, Frame, Scope, SemanticModel, argument_value, is_none
from jitlint.staticargs import ARGNUM_JITS, spec_of
from jitlint.values import GROW_METHODS, MUTATING_METHODS, assigned, builtin_call, code_text, constant_code, self_attribute_value, target_leaves, value_flow
from jitlint.walk import Walker, ancestors, children, iter_nodes, parent_map

SKIPPED_JITS = frozenset({"flax.linen.jit"})
# Transformations whose result, jitted, traces the function they wrap.
TRANSFORMS = frozenset({"jax.grad", "jax.value_and_grad", "jax.vmap", "jax.jacfwd", "jax.jacrev",
                        "jax.jacobian", "jax.hessian", "jax.checkpoint", "jax.remat"})
NNX_UPDATED = "updated in place"
MAX_LIFT = 2


@dataclass(eq=False)
class StaleRead:
    node: cst.Name  # the first read in the jitted body (or the write, for a jit of another module)
    function: Optional[cst.FunctionDef]  # None: a jitted function of another module (``label``)
    name: str
    how: str  # "reassigned" | "mutated" (between calls) | a phrase saying where it changes |
    #           NNX_UPDATED (an NNX object updated in place: JIT610 says it)
    function_value: bool = False  # every binding is a lambda or a def: the stale value is a function
    fix: str = ""  # the fix, where it is not "pass it as an argument"
    related: tuple[tuple[cst.CSTNode, str], ...] = ()  # evidence shown with the finding
    described: bool = False  # ``name`` is a description (a library's hidden state), not code
    label: str = ""  # how messages name a function that is no def: a lambda's name
    #                  (``loss = lambda v: ...``), a jitted function of another module
    loop: str = ""  # the lax loop whose body reads it (traced once for all iterations), not jit

    @property
    def function_name(self) -> str:
        """How messages name the jitted function: a def's name, the name a lambda is bound to,
        another module's function (``function`` None)."""
        return self.label or getattr(getattr(self.function, "name", None), "value", "<lambda>")


@dataclass(frozen=True, eq=False)
class Event:
    frame: Frame
    order: int
    node: Optional[cst.CSTNode] = None  # the write itself, where one is shown as evidence
    app: Optional[object] = None  # a call's: the jit application whose callable it runs, where known


def stale_reads(ctx: FileContext) -> list[StaleRead]:
    return ctx.shared("stale-reads", _analyse)


def _analyse(ctx: FileContext) -> list[StaleRead]:
    jitted = {f: j for f, j in jitted_functions(ctx).items()
              if not any(app.jit.qualname in SKIPPED_JITS for app in j.apps)}
    for func, entry in jitted_lambdas(ctx).items():  # ``jax.jit(lambda ...)``, ``g = lambda ...; jax.jit(g)``
        if not any(app.jit.qualname in SKIPPED_JITS for app in entry.apps):
            jitted.setdefault(func, entry)
    transformed = _transformed_defs(ctx)
    for func, app in transformed.items():
        jitted.setdefault(func, JittedFunction(func)).apps.append(app)
    if not jitted:
        return list(_partial_bound_mutations(ctx, StaleAnalysis(ctx.model, set())))
    order = ctx.model.order
    calls_of: dict[cst.FunctionDef, list[Event]] = {}
    by_app = {id(app): func for func, app in transformed.items()}
    by_app.update({id(app): func for func, entry in jitted.items() if isinstance(func, cst.Lambda)
                   for app in entry.apps})
    for jc in jitted_calls(ctx):
        func = jc.func if isinstance(jc.func, (cst.FunctionDef, cst.Lambda)) else by_app.get(id(jc.app))
        if func in jitted and not jc.via_factory:  # (a factory's jits: _factory_calls below)
            site = ctx.model.call_site_of[jc.call]
            calls_of.setdefault(func, []).append(Event(site.frame, order(jc.call), app=jc.app))
    for func, entry in jitted.items():
        if any(app.jit.qualname == NNX_JIT for app in entry.apps) and func not in calls_of \
                and isinstance(func, cst.FunctionDef):
            # jitted_calls follows jax.jit/pjit/equinox only: the direct calls of an nnx.jit def
            binding = next((b for b in ctx.model.functions[func].scope.bindings.get(func.name.value, ())
                            if b.node is func), None)
            for site in ctx.model.calls_to(binding) if binding is not None else ():
                calls_of.setdefault(func, []).append(Event(site.frame, order(site.node)))
    for func, entry in jitted.items():
        for site in _factory_calls(ctx, func, entry):
            calls_of.setdefault(func, []).append(Event(site.frame, order(site.node)))
    analysis = StaleAnalysis(ctx.model, set(jitted), calls_of, calling_context(ctx).runs_traced)
    found = []
    for func, entry in jitted.items():
        calls = [e for e in calls_of.get(func, []) if not _inside(e.frame, func)]
        if calls:
            found.extend(analysis.check(entry, calls))
    found.extend(_partial_bound_mutations(ctx, analysis))
    return found


def _partial_bound_mutations(ctx: FileContext, analysis: "StaleAnalysis") -> Iterator[StaleRead]:
    """``p = jax.jit(partial(f, b=data))`` then ``data.append(x)`` between calls of ``p``: the
    partial holds the list itself, so without jit ``f`` sees it grow; jit read it at the first
    trace and keeps that.  (Rebinding ``data`` changes nothing with or without jit: the
    partial keeps the old object.)"""
    model = ctx.model
    for app in live_applications(ctx):
        target, scope = app.target, app.frame.scope
        if app.jit.qualname in SKIPPED_JITS or not isinstance(target, cst.Call) or len(target.args) < 2 \
                or model.qualified_name(target.func, scope) not in PARTIAL_CONSTRUCTORS:
            continue
        calls = [Event(model.call_site_of[jc.call].frame, model.order(jc.call))
                 for jc in jitted_calls(ctx) if jc.app is app]
        if not calls:
            continue
        entry = JittedFunction(target, [app])
        for arg in target.args[1:]:
            if arg.star or not isinstance(arg.value, cst.Name):
                continue
            bindings = model.lookup(arg.value.value, scope)
            if not bindings or any(b.kind in ("import", "def", "class") for b in bindings) \
                    or bindings[0].scope.kind == "class":
                continue
            how = analysis._stale(arg.value.value, bindings[0].scope, bindings, entry, calls, kinds=("mutated",))
            if how is not None:
                wrapped = cst.Module([]).code_for_node(target.args[0].value)
                yield StaleRead(arg.value, None, arg.value.value, how, label=wrapped, fix=(
                    f"pass `{arg.value.value}` at each call instead of binding it with partial (a "
                    f"static tuple where jit needs its value), or build a new jit after changing it"))


def _factory_calls(ctx: FileContext, func: cst.FunctionDef, entry: JittedFunction) -> Iterator:
    """``step = make_step()`` bound once, outside a loop, where ``make_step`` returns the
    jitted def (``return step``, ``return jax.jit(step)``): the calls of ``step`` call one jit,
    made once, whose first trace keeps what ``func`` read then."""
    model = ctx.model
    frame = model.functions.get(func)
    if frame is None and isinstance(func, cst.Lambda) and entry.apps:
        frame = entry.apps[0].frame  # ``return jax.jit(lambda v, g: MOMENTUM * v + g)``
    factory = frame.enclosing_function() if frame is not None else None
    outer = model.functions.get(factory) if factory is not None else None
    if factory is None or outer is None or outer.scope.kind == "class" or factory.decorators:
        return
    inner = model.scope_of[factory]
    made = {id(app.call) for app in entry.apps if app.call is not None}
    returns = [statement.value for statement, at in model.returns if at.enclosing_function() is factory]
    if not returns or not all(
            id(value) in made or (isinstance(value, cst.Name) and isinstance(func, cst.FunctionDef)
                                  and value.value == func.name.value
                                  and [b.node for b in model.lookup(value.value, inner)] == [func])
            for value in returns):
        return
    own = next((b for b in outer.scope.bindings.get(factory.name.value, ()) if b.node is factory), None)
    for site in model.calls_to(own) if own is not None else ():
        statement = model.parent_statement.get(site.node)
        if not isinstance(statement, cst.Assign) or statement.value is not site.node \
                or len(statement.targets) != 1 or not isinstance(statement.targets[0].target, cst.Name) \
                or site.frame.loops_in_scope():
            continue
        bound = model.lookup(statement.targets[0].target.value, site.frame.scope)
        if len(bound) == 1 and bound[0].node is statement:
            yield from model.calls_to(bound[0])


def host_state_reads(ctx: FileContext) -> list[StaleRead]:
    """``np.random.normal()``, ``random.random()``, ``autoray.do("random.normal", ...)``,
    ``time.time()``, ``next(it)`` of an iterator made outside, in a jitted body (or a function of
    this module it calls) or a lax loop body: a draw from a generator kept in Python
    (jaxfacts.HOST_RANDOM_DRAWS), a clock read (jaxfacts.HOST_CLOCK_READS) or an iterator
    advanced (jaxfacts.HOST_ITERATOR_MAKERS), run once at trace time and baked in.  Not a draw
    given a traced parameter (that one fails to trace: JIT803's)."""
    return ctx.shared("host-state-reads", _find_host_state_reads)


def _find_host_state_reads(ctx: FileContext) -> list[StaleRead]:
    model = ctx.model
    jitted = {f: j for f, j in jitted_functions(ctx).items()
              if not any(app.jit.qualname in SKIPPED_JITS for app in j.apps)}
    found = []
    if jitted:
        analysis = StaleAnalysis(model, set(jitted))
        calls: dict[cst.FunctionDef, list] = {}
        for jc in jitted_calls(ctx):
            calls.setdefault(jc.func, []).append(model.call_site_of[jc.call])
        for func in jitted:
            shown = calls.get(func, [])
            if len(shown) == 1 and shown[0].frame.scope is model.module_scope and not shown[0].frame.loops_in_scope():
                continue  # called once, by the script: the one draw is all it asks for
            for body in (func, *analysis._helpers(func)):
                read = _first_host_read(ctx, body)
                if read is not None:
                    call, (source, changes, kind) = read
                    shown_func = cst.Module([]).code_for_node(call.func)
                    found.append(StaleRead(call, func, source, f"{changes}, but `{shown_func}(...)` runs at "
                                           f"trace time only", described=True, fix=JIT_HOST_READ_FIXES[kind]))
                    break
    for method in _bound_jitted_methods(ctx, set(jitted)):  # ``self._jitted = jax.jit(self._apply)``
        read = _first_host_read(ctx, method)
        if read is not None:
            call, (source, changes, kind) = read
            shown_func = cst.Module([]).code_for_node(call.func)
            found.append(StaleRead(call, method, source, f"{changes}, but `{shown_func}(...)` runs at "
                                   f"trace time only", described=True, fix=JIT_HOST_READ_FIXES[kind]))
    for loop, qualname, body in _lax_loop_bodies(ctx):
        read = _first_host_read(ctx, body)
        if read is not None:
            call, (source, changes, kind) = read
            shown_func = cst.Module([]).code_for_node(call.func)
            found.append(StaleRead(call, body if isinstance(body, cst.FunctionDef) else None, source,
                                   f"{changes}, but `{shown_func}(...)` runs at trace time only",
                                   described=True, fix=LAX_HOST_READ_FIXES[kind],
                                   loop=qualname.replace("jax.lax.", "lax."), related=((loop, "the loop"),)))
    return found


def _bound_jitted_methods(ctx: FileContext, jitted: set) -> list[cst.FunctionDef]:
    """The methods jitted as bound methods (``jax.jit(self._apply)``, ``jax.jit(model.loss)``):
    a plain method taking ``self``, or a staticmethod of the instance's class."""
    found: list[cst.FunctionDef] = []
    for app in live_applications(ctx):
        target = app.target
        if app.jit.qualname not in ARGNUM_JITS or not (isinstance(target, cst.Attribute)
                                                       and isinstance(target.value, cst.Name)):
            continue
        method = bound_method_target(ctx, target, app.frame.scope)
        if method is None:
            cls = calling_context(ctx).instance_class(target.value, app.frame.scope)
            method = class_methods(cls).get(target.attr.value) if cls is not None else None
            if method is not None and [d.decorator.value for d in method.decorators
                                       if isinstance(d.decorator, cst.Name)] != ["staticmethod"]:
                method = None
        if method is not None and method not in jitted and method not in found:
            found.append(method)
    return found


def _first_host_read(ctx: FileContext, body, depth: int = 0) -> Optional[tuple[cst.Call, tuple[str, str, str]]]:
    """The first host-state read that ``body`` makes itself (not in a nested def, which may run
    at call time as a host callback), with no traced parameter in its arguments; else the first
    call of a method of an object of this module that makes one (``rb.sample(batch_size)``
    drawing with ``np.random``), reported at that call."""
    model = ctx.model
    params = {p.name.value for p in (*positional_params(body), *body.params.kwonly_params)}
    helpers = []
    for site in model.calls:
        if not site.frame.is_inside(body) or _nested_function(site.frame, body):
            continue
        read = _host_state_read(site.node, site.frame.scope, model) or _iterator_advance(ctx, site.node, site.frame.scope, body) \
            or _generator_draw(ctx, site.node, site.frame.scope, body)
        # (a helper's parameters hold what its call passes, judged at that call)
        if read is not None and (depth > 0 or not any(_reads_value_of(a.value, params) for a in site.node.args)):
            return site.node, read
        if read is None and depth < 2 and not any(_reads_value_of(a.value, params) for a in site.node.args
                                                  if depth == 0):
            helpers.append(site)
    jitted = set(jitted_functions(ctx))
    for site in helpers:  # (plain helper defs are bodies of their own: StaleAnalysis._helpers)
        callee = calling_context(ctx).callee(site.node, site.frame.scope) \
            if isinstance(site.node.func, cst.Attribute) else None
        if isinstance(callee, cst.FunctionDef) and callee is not body and callee not in jitted \
                and not callee.decorators and model.functions[callee].scope.kind == "class":
            inner = _first_host_read(ctx, callee, depth + 1)
            if inner is not None:
                return site.node, inner[1]
    return None


def _lax_loop_bodies(ctx: FileContext) -> Iterator[tuple[cst.Call, str, object]]:
    """(the lax loop call, its qualname, the body: a lambda or a def of this module) for each
    call of a lax loop (jaxfacts.LAX_LOOP_BODIES), eager or traced: the body is traced once."""
    model, flow = ctx.model, value_flow(ctx)
    for site in model.calls:
        qualname = model.qualified_name(site.node.func, site.frame.scope) or ""
        param = LAX_LOOP_BODIES.get(qualname)
        if param is None:
            continue
        positional = [a for a in site.node.args if a.keyword is None and not a.star]
        arg = positional[param[0]] if param[0] < len(positional) else next(
            (a for a in site.node.args if a.keyword is not None and a.keyword.value == param[1]), None)
        body = arg.value if arg is not None else None
        if isinstance(body, cst.Name):
            binding = flow.single(body, site.frame.scope)
            body = binding.node if binding is not None and binding.kind == "def" else None
        if isinstance(body, (cst.Lambda, cst.FunctionDef)):
            yield site.node, qualname, body


def _reads_value_of(expr: cst.BaseExpression, params: set[str]) -> bool:
    """``expr`` reads the value of one of ``params``, not only its static ``.shape`` /
    ``.ndim`` / ``.dtype`` / ``.size``."""
    stack: list[cst.CSTNode] = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Attribute):
            if not (node.attr.value in ("shape", "ndim", "dtype", "size") and isinstance(node.value, cst.Name)):
                stack.append(node.value)
            continue
        if isinstance(node, cst.Name) and node.value in params:
            return True
        stack.extend(node.children)
    return False


def _nested_function(frame: Frame, body) -> bool:
    """A def or lambda lies between ``frame``'s point and ``body``."""
    for f in frame:
        if f.node is body:
            return False
        if isinstance(f.node, (cst.FunctionDef, cst.Lambda)):
            return True
    return False


# What to do, by what is read: under jit (each call) and in a lax loop body (each iteration).
JIT_HOST_READ_FIXES = {
    "random": ("every call returns the same \"random\" numbers; draw with jax.random from a key "
               "passed as an argument and split for each call"),
    "clock": ("every call sees the time of the first trace; read the clock outside the jitted "
              "function and pass the value as an argument (a random key: pass a jax.random key "
              "and split it)"),
    "iterator": ("every call gets the item of the first trace; pass the item as an argument, or "
                 "stack the items in an array and index it with a traced step"),
}
LAX_HOST_READ_FIXES = {
    "random": "carry a jax.random key in the loop state and split it in the body",
    "clock": "read the clock outside the loop",
    "iterator": "stack the items in an array and index it with the loop index (xs[i]), or scan over them",
}


def _generator_draw(ctx: FileContext, call: cst.Call, scope: Scope, body) -> Optional[tuple[str, str, str]]:
    """``rng.normal()`` / ``self.rng.integers(n)`` where the generator object is made outside
    ``body`` by a constructor of jaxfacts.HOST_RANDOM_GENERATORS (``np.random.default_rng(0)``):
    each draw advances it; also one every call passes as a (static) argument."""
    func = call.func
    if not isinstance(func, cst.Attribute):
        return None
    receiver = func.value
    made = None
    if isinstance(receiver, cst.Name):
        binding = value_flow(ctx).single(receiver, scope)
        if binding is not None and binding.kind == "assign" and not _within(binding.scope, body):
            made = assigned(binding).value, binding.scope
        elif binding is not None and binding.kind == "param" and binding.scope.node is body:
            made = _generator_passed(ctx, body, binding.name)  # a static argument (scipy#24412)
    elif isinstance(receiver, cst.Attribute):
        made = self_attribute_value(ctx.model, receiver, scope)  # ``self.rng`` set in __init__
    if made is None or not isinstance(made[0], cst.Call):
        return None
    maker = ctx.model.qualified_name(made[0].func, made[1]) or ""
    if func.attr.value not in HOST_RANDOM_GENERATORS.get(maker, {}):
        return None
    shown = cst.Module([]).code_for_node(receiver)
    return f"the generator `{shown}` (`{maker}`)", "advanced by each draw", "random"


def _generator_passed(ctx: FileContext, body, param: str) -> Optional[tuple[cst.Call, Scope]]:
    """What every call of the jitted ``body`` passes for ``param`` when it is one generator
    construction (``rng = np.random.default_rng(0)`` ... ``f(a, rng)``): a static argument, so
    the draws inside ran once, at the first trace."""
    positional = [p.name.value for p in positional_params(body)]
    found: set = set()
    made = None
    for jc in jitted_calls(ctx):
        if jc.func is not body:
            continue
        arg = next((a.value for a in jc.call.args if a.keyword is not None and a.keyword.value == param), None)
        if arg is None and param in positional:
            passed = [a for a in jc.call.args if a.keyword is None]
            index = positional.index(param)
            if any(a.star for a in jc.call.args) or index >= len(passed):
                return None
            arg = passed[index].value
        site = ctx.model.call_site_of[jc.call]
        origin = ctx.model.value_origin(arg, site.frame.scope, site.frame) if arg is not None else None
        if origin is None or not isinstance(origin[0], cst.Call):
            return None
        found.add(id(origin[0]))
        made = origin[0], origin[1]
    return made if len(found) == 1 else None


def _within(scope: Scope, body) -> bool:
    """``scope`` is ``body``'s own or one nested in it."""
    while scope is not None:
        if scope.node is body:
            return True
        scope = scope.parent
    return False


def _host_state_read(call: cst.Call, scope: Scope, model: SemanticModel) -> Optional[tuple[str, str, str]]:
    """(what is read, how it changes, its kind) for a call that reads state kept on the host and
    changed between calls (a draw from a generator kept in Python, a clock), or None."""
    qualname = model.qualified_name(call.func, scope)
    if qualname in HOST_RANDOM_DRAWS:
        return f"the global generator of `{qualname.rsplit('.', 1)[0]}`", "advanced by each draw", "random"
    if qualname in HOST_CLOCK_READS:
        return "the host clock", "different at every call", "clock"
    prefix = DISPATCHED_RANDOM_DRAWS.get(qualname or "")
    first = call.args[0].value if call.args and call.args[0].keyword is None else None
    if prefix is not None and isinstance(first, cst.SimpleString) \
            and str(first.evaluated_value).startswith(prefix):
        return "autoray's global jax key", "advanced by each draw", "random"
    return None


def _iterator_advance(ctx: FileContext, call: cst.Call, scope: Scope, body) -> Optional[tuple[str, str, str]]:
    """``next(it)`` where every definition of ``it`` reaching the read makes a Python iterator
    outside ``body`` (``iter(...)``, a generator expression, ``itertools.count()``): the body
    takes one item when it is traced, and keeps it."""
    model = ctx.model
    if not (isinstance(call.func, cst.Name) and call.func.value == "next" and not model.lookup("next", scope)
            and call.args and isinstance(call.args[0].value, cst.Name)):
        return None
    name = call.args[0].value
    bindings = value_flow(ctx).reaching(name, scope)
    if not bindings or not all(_makes_iterator(b, model) and b.frame is not None and not b.frame.is_inside(body)
                               for b in bindings):
        return None
    return f"the Python iterator `{name.value}`", "advanced by each `next`", "iterator"


def _makes_iterator(binding: Binding, model: SemanticModel) -> bool:
    value = binding.value
    if isinstance(value, cst.GeneratorExp):
        return True
    if not isinstance(value, cst.Call):
        return False
    func = value.func
    if isinstance(func, cst.Name) and func.value in HOST_ITERATOR_MAKERS and not model.lookup(func.value, binding.scope):
        return True  # a builtin, not shadowed
    if isinstance(func, cst.Name):  # a generator function of this module (``sample_minibatches(...)``)
        made = model.single_binding(func.value, binding.scope)
        if made is not None and made.kind == "def" and isinstance(made.node, cst.FunctionDef) \
                and not made.node.decorators \
                and any(isinstance(node, cst.Yield) for node in own_nodes(made.node.body)):
            return True
    return model.qualified_name(func, binding.scope) in HOST_ITERATOR_MAKERS


@dataclass(eq=False)
class StaleFlag:
    update: cst.Call  # ``jax.config.update(flag, ...)`` between two calls
    flag: str
    callee: str  # the jitted function, as its calls name it
    stale: cst.Call  # the next call, which reuses the program compiled under the old value


def stale_config_flags(ctx: FileContext) -> list[StaleFlag]:
    """``jax.config.update(flag, ...)`` of a flag jit's cache key leaves out
    (jaxfacts.CACHE_KEY_MISSING_FLAGS) between two calls of a jitted function whose body calls
    a function the flag changes, in one body, with no ``jax.clear_caches()`` in between."""
    return ctx.shared("stale-config-flags", _find_stale_config_flags)


def _find_stale_config_flags(ctx: FileContext) -> list[StaleFlag]:
    model = ctx.model
    updates, clears = [], []
    for site in model.calls:
        qualname = model.qualified_name(site.node.func, site.frame.scope)
        if qualname in CACHE_CLEARS:
            clears.append(site)
        elif qualname in CONFIG_UPDATES and site.node.args:
            flag = _string_value(site.node.args[0].value, site, model)
            if flag in CACHE_KEY_MISSING_FLAGS:
                updates.append((site, flag))
    if not updates:
        return []
    found = []
    calls_by_app: dict[int, list] = {}
    for jc in jitted_calls(ctx):
        calls_by_app.setdefault(id(jc.app), []).append(jc)
    for group in calls_by_app.values():
        func = group[0].func
        if func is None:
            continue
        body = func.body
        used = {model.qualified_name(node.func, model.scope_of.get(func) or model.module_scope)
                for node in iter_nodes(body) if isinstance(node, cst.Call)}
        for update, flag in updates:
            if not used & CACHE_KEY_MISSING_FLAGS[flag]:
                continue
            at = model.order(update.node)
            same = [jc for jc in group if model.call_site_of[jc.call].frame.scope is update.frame.scope]
            before = [jc for jc in same if model.order(jc.call) < at]
            after = sorted((jc for jc in same if model.order(jc.call) > at), key=lambda jc: model.order(jc.call))
            if not before or not after:
                continue
            nxt = model.order(after[0].call)
            if any(c.frame.scope is update.frame.scope and at < model.order(c.node) < nxt for c in clears):
                continue
            found.append(StaleFlag(update.node, flag, after[0].name, after[0].call))
    return found


def _string_value(expr: cst.BaseExpression, site, model: SemanticModel) -> Optional[str]:
    """A string literal, or a name bound once to one (``FLAG = "jax_..."``)."""
    if isinstance(expr, cst.Name):
        binding = model.single_binding(expr.value, site.frame.scope)
        expr = binding.value if binding is not None and binding.kind == "assign" else None
    if isinstance(expr, cst.SimpleString):
        value = expr.evaluated_value
        return value if isinstance(value, str) else None
    return None


def stale_imported_reads(ctx: FileContext) -> list[StaleRead]:
    """``settings.scale`` (``settings`` imported: a module or a class of another module) read
    by a jitted function, of this module or (through the project index's
    ModuleSummary.global_reads) of another one, and assigned here between two calls of it or in
    the loop that calls it: reported at the read in this module's jitted body, else at the
    write."""
    return ctx.shared("stale-imported-reads", _find_stale_imported_reads)


def _find_stale_imported_reads(ctx: FileContext) -> list[StaleRead]:
    model = ctx.model
    writes: dict[str, list[Event]] = {}
    for _, frame, node in model.item_writes:
        target = node.target if isinstance(node, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign)) else None
        if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) \
                and not any(isinstance(f.node, cst.FunctionDef) and f.node in jitted_functions(ctx) for f in frame):
            qualname = model.qualified_name(target, frame.scope)
            if qualname is not None:
                writes.setdefault(absolute(qualname, *_module(ctx)), []).append(Event(frame, model.order(node), target))
    if not writes:
        return []
    # (jitted function: its def here, or its name in another module) -> its reads, its calls
    reads: dict[object, dict[str, Optional[cst.Attribute]]] = {}
    calls: dict[object, list[Event]] = {}
    for jc in jitted_calls(ctx):
        if isinstance(jc.func, cst.FunctionDef):
            site = model.call_site_of[jc.call]
            if jc.func not in reads:
                reads[jc.func] = {absolute(q, *_module(ctx)): node for q, node in attribute_reads(model, jc.func).items()}
            calls.setdefault(jc.func, []).append(Event(site.frame, model.order(jc.call)))
    index = ctx.index
    if index is not None and index.reads_anything():
        for site in model.calls:
            func = site.node.func
            root = func
            while isinstance(root, cst.Attribute):
                root = root.value
            binding = model.single_binding(root.value, site.frame.scope) if isinstance(root, cst.Name) else None
            qualname = model.qualified_name(func, site.frame.scope) if binding is not None \
                and binding.kind == "import" else None
            if qualname is None:
                continue
            qualname = absolute(qualname, *_module(ctx))
            found = index.global_reads(qualname)
            if found:
                reads.setdefault(qualname, {read: None for read in found})
                calls.setdefault(qualname, []).append(Event(site.frame, model.order(site.node)))
    analysis = StaleAnalysis(model, set(jitted_functions(ctx)))
    stale = []
    for function, names in reads.items():
        for name, read in names.items():
            for write in writes.get(name, ()):
                if analysis._between_calls(write, calls[function], ()):
                    shown = name.rpartition(".")[0].rpartition(".")[2] + "." + name.rpartition(".")[2]
                    if isinstance(function, cst.FunctionDef):
                        stale.append(StaleRead(read, function, shown, "reassigned",  # type: ignore[arg-type]
                                               related=((write.node, "changed here"),)))
                    else:
                        stale.append(StaleRead(write.node, None, shown,  # type: ignore[arg-type]
                                               "reassigned here, between its calls", label=function))
                    break
    return stale


def _module(ctx: FileContext) -> tuple[str, bool]:
    name, is_package = module_name_for(ctx.path)
    return ctx.model.module_name or name, is_package


def stale_attribute_reads(ctx: FileContext) -> list[StaleRead]:
    """``self._fwd = jax.jit(self._forward)`` in ``__init__`` (or stored on ``self`` by another
    method: ``build()``): the bound method's body reads ``self.P``, baked in at the first trace;
    flagged when ``P`` is reassigned or mutated later, by another method of the class
    (``self.P = ...``) or on an instance of it (``model.P = ...``)."""
    return ctx.shared("stale-attribute-reads", _find_stale_attribute_reads)


def _find_stale_attribute_reads(ctx: FileContext) -> list[StaleRead]:
    found = []
    model = ctx.model
    for app in live_applications(ctx):
        target = app.target
        if app.jit.qualname in SKIPPED_JITS or not isinstance(target, cst.Attribute) \
                or not isinstance(target.value, cst.Name) or target.value.value != "self":
            continue
        builder = app.frame.enclosing_function()
        builder_frame = model.functions.get(builder) if builder is not None else None
        if builder is None or builder_frame is None or builder_frame.scope.kind != "class":
            continue
        if builder.name.value != "__init__" and (
                not _stored_on_self(model, app) or builder.name.value.startswith("__")
                # called again, it jits again: "re-apply after updating self" (DESC PR 310)
                or len(model.calls_named(builder.name.value)) > 1
                or any(site.frame.loops_in_scope() for site in model.calls_named(builder.name.value))):
            continue
        cls = builder_frame.scope.node
        method = class_methods(cls).get(target.attr.value)
        if method is None:
            continue
        for node, where in state_changed_after_construction(ctx, cls, method, builder.name.value):
            found.append(StaleRead(node, method, f"self.{node.attr.value}", f"changed by {where} while "
                                   f"the jit made once in `{builder.name.value}` keeps its first trace"))
    return found


def _stored_on_self(model: SemanticModel, app) -> bool:
    """``self.step = jax.jit(self.step)``: the jit is kept on the object for its later calls."""
    statement = model.parent_statement.get(app.call) if app.call is not None else None
    return isinstance(statement, cst.Assign) and len(statement.targets) == 1 \
        and isinstance(statement.targets[0].target, cst.Attribute) \
        and isinstance(statement.targets[0].target.value, cst.Name) \
        and statement.targets[0].target.value.value == "self"


def stale_instance_method_reads(ctx: FileContext) -> list[StaleRead]:
    """``jitted_calc = jax.jit(c.calc)`` made once, ``c`` an instance of a class of this module:
    the bound method's body reads ``self.P`` at the first trace; flagged when ``P`` changes on
    ``c`` (``c.P = ...``, ``c.P[k] = ...``, or a call of a method of ``c`` that assigns
    ``self.P``) between two calls of ``jitted_calc`` or in a loop with one."""
    return ctx.shared("stale-instance-method-reads", _find_stale_instance_method_reads)


def _find_stale_instance_method_reads(ctx: FileContext) -> list[StaleRead]:
    model = ctx.model
    found: list[StaleRead] = []
    analysis: Optional[StaleAnalysis] = None
    for app in live_applications(ctx):
        target, scope = app.target, app.frame.scope
        if app.jit.qualname in SKIPPED_JITS or app.call is None or not isinstance(target, cst.Attribute) \
                or not isinstance(target.value, cst.Name) or target.value.value == "self":
            continue
        statement = model.parent_statement.get(app.call)
        if not isinstance(statement, cst.Assign) or len(statement.targets) != 1 \
                or not isinstance(statement.targets[0].target, cst.Name):
            continue
        jitted = model.single_binding(statement.targets[0].target.value, scope)
        instance = model.single_binding(target.value.value, scope)
        cls = _instantiated_class(instance, model)
        method = class_methods(cls).get(target.attr.value) if cls is not None else None
        if jitted is None or method is None or method.decorators or not positional_params(method):
            continue
        receiver = positional_params(method)[0].name.value
        reads: dict[str, cst.Attribute] = {}
        for node in attribute_loads(method.body, receiver):
            reads.setdefault(node.attr.value, node)
        writes = _instance_writes(ctx, instance, cls, set(reads))
        if not writes:
            continue
        if analysis is None:
            analysis = StaleAnalysis(model, set())
        stops = (instance.scope.node,) if instance.scope.kind == "function" else ()
        calls = [Event(site.frame, model.order(site.node)) for site in model.calls_to(jitted)]
        for attr, event, shown in writes:
            if attr not in reads or not analysis._between_calls(event, calls, stops):
                continue
            read = reads.pop(attr)
            found.append(StaleRead(
                event.node, method, f"{receiver}.{attr}",  # shown at the write: the user's code
                f"changed here by {shown} between calls of `{jitted.name}`, the jit of the bound "
                f"method made once",
                related=((read, "the read, baked in at the first trace"),),
                fix=(f"jit a function that takes `{attr}` as an argument (a static one, if Python "
                     f"branches on it) instead of the bound method; jitting `{target.value.value}."
                     f"{target.attr.value}` again does not help (jit's cache takes an equal bound "
                     f"method for the same function)")))
    return found


def stale_memoised_closure_reads(ctx: FileContext) -> list[StaleRead]:
    """A method that jits a nested def and keeps the jit for later calls (``self._cache[key] =
    fn``; ``self._fn = fn`` under ``if not hasattr(self, ...)``; or the method itself is
    memoised: ``functools.lru_cache`` / ``cached_property``): what the def, the nested defs of
    the method it uses (a vector field handed to ``diffrax.ODETerm``) and the methods it runs
    on ``self`` (``len(self)``) read as ``self.P`` is baked in at the first trace; flagged when
    another method of the class or a subclass writes ``P`` after construction (CellFlow
    03bff12: validation kept the untrained parameters; rlpd: a replay buffer's first length)."""
    return ctx.shared("stale-memoised-closure-reads", _find_stale_memoised_closure_reads)


def _find_stale_memoised_closure_reads(ctx: FileContext) -> list[StaleRead]:
    model = ctx.model
    found: list[StaleRead] = []
    for app in live_applications(ctx):
        if app.jit.qualname in SKIPPED_JITS:
            continue
        builder = app.frame.enclosing_function()
        builder_frame = model.functions.get(builder) if builder is not None else None
        if builder_frame is None or builder_frame.scope.kind != "class" or not positional_params(builder):
            continue
        if isinstance(app.target, cst.FunctionDef):  # ``@jax.jit`` on a def in the method
            jitted, made_in = app.target, model.functions[app.target].scope if app.target in model.functions else None
        else:
            target = _through_transforms(model, app.target, app.frame.scope)
            binding = model.single_binding(target.value, app.frame.scope) if isinstance(target, cst.Name) else None
            if binding is None or binding.kind != "def" or not isinstance(binding.node, cst.FunctionDef):
                continue
            jitted, made_in = binding.node, binding.scope
        if made_in is None or model.scope_of.get(builder) is not made_in:
            continue
        receiver = positional_params(builder)[0].name.value
        if not _memoises(model, app, jitted, builder, builder_frame.scope, receiver):
            continue
        cls = builder_frame.scope.node
        methods = class_methods(cls)
        writes: dict[str, str] = {}
        for owner in (*subclasses(model, cls), cls):  # (what an instance of a subclass runs too)
            writes.update(_attribute_writes(ctx, owner, class_methods(owner), builder.name.value))
        seen: set[str] = set()
        for func, func_receiver, via in _closure_reads(model, jitted, made_in, cls, receiver):
            parents = parent_map(func.body)
            for node in attribute_loads(func.body, func_receiver):
                attr = node.attr.value
                if attr in methods or attr in seen or attr not in writes or _static_field_read(node, parents):
                    continue  # (a train state's ``apply_fn`` is the same function in every new state)
                seen.add(attr)
                # a read in a method the closure runs is shown at that call (``len(self)``)
                shown = f"`self.{attr}`" if via is None else f"`self.{attr}` (through `{code_text(via)}`)"
                found.append(StaleRead(via or node, jitted, shown, described=True, how=(
                    f"changed by {writes[attr]}, while the jit that `{builder.name.value}` keeps for "
                    f"later calls holds its first trace"),
                    related=((app.anchor, "jitted once, then reused"),
                             *(((node, f"`{func.name.value}` reads it here"),) if via is not None else ())),
                    fix=(f"pass `self.{attr}` (or what is read from it) to the jitted function as an "
                         f"argument; a new jit per call would recompile instead")))
    return found


def _memoises(model: SemanticModel, app, jitted: cst.FunctionDef, builder: cst.FunctionDef, scope: Scope,
              receiver: str) -> bool:
    """``builder`` keeps the jit ``app`` makes for later calls: it stores it in an item of an
    attribute of ``receiver`` (``self._cache[key] = fn``), or on an attribute under an ``if``
    about the receiver (lazy initialisation: ``if not hasattr(self, "rng"): ... self._sample =
    fn``: rlpd's replay buffer), or it is memoised itself and returns it."""
    kept: set = {jitted.name.value} if app.call is None else {id(app.call)}  # (a decorated def: its name)
    statement = model.parent_statement.get(app.call) if app.call is not None else None
    if isinstance(statement, cst.Assign) and len(statement.targets) == 1 \
            and isinstance(statement.targets[0].target, cst.Name):
        kept.add(statement.targets[0].target.value)
    def is_kept(value: Optional[cst.BaseExpression]) -> bool:
        return value is not None and (id(value) in kept or (isinstance(value, cst.Name) and value.value in kept))
    if any(_memoiser(model, d, scope) is not None for d in builder.decorators):
        return any(isinstance(n, cst.Return) and is_kept(n.value) for n in iter_nodes(builder.body))
    parents = parent_map(builder.body)
    for node in iter_nodes(builder.body):
        if not isinstance(node, cst.Assign) or not is_kept(node.value):
            continue
        for t in node.targets:
            if isinstance(t.target, cst.Subscript) and isinstance(t.target.value, cst.Attribute) \
                    and isinstance(t.target.value.value, cst.Name) and t.target.value.value.value == receiver:
                return True
            if isinstance(t.target, cst.Attribute) and isinstance(t.target.value, cst.Name) \
                    and t.target.value.value == receiver and _under_receiver_test(node, parents, receiver):
                return True
    return False


def _under_receiver_test(node: cst.CSTNode, parents: dict[int, cst.CSTNode], receiver: str) -> bool:
    """``node`` runs under an ``if`` whose test reads ``receiver`` (``if not hasattr(self,
    "rng")``, ``if self._fn is None``)."""
    return any(isinstance(current, cst.If) and any(isinstance(n, cst.Name) and n.value == receiver
                                                   for n in iter_nodes(current.test))
               for current in ancestors(parents, node))


def _closure_reads(model: SemanticModel, func: cst.FunctionDef, scope: Scope, cls: cst.ClassDef,
                   receiver: str) -> list[tuple[cst.FunctionDef, str, Optional[cst.Call]]]:
    """(def, the name its receiver has there, the call in the closure that runs it: None for
    the closure's own defs) of ``func`` and the defs of ``scope`` (the method
    that defines it) it names, transitively (a vector field ``vf`` that ``solve_ode`` hands to
    ``diffrax.ODETerm(vf)`` runs in its trace), and the methods they run on ``receiver``
    (``self.m(...)``, ``len(self)``: ``__len__``), as the class or a subclass defines them."""
    defs = [func]
    for current in defs:
        for node in iter_nodes(current.body):
            if isinstance(node, cst.Name):
                binding = model.single_binding(node.value, scope)
                if binding is not None and binding.kind == "def" and binding.scope is scope \
                        and isinstance(binding.node, cst.FunctionDef) and binding.node not in defs:
                    defs.append(binding.node)
    run: dict[str, cst.Call] = {}
    for current in defs:
        for node in iter_nodes(current.body):
            if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) \
                    and isinstance(node.func.value, cst.Name) and node.func.value.value == receiver:
                run.setdefault(node.func.attr.value, node)
            elif builtin_call(node, "len", model, scope) and len(node.args) == 1 \
                    and isinstance(node.args[0].value, cst.Name) and node.args[0].value.value == receiver:
                run.setdefault("__len__", node)
    found: list[tuple[cst.FunctionDef, str, Optional[cst.Call]]] = [(d, receiver, None) for d in defs]
    for name, call in run.items():
        for method in (inherited_method(model, cls, name), *overriding_methods(model, cls, name)):
            params = positional_params(method) if method is not None else []
            if params:
                found.append((method, params[0].name.value, call))
    return found


def _instantiated_class(instance: Optional[Binding], model: SemanticModel) -> Optional[cst.ClassDef]:
    """The class of this module that ``instance`` (``c = C(...)``) is an instance of."""
    if instance is None or instance.kind != "assign" or not isinstance(instance.value, cst.Call) \
            or not isinstance(instance.value.func, cst.Name):
        return None
    binding = model.single_binding(instance.value.func.value, instance.scope)
    if binding is None or binding.kind != "class" or not isinstance(binding.node, cst.ClassDef):
        return None
    return binding.node


def _instance_writes(ctx: FileContext, instance: Binding, cls: cst.ClassDef,
                     attrs: set[str]) -> list[tuple[str, Event, str]]:
    """(attribute, the write, how it is shown) for the writes of ``attrs`` on ``instance``:
    through its attribute (``c.P = ...``, ``c.P[k] += ...``) or a call of one of its methods
    that assigns ``self.P``."""
    model = ctx.model
    name = instance.name
    found: list[tuple[str, Event, str]] = []
    for root, frame, write in model.item_writes:
        if root != name or model.lookup(name, frame.scope) != [instance]:
            continue
        target = write.target if isinstance(write, (cst.AssignTarget, cst.AugAssign)) else None
        while isinstance(target, (cst.Subscript, cst.Attribute)) and not (
                isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name)):
            target = target.value
        if isinstance(target, cst.Attribute) and target.attr.value in attrs:
            found.append((target.attr.value, Event(frame, model.order(write), write),
                          f"`{name}.{target.attr.value} = ...`"))
    methods = class_methods(cls)
    for site in model.calls:
        func = site.node.func
        if not isinstance(func, cst.Attribute) or not isinstance(func.value, cst.Name) \
                or func.value.value != name or func.attr.value not in methods \
                or model.lookup(name, site.frame.scope) != [instance]:
            continue
        method = methods[func.attr.value]
        params = positional_params(method)
        if not params:
            continue
        for attr in _self_assigned(method, params[0].name.value) & attrs:
            found.append((attr, Event(site.frame, model.order(site.node), site.node),
                          f"`{name}.{func.attr.value}()`"))
    return found


def _self_assigned(method: cst.FunctionDef, receiver: str) -> set[str]:
    """The attributes ``method`` assigns on its receiver (``self.P = ...``, ``self.P += ...``)."""
    assigned: set[str] = set()

    def note(targets: cst.BaseExpression) -> None:
        for target in target_leaves(targets):
            if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) \
                    and target.value.value == receiver:
                assigned.add(target.attr.value)

    class _Assigned(Walker):
        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            note(node.target)

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            note(node.target)

    _Assigned().walk(method.body)
    return assigned


def state_changed_after_construction(ctx: FileContext, cls: cst.ClassDef, method: cst.FunctionDef,
                                     builder: str = "__init__") -> list[tuple[cst.Attribute, str]]:
    """The ``self.P`` reads of ``method`` (first read of each ``P``) whose ``P`` is written after
    construction (outside ``__init__`` and the ``builder`` method that makes the jit), with
    where: what a jit of the bound method, made once, keeps from its first trace (JIT601), and
    what a per-call jit of it reads fresh each time (JIT104's advice)."""
    def compute(ctx: FileContext) -> list[tuple[cst.Attribute, str]]:
        methods = class_methods(cls)
        if method.decorators or not positional_params(method):
            return []
        receiver = positional_params(method)[0].name.value
        writes = _attribute_writes(ctx, cls, methods, builder)
        # what the method assigns itself before reading it, it reads back in the same trace
        assigned: dict[str, int] = {}
        for statement in own_nodes(method.body):
            if isinstance(statement, cst.Assign):
                for t in statement.targets:
                    if isinstance(t.target, cst.Attribute) and isinstance(t.target.value, cst.Name) \
                            and t.target.value.value == receiver:
                        order = ctx.model.order(statement)
                        assigned[t.target.attr.value] = min(order, assigned.get(t.target.attr.value, order))
        found, seen = [], set()
        for node in attribute_loads(method.body, receiver):
            attr = node.attr.value
            if attr in methods or attr in seen or attr not in writes \
                    or ctx.model.order(node) > assigned.get(attr, ctx.model.order(node)):
                continue
            seen.add(attr)
            found.append((node, writes[attr]))
        return found
    return ctx.shared(("state-changed-after-construction", id(method), builder), compute)


def attribute_loads(body: cst.CSTNode, receiver: str) -> list[cst.Attribute]:
    loads: list[cst.Attribute] = []

    class _Loads(Walker):
        def visit_Attribute(self, node: cst.Attribute) -> None:
            if isinstance(node.value, cst.Name) and node.value.value == receiver:
                loads.append(node)

        def visit_AssignTarget(self, node: cst.AssignTarget) -> bool:
            return False

    _Loads().walk(body)
    return loads


def _attribute_writes(ctx: FileContext, cls: cst.ClassDef, methods: dict, builder: str) -> dict[str, str]:
    """attribute name -> where it is written after construction: ``self.P = ...`` / ``self.P[k]
    = ...`` / ``self.P += ...`` in a method other than ``__init__`` and ``builder`` (and the
    helpers only they call), or ``obj.P = ...`` on a name bound to ``Cls(...)``."""
    writes: dict[str, str] = {}
    model = ctx.model

    def note(targets: cst.BaseExpression, receiver_ok, where: str) -> None:
        for target in target_leaves(targets):
            # ``self.P[k] = ...`` and ``self.ac.q_state = ...`` change what reads of ``self.P`` /
            # ``self.ac...`` see
            while isinstance(target, (cst.Subscript, cst.Attribute)) and not (
                    isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name)):
                target = target.value
            if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) \
                    and receiver_ok(target.value.value):
                writes.setdefault(target.attr.value, where)

    class _Writes(Walker):
        def __init__(self, receiver_ok, where: str) -> None:
            self.receiver_ok, self.where = receiver_ok, where

        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            note(node.target, self.receiver_ok, self.where)

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            note(node.target, self.receiver_ok, self.where)

    constructing = {methods[n] for n in ("__init__", builder) if n in methods}
    for name, method in methods.items():
        params = positional_params(method)
        if name in ("__init__", builder) or not params:
            continue
        sites = model.calls_named(name)
        if sites and all(site.frame.enclosing_function() in constructing for site in sites):
            continue  # a helper of the construction (``self.get_env_setup()`` in ``__init__``)
        receiver = params[0].name.value
        _Writes(lambda n, r=receiver: n == r, f"`{name}`").walk(method.body)

    def instance(name: str) -> bool:
        bindings = model.module_scope.bindings.get(name, [])
        return bool(bindings) and all(
            b.kind == "assign" and isinstance(b.value, cst.Call) and isinstance(b.value.func, cst.Name)
            and b.value.func.value == cls.name.value for b in bindings)

    for statement in model.module.body:
        if not isinstance(statement, cst.ClassDef):
            _Writes(instance, "an assignment to the instance").walk(statement)
    return writes


def _transformed_defs(ctx: FileContext) -> dict[cst.CSTNode, object]:
    """``jax.jit(jax.grad(loss))``: the def (or the lambda, written there or bound once to the
    name) a jit traces through jax transformations (grad, vmap, ...), with that jit application."""
    found = {}
    for app in live_applications(ctx):
        if app.jit.qualname in SKIPPED_JITS:
            continue
        scope = app.frame.scope
        target = _through_transforms(ctx.model, app.target, scope)
        if target is app.target:
            continue
        if isinstance(target, cst.Lambda):  # ``jax.jit(jax.vmap(lambda x: env.reset(x, step)))``
            found.setdefault(target, app)
            continue
        if not isinstance(target, cst.Name):
            continue
        binding = ctx.model.single_binding(target.value, scope)
        if binding is not None and binding.kind == "def" and isinstance(binding.node, cst.FunctionDef) \
                and not binding.node.decorators:
            found.setdefault(binding.node, app)
        elif binding is not None and binding.kind == "assign" and isinstance(binding.value, cst.Lambda):
            found.setdefault(binding.value, app)  # ``loss = lambda v: ...``; ``jax.jit(jax.grad(loss))``
    return found


def _through_transforms(model: SemanticModel, target: cst.BaseExpression, scope: Scope) -> cst.BaseExpression:
    """What ``jax.grad(jax.vmap(f))`` finally transforms (``f``); ``target`` itself when it is
    no transform's call."""
    while isinstance(target, cst.Call) and target.args and model.qualified_name(target.func, scope) in TRANSFORMS:
        target = target.args[0].value
    return target


def _written_attributes(node: Optional[cst.CSTNode], name: str) -> Optional[set[str]]:
    """The attributes a write stores on ``name`` (``name.a = ...``, ``name.a += ...``,
    ``name.a, name.b, x = ...``); None when it writes ``name`` another way (an item,
    ``name.a[k] = ...``) or not at all."""
    target = node.target if isinstance(node, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign)) else None
    parts = [e.value for e in target.elements] if isinstance(target, (cst.Tuple, cst.List)) else [target]
    found: set[str] = set()
    for part in parts:
        if isinstance(part, cst.Attribute) and isinstance(part.value, cst.Name) and part.value.value == name:
            found.add(part.attr.value)
        elif part is not None and any(isinstance(n, cst.Name) and n.value == name for n in iter_nodes(part)):
            return None
    return found or None


def _static_field_read(node: cst.BaseExpression, parents: dict[int, cst.CSTNode]) -> bool:
    """``state.actor.apply_fn``: the read ends in a static field of a library train state
    (jaxfacts.STATIC_STATE_FIELD_NAMES), which ``.replace(params=...)`` carries over unchanged."""
    current: cst.CSTNode = node
    while isinstance(parents.get(id(current)), cst.Attribute) and parents[id(current)].value is current:  # type: ignore[union-attr]
        current = parents[id(current)]
    return isinstance(current, cst.Attribute) and current.attr.value in STATIC_STATE_FIELD_NAMES


def _rebuilt_from_itself(bindings: list[Binding], name: str) -> bool:
    """Every binding after the first rebuilds the value from itself with ``replace`` /
    ``_replace`` (``state = state._replace(actor=state.actor.replace(params=...))``)."""
    def rebuilt(value: Optional[cst.BaseExpression]) -> bool:
        if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute)
                and value.func.attr.value in ("replace", "_replace")):
            return False
        root = value.func.value
        while isinstance(root, cst.Attribute):
            root = root.value
        return isinstance(root, cst.Name) and root.value == name
    return len(bindings) > 1 and all(b.kind == "assign" and rebuilt(b.value) for b in bindings[1:])


def _inside(frame: Frame, node: cst.CSTNode) -> bool:
    return frame.is_inside(node)


def _body(frame: Frame) -> cst.CSTNode:
    """The function (or module) whose body holds ``frame``'s point."""
    for f in frame:
        if isinstance(f.node, (cst.FunctionDef, cst.Lambda, cst.Module)):
            return f.node
    return frame.node


class StaleAnalysis:
    def __init__(self, model: SemanticModel, jitted: set[cst.FunctionDef],
                 calls_of: Optional[dict[cst.FunctionDef, list[Event]]] = None,
                 runs_traced: Optional[Callable[[Frame], bool]] = None) -> None:
        self.model = model
        self.jitted = jitted
        self.runs_traced = runs_traced  # CallingContext.runs_traced, where the caller has one
        self.calls_of = calls_of or {}  # the calls of each jitted function
        # ``jax.clear_caches()``: a call after one traces again, with the values of then
        self.cache_clears = [Event(site.frame, model.order(site.node)) for site in model.calls
                             if model.qualified_name(site.node.func, site.frame.scope) in CACHE_CLEARS]
        scopes = {id(s): s for s in model.scope_of.values()}.values()
        self.redirecting = [s for s in scopes if s.global_names or s.nonlocal_names]
        self.method_calls: dict[str, list] = {}  # name -> its mutating method call sites
        for site in model.calls:
            func = site.node.func
            if isinstance(func, cst.Attribute) and func.attr.value in MUTATING_METHODS \
                    and isinstance(func.value, cst.Name):
                self.method_calls.setdefault(func.value.value, []).append(site)
        self.item_writes: dict[str, list[tuple[Frame, cst.CSTNode]]] = {}
        for written, frame, node in model.item_writes:
            self.item_writes.setdefault(written, []).append((frame, node))

    def check(self, entry: JittedFunction, calls: list[Event]) -> Iterator[StaleRead]:
        seen: set[str] = set()
        for body in (entry.func, *self._helpers(entry.func)):
            yield from self._check_body(entry, body, calls, seen)

    def _helpers(self, func: cst.FunctionDef) -> list[cst.FunctionDef]:
        """The module's plain functions the jitted body calls by name: they run inside its
        trace, so what they read from outside is baked in as well."""
        found: list[cst.FunctionDef] = []
        module = self.model.module_scope
        for site in self.model.calls:
            callee = site.node.func
            if not isinstance(callee, cst.Name) or not site.frame.is_inside(func):
                continue
            bindings = self.model.lookup(callee.value, site.frame.scope)
            helper = bindings[0].node if len(bindings) == 1 and bindings[0].kind == "def" else None
            if isinstance(helper, cst.FunctionDef) and bindings[0].scope is module \
                    and not helper.decorators and helper not in self.jitted and helper not in found:
                found.append(helper)
        return found

    def _check_body(self, entry: JittedFunction, func: cst.FunctionDef, calls: list[Event],
                    seen: set[str]) -> Iterator[StaleRead]:
        own = scopes_within(self.model, func)
        func_scope = self.model.scope_of[func]
        for name, scope in _loads_with_scopes(self.model, func):
            redirected = name.value in func_scope.global_names or name.value in func_scope.nonlocal_names
            if name.value in seen or (redirected and name.value in func_scope.bindings):
                continue  # written through `global` / `nonlocal`: JIT602
            bindings = self.model.lookup(name.value, scope)
            if not bindings or any(id(b.scope) in own for b in bindings):
                continue
            # a class read as a namespace (``Hyper.lr``) goes stale only through writes of its
            # attributes (``Hyper.lr *= 0.5``); an imported module's are stale_imported_reads'
            namespace = all(b.kind == "class" for b in bindings)
            # a function defined again (a notebook's later cell: ``def u(c)`` with a new
            # utility) is a reassignment; a single def is a constant
            redefined = sum(b.kind == "def" for b in bindings) > 1 \
                and all(b.kind in ("def", "assign") for b in bindings) \
                and _every_def_fits(bindings, name, func)
            if (not namespace and not redefined and any(b.kind in ("import", "def", "class") for b in bindings)) \
                    or _same_recipe(bindings, self.model):
                continue
            owner = bindings[0].scope
            if owner.kind == "class":
                continue
            seen.add(name.value)
            how = self._stale(name.value, owner, bindings, entry, calls,
                              kinds=("mutated",) if namespace else ("reassigned", "mutated"))
            if how is not None:
                name = self._computational_read(func, name.value, bindings)
                if name is None:
                    continue  # only asserted, printed or logged: a trace-time check, not a result
                lambdas = all(b.kind == "def" or isinstance(b.value, cst.Lambda) for b in bindings)
                if all(b.kind == "assign" and b.value is not None and b.frame is not None
                       and creates_nnx_object(b.value, b.scope, b.frame, self.model) for b in bindings):
                    how = NNX_UPDATED
                shown = _attribute_read(func, name) if namespace else name.value
                fix, related = "", ()
                again = [b.node for b in bindings[1:] if b.kind == "def" and isinstance(b.node, cst.FunctionDef)]
                if redefined and how == "reassigned" and again:
                    # shown where it is defined again (a later notebook cell): the fix goes there
                    how = "defined again here, between its calls"
                    fix = (f"jit caches the trace per wrapped function, so re-wrapping it with jax.jit does "
                           f"not help; call jax.clear_caches() after defining `{shown}` again, or pass it "
                           f"as a static argument")
                    name, related = again[0].name, ((name, f"the jitted function reads `{shown}` here"),)
                yield StaleRead(name, entry.func, shown, how, lambdas, fix=fix, related=related,
                                label=_label(self.model, entry.func))

    def _computational_read(self, func: cst.FunctionDef, name: str,
                            bindings: list[Binding]) -> Optional[cst.Name]:
        """The first read of ``name`` (bound by ``bindings``) that can reach the traced result:
        not an ``assert``, an assertion call or a print/log argument.  JAX's own tests read a
        flag that way on purpose (``self.assertTrue(python_should_be_executing)``) to see
        whether Python re-runs."""
        parents = parent_map(func.body)
        for node, scope in _loads_with_scopes(self.model, func):
            if node.value != name:
                continue
            found = self.model.lookup(name, scope)
            if len(found) != len(bindings) or not all(a is b for a, b in zip(found, bindings)):
                continue
            if not _checked_at_trace_time(node, parents, scope, self.model) \
                    and not (_static_field_read(node, parents) and _rebuilt_from_itself(bindings, name)):
                return node
        return None

    # ------------------------------------------------------------------ writes
    def _writes(self, name: str, owner: Scope, bindings: list[Binding]) -> Iterator[tuple[str, Event]]:
        for binding in bindings:
            if binding.frame is not None:
                yield "reassigned", Event(binding.frame, self.model.order(binding.node))
        for scope in self.redirecting:
            redirected = (name in scope.global_names and owner is self.model.module_scope) or \
                (name in scope.nonlocal_names and self._resolves_to(name, scope, owner))
            if redirected:
                for binding in scope.bindings.get(name, ()):
                    if binding.frame is not None:
                        yield "reassigned", Event(binding.frame, self.model.order(binding.node))
        for frame, node in self.item_writes.get(name, ()):
            if self._same(name, frame.scope, bindings):
                yield "mutated", Event(frame, self.model.order(node), node)
        for site in self._passed_to_mutator(name):  # ``refresh(weights)`` writing ``buf[:] = ...``
            if self._same(name, site.frame.scope, bindings):
                yield "mutated", Event(site.frame, self.model.order(site.node), site.node)
        if all(b.kind == "assign" and b.value is not None and b.frame is not None
               and creates_nnx_object(b.value, b.scope, b.frame, self.model) for b in bindings):
            for site in self._nnx_updates(name):
                if self._same(name, site.frame.scope, bindings):
                    yield "mutated", Event(site.frame, self.model.order(site.node))
            return
        if not all(is_container(b) for b in bindings):
            return  # obj.update(...) may be pure (optax); only builtin containers are followed
        for site in self.method_calls.get(name, ()):
            if self._same(name, site.frame.scope, bindings):
                yield "mutated", Event(site.frame, self.model.order(site.node), site.node)

    def _passed_to_mutator(self, name: str) -> Iterator:
        """Calls that pass ``name`` to a def of this module (not jitted) that mutates that
        parameter in place: an item or attribute write (``buf[:] = ...``) or a mutating method
        (``buf.append(x)``) on it, in its own body."""
        for site in self.model.calls:
            func = site.node.func
            if not isinstance(func, cst.Name) or not any(
                    isinstance(a.value, cst.Name) and a.value.value == name for a in site.node.args):
                continue
            binding = self.model.single_binding(func.value, site.frame.scope)
            callee = binding.node if binding is not None and binding.kind == "def" else None
            if not isinstance(callee, cst.FunctionDef) or callee in self.jitted:
                continue
            positional = [p.name.value for p in positional_params(callee)]
            passed = (argument_value(site.node, positional.index(param) if param in positional else None, param)
                      for param in self._mutated_params(callee))
            if any(isinstance(value, cst.Name) and value.value == name for value in passed):
                yield site

    def _mutated_params(self, function: cst.FunctionDef) -> set[str]:
        scope = self.model.scope_of[function]
        params = {p.name.value for p in (*positional_params(function), *function.params.kwonly_params)
                  if all(b.kind == "param" for b in scope.bindings.get(p.name.value, ()))}  # not rebound
        found = {written for written in params for frame, _ in self.item_writes.get(written, ())
                 if frame.scope is scope}
        return found | {written for written in params for site in self.method_calls.get(written, ())
                        if site.frame.scope is scope}

    def _nnx_updates(self, name: str) -> Iterator:
        """Calls that update the NNX object ``name`` in place: ``name.update(...)``
        (an optimizer), ``optimizer.update(name, grads)``, ``nnx.update(name, ...)``, and
        passing it to a function that nnx.jit wraps or that updates that parameter itself."""
        for site in self.model.calls:
            func = site.node.func
            if isinstance(func, cst.Attribute) and func.attr.value == "update" \
                    and isinstance(func.value, cst.Name) and func.value.value == name:
                yield site
                continue
            passed = [i for i, a in enumerate(site.node.args)
                      if isinstance(a.value, cst.Name) and a.value.value == name]
            if not passed:
                continue
            if (isinstance(func, cst.Attribute) and func.attr.value == "update") \
                    or self.model.qualified_name(func, site.frame.scope) == NNX_UPDATE:
                yield site
            elif isinstance(func, cst.Name):
                targets = self.model.bindings_at(func, site.frame.scope)
                target = targets[0] if len(targets) == 1 else None
                if target is not None and target.kind == "def" \
                        and self._updates_parameter(target.node, site.node, passed):
                    yield site

    def _updates_parameter(self, func: cst.FunctionDef, call: cst.Call, passed: list[int]) -> bool:
        if any(self.model.qualified_name(d.decorator.func if isinstance(d.decorator, cst.Call)
                                         else d.decorator, self.model.functions[func].scope)
               == NNX_JIT for d in func.decorators):
            return True
        updated = in_place_updates(func, self.model)
        params = positional_params(func)
        for index in passed:
            arg = call.args[index]
            name = arg.keyword.value if arg.keyword is not None else \
                (params[index].name.value if index < len(params) else None)
            if name in updated:
                return True
        return False

    def _resolves_to(self, name: str, scope: Scope, owner: Scope) -> bool:
        current = scope.parent
        while current is not None:
            if name in current.bindings and name not in current.nonlocal_names:
                return current is owner
            current = current.parent
        return False

    def _same(self, name: str, scope: Scope, bindings: list[Binding]) -> bool:
        found = self.model.lookup(name, scope)
        return len(found) == len(bindings) and all(a is b for a, b in zip(found, bindings))

    # ------------------------------------------------------------------ ordering
    def _stale(self, name: str, owner: Scope, bindings: list[Binding], entry: JittedFunction,
               calls: list[Event], kinds: tuple[str, ...] = ("reassigned", "mutated")) -> Optional[str]:
        stops = tuple(f.node for app in entry.apps for f in app.frame
                      if isinstance(f.node, cst.FunctionDef))
        if owner.kind == "function":
            stops += (owner.node,)
        read = self._attributes_read(entry.func, name, bindings) if isinstance(entry.func, cst.FunctionDef) else None
        for how, write in self._writes(name, owner, bindings):
            if how not in kinds or self._traced_only(write.frame):
                continue  # runs at trace time only
            written = _written_attributes(write.node, name) if read is not None and how == "mutated" else None
            if written is not None and not written & read:  # type: ignore[operator]
                continue  # ``self.current_lr = lr`` while the trace reads only ``self.x_collocation``
            for w in self._lift(write, stops):
                fresh = self._recreated_with(w, entry, calls)
                if fresh and len(fresh) == len(entry.apps):
                    continue
                live = [c for c in calls if c.app is None or id(c.app) not in fresh]
                if self._between_calls(w, live, stops):
                    return how
        return None

    def _traced_only(self, frame: Frame) -> bool:
        """Code at ``frame`` runs only while a jitted function traces: inside one, or (with
        the calling context) in a def only traced code calls (``input_stack.pop()`` in the
        helper of a jitted function that appends to it)."""
        return any(_inside(frame, j) for j in self.jitted) or (self.runs_traced is not None and self.runs_traced(frame))

    def _attributes_read(self, func: cst.FunctionDef, name: str, bindings: list[Binding]) -> Optional[set[str]]:
        """The attributes of ``name`` (the ``self`` of the method that makes the jitted
        closure) that the trace reads: ``self.x`` in the jitted body and in the methods of the
        class it calls as ``self.m(...)``; None when it reads ``self`` some other way (passes
        it whole, ``getattr``) or ``name`` is no such parameter."""
        binding = bindings[0] if len(bindings) == 1 and bindings[0].kind == "param" else None
        method = binding.scope.node if binding is not None else None
        owner = self.model.functions[method].scope if isinstance(method, cst.FunctionDef) \
            and method in self.model.functions else None
        if owner is None or owner.kind != "class" or not isinstance(owner.node, cst.ClassDef):
            return None
        methods = {m.name.value: m for m in owner.node.body.body if isinstance(m, cst.FunctionDef)}  # type: ignore[union-attr]
        read: set[str] = set()
        pending, done = [func], set()
        while pending:
            body = pending.pop()
            if id(body) in done or len(done) > 12:
                continue
            done.add(id(body))
            attributes = {id(n.value) for n in iter_nodes(body.body) if isinstance(n, cst.Attribute)
                          and isinstance(n.value, cst.Name) and n.value.value == name}
            if any(isinstance(n, cst.Name) and n.value == name and id(n) not in attributes
                   for n in iter_nodes(body.body)):
                return None  # ``helper(self)``, ``getattr(self, k)``: read whole
            for node in iter_nodes(body.body):
                if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == name:
                    read.add(node.attr.value)
                    if node.attr.value in methods:
                        pending.append(methods[node.attr.value])
        return read

    def _recreated_with(self, write: Event, entry: JittedFunction, calls: list[Event]) -> set[int]:
        """The jit applications whose callable is (re)created in the loop that writes: traced
        anew each time (a new ``jax.jit(f)`` of the same ``f`` shares its cache and stays
        stale; ``jax.jit(jax.grad(f))`` wraps a new function each time).  Not one made before
        the write and called after it in the same pass (``opt = optax.lbfgs()`` between two
        training phases of the step a time-grid loop defines: the second phase runs Adam)."""
        fresh: set[int] = set()
        for loop in write.frame.loops_in_scope():
            start, end = self.model.span(loop)  # type: ignore[misc]
            for app in entry.apps:
                made = self.model.order(_made_at(app, entry.func))
                if not start < made < end:
                    continue
                if made < write.order and any(write.order < c.order < end and (c.app is None or c.app is app) for c in calls):
                    continue
                fresh.add(id(app))
        return fresh

    def _between_calls(self, write: Event, calls: list[Event], stops: tuple[cst.CSTNode, ...]) -> bool:
        body = _body(write.frame)
        before = after = False
        for call in calls:
            for c in self._lift(call, stops):
                if _body(c.frame) is not body:
                    continue
                shared = {id(loop) for loop in write.frame.loops_in_scope()} & \
                    {id(loop) for loop in c.frame.loops_in_scope()}
                if shared:
                    return True
                before = before or c.order < write.order
                after = after or c.order > write.order and not any(
                    _body(clear.frame) is body and write.order < clear.order < c.order for clear in self.cache_clears)
        return before and after

    def _lift(self, event: Event, stops: tuple[cst.CSTNode, ...], depth: int = 0) -> list[Event]:
        """The event itself, and the call sites of the function holding it (recursively), up
        to a function in ``stops``: the owner of a closure variable (each of its runs has its
        own variable) or a function that defines the jitted function (each run makes a new
        one, traced anew)."""
        events = [event]
        if depth >= MAX_LIFT:
            return events
        func = event.frame.enclosing_function()
        if func is None or _body(event.frame) is not func or func in stops:
            return events
        if func in self.jitted:
            # a call traced inside another jitted function runs when that one is traced; its
            # calls hit the outer cache or, traced again, the inner one: both hold the old trace
            for call in self.calls_of.get(func, ()):
                if not _inside(call.frame, func):
                    events.extend(self._lift(Event(call.frame, call.order, app=event.app), stops, depth + 1))
            return events
        outer = self.model.functions.get(func)
        if outer is None or outer.scope.kind == "class":
            return events
        binding = next((b for b in outer.scope.bindings.get(func.name.value, ()) if b.node is func), None)
        if binding is None:
            return events
        for site in self.model.calls_to(binding):
            events.extend(self._lift(Event(site.frame, self.model.order(site.node), app=event.app), stops, depth + 1))
        return events


def _every_def_fits(bindings: list[Binding], name: cst.Name, func: cst.FunctionDef) -> bool:
    """Every def of the name takes the positional arguments the jitted body calls it with: a
    def of another arity is another function that reuses the name (a notebook's vmap variant
    ``B(v, c, s, a, i, j, ip)`` after ``B(v, c, s, a)``), not a new version of this one."""
    calls = [node for node in iter_nodes(func) if isinstance(node, cst.Call)
             and isinstance(node.func, cst.Name) and node.func.value == name.value]
    for call in calls:
        if any(arg.star for arg in call.args):
            continue
        given = sum(arg.keyword is None for arg in call.args)
        for binding in bindings:
            if binding.kind != "def" or not isinstance(binding.node, cst.FunctionDef):
                continue
            params = binding.node.params
            positional = [*params.posonly_params, *params.params]
            required = sum(p.default is None for p in positional)
            if given < required or (given > len(positional) and not isinstance(params.star_arg, cst.Param)):
                return False
    return True


def _attribute_read(func: cst.CSTNode, name: cst.Name) -> str:
    """``Hyper.lr`` for the read ``name`` of a namespace in ``func`` (the name alone when it is
    not read through an attribute)."""
    attribute = next((node for node in iter_nodes(func) if isinstance(node, cst.Attribute) and node.value is name), None)
    return f"{name.value}.{attribute.attr.value}" if attribute is not None else name.value


def _made_at(app, func) -> cst.CSTNode:
    """Where the object jit caches on is made: the def or lambda itself when the jit wraps it
    by name (``jax.jit(likelihood)`` in a loop wraps the same function each time: measured,
    one trace for all, with the globals of the first), else the application (a decorator, a
    lambda written in the call, a transform's fresh result)."""
    return func if isinstance(app.target, cst.Name) and func is not None else app.anchor


def _label(model: SemanticModel, func: cst.CSTNode) -> str:
    """The name a jitted lambda is bound to (``loss = lambda v: ...``); "" for a def."""
    if not isinstance(func, cst.Lambda):
        return ""
    statement = model.parent_statement.get(func)
    if isinstance(statement, cst.Assign) and statement.value is func and len(statement.targets) == 1 \
            and isinstance(statement.targets[0].target, cst.Name):
        return statement.targets[0].target.value
    return "<lambda>"


def _same_recipe(bindings: list[Binding], model: SemanticModel) -> bool:
    """Every binding runs the very same call with no arguments but literals
    (``num_train, idx = train_init()`` before the loop and again in each epoch): the value is
    recomputed, not changed, as far as the code shows; a write that differs
    (``scale = scale * 0.5``, ``lr = schedule(step)``) is what goes stale.
    One binding that runs once is no recipe: what changes it is a write through it
    (``config.scale = 3.0``), checked as such."""
    if len(bindings) < 2 and not any(b.frame is not None and b.frame.loops_in_scope() for b in bindings):
        return False
    texts = set()
    for binding in bindings:
        value = binding.node.value if isinstance(binding.node, cst.Assign) else None
        if binding.kind != "assign" or not isinstance(value, cst.Call):
            return False
        arguments = [constant_code(arg.value, binding.scope, model) for arg in value.args]
        if any(code is None for code in arguments):
            return False
        if _host_state_read(value, binding.scope, model) is not None:
            return False  # ``x = np.random.normal(size=3)`` in each epoch: a new draw every time
        loops = binding.frame.loops_in_scope() if binding.frame is not None else []
        if loops and _reads_loop_bound_name(value.func, loops[0]):
            return False  # ``len_batching_funcs[l]()`` with ``l`` drawn in the loop: another recipe
        keywords = [arg.keyword.value if arg.keyword is not None else "" for arg in value.args]
        texts.add((code_text(value.func), tuple(zip(keywords, arguments))))
    return len(texts) == 1


def _reads_loop_bound_name(expr: cst.BaseExpression, loop: cst.CSTNode) -> bool:
    """``expr`` reads a name that ``loop`` binds (its target, or an assignment in its body)."""
    bound = loop_targets(loop) | names_assigned_in(loop)
    return any(name.value in bound for name in name_loads(expr))


def is_container(binding: Binding) -> bool:
    """Bound to a list/dict/set display, comprehension or ``list()``/``dict()``/``set()``."""
    value = binding.value
    if binding.kind != "assign" or value is None:
        return False
    if isinstance(value, (cst.List, cst.Dict, cst.Set, cst.ListComp, cst.DictComp, cst.SetComp)):
        return True
    return isinstance(value, cst.Call) and isinstance(value.func, cst.Name) \
        and value.func.value in ("list", "dict", "set")


def _loads_with_scopes(model: SemanticModel, func: cst.FunctionDef) -> list[tuple[cst.Name, Scope]]:
    loads = {id(n) for n in name_loads(func.body)}
    found: list[tuple[cst.Name, Scope]] = []

    class _Walk(Walker):
        def __init__(self) -> None:
            self.scopes = [model.scope_of[func]]

        def on_visit(self, node: cst.CSTNode) -> bool:
            scope = model.scope_of.get(node)
            if scope is not None:
                self.scopes.append(scope)
            if isinstance(node, cst.Name) and id(node) in loads:
                found.append((node, self.scopes[-1]))
            return True

        def on_leave(self, node: cst.CSTNode) -> None:
            if node in model.scope_of and len(self.scopes) > 1:
                self.scopes.pop()

    _Walk().walk(func.body)
    return found


# ---------------------------------------------------------------------------------- JIT602
# Outer state a jitted body writes.  The body runs once per trace, so a write happens once per
# compile.  That is the point of a trace counter (``global n_traces; n_traces += 1``, the idiom
# JAX users and maintainers use to see when tracing happens) and harmless; it is a bug only
# when the state flows into or out of the traced computation:
#   leak  a traced value is stored in outer state (it outlives the trace: UnexpectedTracerError),
#   prng  a PRNG key held in outer state is split or replaced at trace time (every call reuses
#         the random numbers of the first trace),
#   read  the state the body updates is also read into the computation (the result is the
#         value frozen at the first trace).
# Reads in the state's own update, in a `print` / logging call or in an `if` / `while` test
# (trace-time bookkeeping) do not count.

LOGGING_CALLS = ("logging.", "warnings.warn", "absl.logging.")


def is_log_call(call: cst.Call, scope: Scope, model: SemanticModel) -> bool:
    func = call.func
    if isinstance(func, cst.Name) and func.value == "print" and not model.lookup("print", scope):
        return True
    qualname = model.qualified_name(func, scope)
    return qualname is not None and qualname.startswith(LOGGING_CALLS)


def _is_assertion_call(call: cst.Call) -> bool:
    """``self.assertTrue(...)``, ``np.testing.assert_allclose(...)``, ``assert_equal(...)``."""
    func = call.func
    name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
    return name.startswith("assert")


def _checked_at_trace_time(node: cst.CSTNode, parents: dict[int, cst.CSTNode], scope: Scope,
                           model: SemanticModel) -> bool:
    """Is this read inside an ``assert`` statement, an assertion call or a print/log call?"""
    parent = parents.get(id(node))
    while parent is not None:
        if isinstance(parent, cst.Assert):
            return True
        if isinstance(parent, cst.Call) and (_is_assertion_call(parent) or is_log_call(parent, scope, model)):
            return True
        if isinstance(parent, (cst.BaseCompoundStatement, cst.SimpleStatementLine)):
            return False
        parent = parents.get(id(parent))
    return False


@dataclass(eq=False)
class StateFlow:
    node: cst.CSTNode  # the writing statement (leak, prng) or the read (read)
    function: cst.FunctionDef
    name: str
    kind: str  # leak | prng | read
    keyword: str  # global | nonlocal | "" (a container mutated without a statement)
    where: str = ""  # how messages name the function, when not ``jitted `f` ``
    # A helper written to run eagerly (it calls a jitted function itself) that the jitted body
    # calls: the call in the jitted body, where the mistake is, and the two functions' names
    eager_call: Optional[cst.Call] = None
    jitted_name: str = ""

    @property
    def named(self) -> str:
        return self.where or f"jitted `{self.function.name.value}`"


def state_flows(ctx: FileContext) -> list[StateFlow]:
    return ctx.shared("state-flows", _find_state_flows)


def _find_state_flows(ctx: FileContext) -> list[StateFlow]:
    from jitlint.rules._traced import calls_jitted, traced_values  # _traced imports nothing of this module

    found: list[StateFlow] = []
    jitted = jitted_functions(ctx)
    inner_of_jitted = set()
    for func in jitted:
        inner_of_jitted |= scopes_within(ctx.model, func)
    for func, entry in jitted.items():
        if any(app.jit.qualname in SKIPPED_JITS for app in entry.apps):
            continue
        static: set[str] = set()
        for app in entry.apps:
            static |= static_names(spec_of(app, ctx.model)) or frozenset()
        analysis = traced_values(ctx, entry)
        flow = _StateFlowOfFunction(ctx, func, analysis, inner_of_jitted, frozenset(static))
        found.extend(flow.run())
        for helper in _followed_helpers(ctx, analysis, jitted, inner_of_jitted):
            where = f"`{helper.func.name.value}` (called from jitted `{func.name.value}`)"
            top = helper
            while top.caller is not None and top.caller.caller is not None:
                top = top.caller
            eager = top.entry_call if calls_jitted(ctx, helper.func) else None
            found.extend(dataclasses.replace(f, where=where, eager_call=eager, jitted_name=func.name.value)
                         for f in _StateFlowOfFunction(ctx, helper.func, helper, inner_of_jitted,
                                                       _module_object_self(ctx, helper.func)).run())
    found.extend(_bound_method_updates(ctx))
    return found


MEMOISING_PROPERTIES = frozenset({"functools.cached_property"})
COMPILE_TIME_EVAL = "jax.ensure_compile_time_eval"  # jax operations in its block run eagerly


@dataclass(frozen=True)
class MemoisedArray:
    """A memoised function whose own body makes a jax array, reached from traced code."""

    decorator: cst.Decorator  # the memoising decorator (lru_cache, cache, cached_property)
    function: cst.FunctionDef
    made: cst.Call  # the first jax array its body makes


def memoised_jax_arrays(ctx: FileContext) -> list[MemoisedArray]:
    """A memoised function (``functools.lru_cache`` / ``cache``, or a ``cached_property``)
    whose own body makes a jax array, called (or read) in code a jit traces: under the trace
    that array is a tracer and the cache outlives the trace (GKX e253a6bc's projector, jax-frc
    3857956's coil parameters).  Silent when the body uses ``jax.ensure_compile_time_eval``, and
    for calls that pass a tracer (hashing it raises first: JIT809)."""
    from jitlint.rules._traced import makes_jax_array, tracer_uses  # _traced imports nothing of this module

    model = ctx.model
    context = calling_context(ctx)
    found = []
    for func, frame in model.functions.items():
        memo = next((d for d in func.decorators if _memoiser(model, d, frame.scope) is not None), None)
        scope = model.scope_of.get(func)
        if memo is None or scope is None:
            continue
        calls = [node for node in own_nodes(func.body) if isinstance(node, cst.Call)]
        made = next((call for call in calls if makes_jax_array(model.qualified_name(call.func, scope))), None)
        if made is None or any(model.qualified_name(call.func, scope) == COMPILE_TIME_EVAL for call in calls):
            continue
        if _memoiser(model, memo, frame.scope) in MEMOISING_PROPERTIES:
            # the value is cached on the instance: one the trace rebuilds from its leaves (a
            # pytree passed traced) drops it with the trace, a plain object keeps it
            owner = frame.scope.node
            reached = context.is_plain_class(owner) and not any(
                model.qualified_name(d.decorator, frame.scope) in PYTREE_CLASS_DECORATORS for d in owner.decorators) \
                and _property_read_traced(ctx, func.name.value)
        else:
            binding = model.single_binding(func.name.value, frame.scope)
            # a call that hands the cache a tracer raises while hashing it (JIT809): nothing is cached
            hashing = {id(use.node) for use in tracer_uses(ctx) if use.kind == "hash"}
            reached = binding is not None and any(context.runs_traced(site.frame) and id(site.node) not in hashing
                                                  for site in model.calls_to(binding))
        if reached:
            found.append(MemoisedArray(memo, func, made))
    return found


def _memoiser(model: SemanticModel, decorator: cst.Decorator, scope: Scope) -> Optional[str]:
    """The memoising decorator's qualified name (``functools.lru_cache(maxsize=32)`` too)."""
    expr = decorator.decorator.func if isinstance(decorator.decorator, cst.Call) else decorator.decorator
    qualname = model.qualified_name(expr, scope)
    return qualname if qualname in MEMOISERS | MEMOISING_PROPERTIES else None


def _property_read_traced(ctx: FileContext, name: str) -> bool:
    """``external._coil_params`` read in a function that runs only under a trace."""
    context = calling_context(ctx)
    for function in ctx.model.functions:
        if context.traced(function) and any(isinstance(node, cst.Attribute) and node.attr.value == name
                                            for node in own_nodes(function.body)):
            return True
    return False


def _followed_helpers(ctx: FileContext, analysis, jitted, inner_of_jitted: set[int]) -> list:
    """The analyses of the module functions the jitted body calls (with traced arguments, or
    because they reach a jit), each helper once, outside any jitted body: their trace-time
    writes of outer state run once per trace too (``record(loss)`` doing ``global losses;
    losses += [value]``)."""
    found, seen, stack = [], set(), list(analysis.followed.values())
    while stack:
        helper = stack.pop()
        func = helper.func
        if not isinstance(func, cst.FunctionDef) or func in jitted or id(func) in seen:
            continue
        seen.add(id(func))
        scope = ctx.model.scope_of.get(func)
        if scope is not None and id(scope) not in inner_of_jitted:
            found.append(helper)
        stack.extend(helper.followed.values())
    return found


def _module_object_self(ctx: FileContext, method: cst.FunctionDef) -> frozenset[str]:
    """``self`` of a method of a plain class whose every instance the module makes at its top
    level (``tracker = Tracker()``): the object outlives any trace, so what the method stores
    on it from traced code leaks (``tracker.log(loss)`` appending to ``self.history``)."""
    frame = ctx.model.functions.get(method)
    params = positional_params(method)
    cls = frame.scope.node if frame is not None and frame.scope.kind == "class" else None
    context = calling_context(ctx)
    if not isinstance(cls, cst.ClassDef) or not params or method.decorators or not context.is_plain_class(cls):
        return frozenset()
    binding = ctx.model.single_binding(cls.name.value, ctx.model.classes[cls].scope)
    made = [site for site in ctx.model.calls_to(binding)] if binding is not None else []
    at_top = [site for site in made if site.frame.scope is ctx.model.module_scope
              and isinstance(ctx.model.parent_statement.get(site.node), cst.Assign)]
    return frozenset({params[0].name.value}) if made and len(at_top) == len(made) else frozenset()


def _bound_method_updates(ctx: FileContext) -> Iterator[StateFlow]:
    """``jax.jit(counter.count)`` (also through transforms: ``jax.jit(jax.vmap(env.reset))``)
    where ``count`` updates ``self.n`` from its old value and its result depends on ``self.n``
    (returned, or through local names: ``difficulty = self.n / 100``): the object is a constant
    of the trace, so the update runs once and every call computes with the value of that trace
    (the JAX docs' stateful counter, jax PR #20732; a curriculum counter in brax#537)."""
    seen: set[int] = set()
    for app in live_applications(ctx):
        target = _through_transforms(ctx.model, app.target, app.frame.scope)
        method = bound_method_target(ctx, target, app.frame.scope) if app.jit.qualname in ARGNUM_JITS else None
        if method is None or id(method) in seen:
            continue
        seen.add(id(method))
        self_name = positional_params(method)[0].name.value

        def self_reads(node: cst.CSTNode, attrs) -> list[cst.Attribute]:
            return [n for n in iter_nodes(node) if isinstance(n, cst.Attribute) and isinstance(n.value, cst.Name)
                    and n.value.value == self_name and n.attr.value in attrs]

        # updates from the old value (``self.n += 1``, ``self.n = self.n + 1``): a value assigned
        # from the arguments alone is recomputed by every call of the compiled code
        updated = {target.attr.value: node for node in own_nodes(method.body)
                   if isinstance(node, (cst.Assign, cst.AugAssign))
                   for target in ([t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target])
                   if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name)
                   and target.value.value == self_name
                   and (isinstance(node, cst.AugAssign) or self_reads(node.value, {target.attr.value}))}
        if not updated:
            continue
        derived = _names_derived_from(method, lambda value: bool(self_reads(value, updated)))
        for node in own_nodes(method.body):
            if not isinstance(node, cst.Return) or node.value is None:
                continue
            read = self_reads(node.value, updated)
            if read or any(isinstance(n, cst.Name) and n.value in derived for n in iter_nodes(node.value)):
                attr = read[0].attr.value if read else next(iter(updated))
                yield StateFlow(updated[attr], method, f"{self_name}.{attr}", "read", "")  # where it runs once
                break


def _names_derived_from(function: cst.FunctionDef, reads) -> set[str]:
    """The local names of ``function`` assigned (directly or through other such names) from a
    value ``reads`` picks."""
    assignments = [n for n in own_nodes(function.body) if isinstance(n, cst.Assign)]
    derived: set[str] = set()
    changed = True
    while changed:
        changed = False
        for node in assignments:
            if reads(node.value) or any(isinstance(n, cst.Name) and n.value in derived for n in iter_nodes(node.value)):
                for target in node.targets:
                    for name in iter_nodes(target.target):
                        if isinstance(name, cst.Name) and name.value not in derived:
                            derived.add(name.value)
                            changed = True
    return derived


class _StateFlowOfFunction:
    def __init__(self, ctx: FileContext, func: cst.FunctionDef, traced, inner_of_jitted: set[int],
                 static_params: frozenset[str] = frozenset()) -> None:
        self.model = ctx.model
        self.func = func
        self.static_params = static_params  # the jitted def's static parameters (``self``)
        self.traced = traced  # _traced._FunctionAnalysis, solved
        self.own = scopes_within(ctx.model, func)
        self.inner_of_jitted = inner_of_jitted
        self.parents: dict[int, cst.CSTNode] = {}
        self.statements: list[tuple[cst.CSTNode, Scope]] = []  # global / nonlocal, with their scope
        self._index()

    def _index(self) -> None:
        parents, statements, model = self.parents, self.statements, self.model
        scopes = [model.scope_of[self.func]]

        class _Index(Walker):
            def on_visit(self, node: cst.CSTNode) -> bool:
                for child in children(node):
                    parents[id(child)] = node
                scope = model.scope_of.get(node)
                if scope is not None:
                    scopes.append(scope)
                if isinstance(node, (cst.Global, cst.Nonlocal)):
                    statements.append((node, scopes[-1]))
                return True

            def on_leave(self, node: cst.CSTNode) -> None:
                if node in model.scope_of and len(scopes) > 1:
                    scopes.pop()

        _Index().walk(self.func.body)

    def run(self) -> Iterator[StateFlow]:
        reported: set[str] = set()
        for statement, scope in self.statements:
            keyword = "global" if isinstance(statement, cst.Global) else "nonlocal"
            for item in statement.names:
                name = item.name.value
                target = self.model.lookup(name, scope) if keyword == "global" else self._nonlocal_target(name, scope)
                if target is None or name in reported:
                    continue
                writes = scope.bindings.get(name, [])
                found = self._write_kind(writes) or self._read_kind(name, target, writes)
                if found is not None:
                    kind, node = found
                    reported.add(name)
                    yield StateFlow(node, self.func, name, kind, keyword)
        yield from self._mutations(reported)
        yield from self._static_attribute_writes()

    def _nonlocal_target(self, name: str, scope: Scope) -> Optional[list[Binding]]:
        current = scope.parent
        while current is not None:
            if name in current.bindings and name not in current.nonlocal_names:
                return None if id(current) in self.own else current.bindings[name]
            current = current.parent
        return None

    # ------------------------------------------------------------------ writes
    def _write_kind(self, writes: list[Binding]) -> Optional[tuple[str, cst.CSTNode]]:
        """("prng" | "leak", the writing statement), or None."""
        found = None
        for binding in writes:
            value = _written_value(binding)
            if value is None:
                continue
            if self._is_random(value, binding.scope):
                return "prng", binding.node
            if found is None and self._value_traced(binding, value):
                found = "leak", binding.node
        return found

    def _value_traced(self, binding: Binding, value: cst.BaseExpression) -> bool:
        if isinstance(binding.node, cst.AugAssign):  # ``losses += [loss]`` too
            return self.traced.traced(value, binding.scope) or self.traced.elements_traced(value, binding.scope)
        return self.traced.binding_traced(binding)

    def _is_random(self, value: cst.BaseExpression, scope: Scope) -> bool:
        if not isinstance(value, cst.Call):
            return False
        qualname = self.model.qualified_name(value.func, scope)
        return qualname is not None and qualname.startswith("jax.random.")

    # ------------------------------------------------------------------ reads
    def _read_kind(self, name: str, target: list[Binding],
                   writes: list[Binding]) -> Optional[tuple[str, cst.CSTNode]]:
        """("read", the first read that flows into the computation), or None."""
        if not writes:
            return None  # read-only: the value may change elsewhere (JIT601)
        if all(self._lazy_initialisation(binding, name) for binding in writes):
            return None  # ``if TABLE is None: TABLE = make()``: written once, the same for every call
        for node, scope in _loads_with_scopes(self.model, self.func):
            if node.value != name:
                continue
            found = self.model.lookup(name, scope)
            if len(found) != len(target) or not all(a is b for a, b in zip(found, target)):
                continue
            if not self._bookkeeping(node, name, scope):
                return "read", node
        return None

    def _lazy_initialisation(self, binding: Binding, name: str) -> bool:
        """The write sits in ``if name is None:`` (or ``if not name:``): a value made on first
        use and kept, the memoisation idiom, not state that changes from call to call."""
        parent = self.parents.get(id(binding.node))
        while parent is not None and not isinstance(parent, cst.FunctionDef):
            if isinstance(parent, cst.If):
                test = parent.test
                if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
                    return isinstance(test.expression, cst.Name) and test.expression.value == name
                return isinstance(test, cst.Comparison) and len(test.comparisons) == 1 \
                    and isinstance(test.comparisons[0].operator, cst.Is) and is_none(test.comparisons[0].comparator) \
                    and isinstance(test.left, cst.Name) and test.left.value == name
            parent = self.parents.get(id(parent))
        return False

    def _bookkeeping(self, name_node: cst.Name, name: str, scope: Scope) -> bool:
        """Is this read part of trace-time bookkeeping: the name's own update, a print or log
        call, or an ``if`` / ``while`` / ``assert`` test?"""
        child: cst.CSTNode = name_node
        parent = self.parents.get(id(child))
        while parent is not None:
            if isinstance(parent, cst.AugAssign):
                return binds_name(parent.target, name)
            if isinstance(parent, (cst.Assign, cst.AnnAssign)):
                targets = [t.target for t in parent.targets] if isinstance(parent, cst.Assign) \
                    else [parent.target]
                return any(binds_name(t, name) for t in targets)
            if isinstance(parent, (cst.If, cst.While)) and child is parent.test:
                return True
            if isinstance(parent, cst.Assert):
                return True
            if isinstance(parent, cst.Call) and self._is_log_call(parent, scope):
                return True
            if isinstance(parent, (cst.BaseSmallStatement, cst.BaseCompoundStatement)):
                return False
            child, parent = parent, self.parents.get(id(parent))
        return False

    def _is_log_call(self, call: cst.Call, scope: Scope) -> bool:
        return is_log_call(call, scope, self.model)

    # ------------------------------------------------------------------ containers
    def _mutations(self, reported: set[str]) -> Iterator[StateFlow]:
        """``outer.append(x)`` / ``outer[k] = x`` of a traced value into a list, dict or set
        bound outside the jitted function (and outside any other jitted body)."""
        for node, scope in _loads_with_scopes(self.model, self.func):
            if node.value in reported:
                continue
            parent = self.parents.get(id(node))
            stored = None
            if isinstance(parent, cst.Attribute) and parent.value is node \
                    and parent.attr.value in MUTATING_METHODS:
                call = self.parents.get(id(parent))
                if isinstance(call, cst.Call) and call.func is parent:
                    stored = [arg.value for arg in call.args]
            elif isinstance(parent, cst.Subscript) and parent.value is node:
                target = self.parents.get(id(parent))
                statement = self.parents.get(id(target)) if isinstance(target, cst.AssignTarget) else target
                # (``t = outer[k]`` reads it: the subscript is the value, not a target)
                if (isinstance(statement, cst.Assign) and isinstance(target, cst.AssignTarget)) or (
                        isinstance(statement, cst.AugAssign) and statement.target is parent):
                    stored = [statement.value]  # ``outer[k] = x`` / ``outer[k] += x``
            if not stored or not any(self.traced.traced(v, scope) for v in stored):
                continue
            bindings = self.model.lookup(node.value, scope)
            if not bindings or any(id(b.scope) in self.own or id(b.scope) in self.inner_of_jitted
                                   for b in bindings):
                continue
            # a parameter of an enclosing def: a container only by how it is used here (``tot[0] +=
            # x``, ``out.append(x)``), not by a method that optimizers have too (``opt.update``)
            by_use = not isinstance(parent, cst.Attribute) or parent.attr.value in GROW_METHODS
            if not all(is_container(b) or (by_use and self._closed_over_param(b)) for b in bindings):
                continue
            reported.add(node.value)
            yield StateFlow(_statement_of(node, self.parents), self.func, node.value, "leak", "")

    def _given_traced(self, value: cst.BaseExpression, scope: Scope) -> bool:
        """``self.model.step_fn(rng, state, x)``: a call handed a traced value, whose results
        (a new train state and a loss) are computed from it."""
        return isinstance(value, cst.Call) and any(self.traced.traced(a.value, scope) for a in value.args)

    def _closed_over_object(self, name: str, scope: Scope) -> bool:
        """``self`` of the method whose body defines the jitted closure (``def __init__(self,
        model): @jax.jit def step(...): self.model.vf_state = ...``): an object made outside
        the trace, a constant of it."""
        bindings = self.model.lookup(name, scope)
        return len(bindings) == 1 and self._closed_over_param(bindings[0])

    def _closed_over_param(self, binding: Binding) -> bool:
        """A parameter of a function enclosing the jitted def: ``def make(tot): @jax.jit def
        inc(x): tot[0] += x``; what it is bound to is mutated only while tracing."""
        if binding.kind != "param":
            return False
        scope = self.model.scope_of[self.func].parent
        while scope is not None:
            if scope is binding.scope:
                return scope.kind == "function"
            scope = scope.parent
        return False

    def _static_attribute_writes(self) -> Iterator[StateFlow]:
        """``self.param = new`` with a traced ``new`` in a jitted method whose ``self`` is
        static, or ``RNG.key = new`` on a class or object of the module: the object outlives
        the trace, the write runs only while tracing."""
        own_scope = self.model.scope_of[self.func]
        for node in own_nodes(self.func.body):
            if not isinstance(node, (cst.Assign, cst.AugAssign)):
                continue
            targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
            targets = [e.value for t in targets for e in (t.elements if isinstance(t, (cst.Tuple, cst.List)) else ())] \
                + targets  # ``RNG.key, sub = jr.split(RNG.key)``
            for target in targets:
                root = target.value if isinstance(target, cst.Attribute) else None
                while isinstance(root, cst.Attribute):  # ``self.model.vf_state``: the object ``self`` holds
                    root = root.value
                if not (isinstance(root, cst.Name) and (
                        self._outlives_trace(root.value, own_scope) or self._closed_over_object(root.value, own_scope))):
                    continue
                if self.traced.traced(node.value, own_scope) or self.traced.elements_traced(node.value, own_scope) or (
                        self._given_traced(node.value, own_scope)):
                    name = cst.Module([]).code_for_node(target)
                    yield StateFlow(node, self.func, name, "leak", "")
                    break
                if not isinstance(target.value, cst.Name) or not self._outlives_trace(root.value, own_scope):
                    continue
                if self._updates_itself(node, target) and target.attr.value in self._self_reads(target.value.value):
                    # ``self.iteration = self.iteration + 1`` and ``self.lr`` reads it: the
                    # update runs once per trace, every call computes with the first value
                    yield StateFlow(node, self.func, f"{target.value.value}.{target.attr.value}", "read", "")
                    break
        for node in own_nodes(self.func.body):  # ``self.history.append(value)`` of a tracer
            func = node.func if isinstance(node, cst.Call) else None
            if isinstance(func, cst.Attribute) and func.attr.value in MUTATING_METHODS \
                    and isinstance(func.value, cst.Attribute) and isinstance(func.value.value, cst.Name) \
                    and func.value.value.value in self.static_params \
                    and self._container_field(func.value, own_scope) \
                    and any(self.traced.traced(a.value, own_scope) or self.traced.elements_traced(a.value, own_scope)
                            for a in node.args):
                yield StateFlow(node, self.func, cst.Module([]).code_for_node(func.value), "leak", "")

    def _outlives_trace(self, name: str, scope: Scope) -> bool:
        """``name`` is the jitted def's static ``self`` (a parameter of its own), or a class or
        object the module binds once at its top level."""
        bindings = self.model.lookup(name, scope)
        if len(bindings) != 1:
            return False
        binding = bindings[0]
        if binding.kind == "param":
            return name in self.static_params and binding.scope is scope
        return binding.scope is self.model.module_scope and (
            binding.kind == "class" or (binding.kind == "assign" and isinstance(binding.value, cst.Call)))

    def _container_field(self, attr: cst.Attribute, scope: Scope) -> bool:
        """``self.history`` that ``__init__`` sets to a list, dict or set (not an optimizer,
        whose ``update`` is no mutation)."""
        made = self_attribute_value(self.model, attr, scope)
        value = made[0] if made is not None else None
        return isinstance(value, (cst.List, cst.Dict, cst.Set, cst.ListComp, cst.DictComp, cst.SetComp)) or (
            isinstance(value, cst.Call) and isinstance(value.func, cst.Name)
            and value.func.value in ("list", "dict", "set") and not self.model.lookup(value.func.value, scope))

    @staticmethod
    def _updates_itself(node, target: cst.Attribute) -> bool:
        """``self.n += 1`` / ``self.n = self.n + 1``."""
        if isinstance(node, cst.AugAssign):
            return True
        return any(isinstance(n, cst.Attribute) and n.attr.value == target.attr.value
                   and isinstance(n.value, cst.Name) and n.value.value == target.value.value
                   for n in iter_nodes(node.value))

    def _self_reads(self, self_name: str) -> set[str]:
        """The attributes of ``self`` the body reads outside their own updates, also through a
        property or method of the class it uses on ``self`` (``self.lr`` reading ``self.iteration``)."""
        frame = self.model.functions.get(self.func)
        cls = frame.scope.node if frame is not None and frame.scope.kind == "class" else None
        methods = class_methods(cls) if isinstance(cls, cst.ClassDef) else {}
        reads: set[str] = set()

        def collect(body, name: str, depth: int) -> None:
            updates: set[int] = set()  # the nodes of ``self.x = ...`` statements: their own reads
            for node in own_nodes(body):
                if id(node) in updates:
                    continue
                if isinstance(node, (cst.Assign, cst.AugAssign)):
                    targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
                    if any(isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value == name
                           for t in targets):
                        updates.update(id(n) for n in iter_nodes(node))
                        continue
                bookkeeping = node.test if isinstance(node, (cst.If, cst.While)) else node if isinstance(
                    node, cst.Call) and is_log_call(node, self.model.scope_of.get(body, self.model.module_scope),
                                                     self.model) else None
                if bookkeeping is not None:  # ``if self.n_traces > 1: print(...)``: trace bookkeeping
                    updates.update(id(n) for n in iter_nodes(bookkeeping))
                    continue
                if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == name:
                    reads.add(node.attr.value)
                    method = methods.get(node.attr.value)
                    params = positional_params(method) if method is not None else []
                    if depth < 2 and params:
                        collect(method.body, params[0].name.value, depth + 1)

        collect(self.func.body, self_name, 0)
        return reads


def _written_value(binding: Binding) -> Optional[cst.BaseExpression]:
    node = binding.node
    if isinstance(node, (cst.Assign, cst.AugAssign)):
        return node.value
    if isinstance(node, cst.AnnAssign):
        return node.value
    return None


def _statement_of(node: cst.CSTNode, parents: dict[int, cst.CSTNode]) -> cst.CSTNode:
    current = node
    while current is not None and not isinstance(current, cst.BaseSmallStatement):
        current = parents.get(id(current))
    return current if current is not None else node


# Reads of a leaked value that do not touch the tracer itself (a list of tracers has a length);
# printing it shows tracers where values were expected, a use.
_METADATA_BUILTINS = frozenset({"len", "type", "id", "isinstance"})


def leak_used_later(ctx: FileContext, flow: StateFlow) -> bool:
    """Whether code outside the traces reads what ``flow`` (a leak) stores into, after a jitted
    call, in a way that uses the tracer (``external_list[0] + 1``, ``layer.W @ x``, printing
    it), or the writing function reads it itself (``RNG.key, sub = split(RNG.key)``: frozen at
    the first trace).  A tracer
    stored into a module-level list or object and never used again raises nothing (a tutorial
    showing that the append runs once; a framework swapping values in under the trace).
    Anything other than a module-level name (``self.cache``) counts as used."""
    root, _, rest = flow.name.partition(".")
    model = ctx.model
    module_bindings = model.module_scope.bindings.get(root)
    if not module_bindings or flow.keyword:
        return True
    attr = rest.split(".")[0] if rest else None
    context = calling_context(ctx)
    traced_defs = set(jitted_functions(ctx))
    first_call = min((model.order(call.call) for call in jitted_calls(ctx)
                      if model.call_site_of.get(call.call) is not None
                      and model.call_site_of[call.call].frame.enclosing_function() is None), default=None)
    parents: dict[int, cst.CSTNode] = {}
    found = False

    class _Reads(Walker):
        def __init__(self) -> None:
            self.scopes = [model.module_scope]
            self.stack: list[cst.CSTNode] = []

        def on_visit(self, node: cst.CSTNode) -> bool:
            nonlocal found
            if found:
                return False
            if isinstance(node, cst.FunctionDef) and node is not flow.function \
                    and (node in traced_defs or context.traced(node)):
                return False  # reads under another trace see the tracer while it is valid
            if self.stack:
                parents[id(node)] = self.stack[-1]
            self.stack.append(node)
            scope = model.scope_of.get(node)
            if scope is not None:
                self.scopes.append(scope)
            if isinstance(node, cst.Name) and node.value == root and self._uses(node):
                found = True
            return True

        def on_leave(self, node: cst.CSTNode) -> None:
            if self.stack and self.stack[-1] is node:
                self.stack.pop()
            if node in model.scope_of and len(self.scopes) > 1:
                self.scopes.pop()

        def _uses(self, name: cst.Name) -> bool:
            if model.lookup(root, self.scopes[-1]) is not module_bindings:
                return False
            read: cst.CSTNode = name
            parent = parents.get(id(name))
            if any(isinstance(n, cst.AssignTarget) for n in self.stack):
                return False  # a store (``RNG.key, sub = ...``)
            if isinstance(parent, cst.Param) or (
                    isinstance(parent, cst.Attribute) and parent.attr is name):
                return False
            if attr is not None:
                if not (isinstance(parent, cst.Attribute) and parent.value is name and parent.attr.value == attr):
                    return False
                read, parent = parent, parents.get(id(parent))
            if isinstance(parent, cst.Arg):
                call = parents.get(id(parent))
                if isinstance(call, cst.Call) and isinstance(call.func, cst.Name) \
                        and call.func.value in _METADATA_BUILTINS and not model.lookup(call.func.value, self.scopes[-1]):
                    return False
            if isinstance(parent, cst.Attribute) and parent.value is read and isinstance(
                    parents.get(id(parent)), cst.Call) and parent.attr.value in MUTATING_METHODS:
                return False  # another store into it
            outside = not any(isinstance(n, (cst.FunctionDef, cst.Lambda, cst.For, cst.While)) for n in self.stack)
            if outside and first_call is not None and model.order(name) < first_call:
                return False  # read before any jitted call ran
            return True

    _Reads().walk(ctx.module)
    return found
