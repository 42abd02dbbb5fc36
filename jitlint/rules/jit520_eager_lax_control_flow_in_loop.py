from dataclasses import dataclass
from typing import Iterator, Optional

import libcst as cst

from jitlint.jaxfacts import (NON_PYTREE_CLASS_DECORATORS, PYTREE_CLASS_DECORATORS, CACHE_CLEARS, LAX_CONTROL_FLOW_FUNCTION_PARAMS, LAX_LOOP_LIBRARY_CALLS,
                              LaxLoopCall)
from jitlint.project import absolute, module_name_for
from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._builders import built_by
from jitlint.rules._context import (PARTIAL_CONSTRUCTORS, PLAIN_DECORATORS, CallingContext, calling_context,
                                    inherited_method)
from jitlint.rules._jitted import jitted_functions
from jitlint.walk import own_nodes
from jitlint.rules._static import created_object
from jitlint.rules._traced import tracer_test
from jitlint.rules._types import member_kind, receiver_class
from jitlint.semantic import CallSite, Frame, Scope, SemanticModel, dotted_name
from jitlint.staticargs import decorator_qualname
from jitlint.values import ValueFlow, assigned, chosen_branch, value_flow
from jitlint.walk import iter_nodes
from jitlint.walk import source_text as _src



class EagerLaxControlFlowInLoop(Rule):
    """
    ## What it does
    Flags, in a Python loop outside traced code (a jitted or transformed function, or one
    whose every caller in the module runs traced, like an environment's `step` used only as
    `jax.jit(env.step)`), a call that runs lax control flow
    eagerly: a library call that runs lax control flow inside, listed as data in
    `jitlint/jaxfacts.py` (`LAX_LOOP_LIBRARY_CALLS`: `jax.lax.map` itself, which wraps its
    function anew on every call, so even a module-level `f` compiles its scan once per eager
    call, 5 compiles for 5 equal chunks, jester 0a0cd68, `fixtures/eager/lax_map_of_module_function_in_chunk_loop.py`;
    `jax.scipy.optimize.minimize`,
    `jax.scipy.sparse.linalg.cg`, ..., and the `update` of optax's `lbfgs`, line searches,
    `MultiSteps`, `apply_if_finite`, `contrib.reduce_on_plateau`, also inside `optax.chain`;
    the `run` of jaxopt's iterative solvers (`LBFGS`, `GradientDescent`, `BFGS`, `NonlinearCG`,
    `GaussNewton`, `LevenbergMarquardt`: one compile of their while loop per eager run, jaxopt#563),
    the `step` of blackjax's `nuts`, `hmc`, `mala`, `rmh`, and the kernels their
    `build_kernel()` returns; flax's `nnx.cond` and `nnx.switch`, which wrap their branches anew
    on every call, so even module-level branches compile once per eager call, flax#5512;
    numpyro's `MCMC.run` built with `progress_bar=False`, numpyro#2171, or built without
    `jit_model_args=True` and run on data made anew on each iteration, numpyro#448 and PR 860:
    the sampler closes over the data, 4 compiles in 4 runs either way, measured),
    or a function or method of this module (`helper(x)`, `obj.run(x)`, `self.run(x)` on an
    instance of a class of the module, `self(x)` in a method: the class's `__call__`, a text
    generator's scan per token, 5 compiles for 5 tokens, jitted once 1; not a method that
    `__init__` rebinds on the instance, `self.sample = jax.jit(partial(self.sample, ...))`:
    the call runs that jit, RLib's Q-learning agent), or through the project index a function of another
    module of the project, that calls
    `lax.fori_loop`/`while_loop`/`scan`/`cond`/`switch` with a body it makes itself (a local
    `def`, a lambda or a `functools.partial`, passed directly, through a local name or by
    keyword; or a method of its own class, `self.sample_loop`, bound anew on every access:
    flowMC #133, 4 compiles in 4 rounds, 1 with `sample` jitted), itself or through one call of its own (`step` calling `settle`). A function
    differentiated or vectorised in the loop (`jax.grad(loss)(w)`, or through a name bound to
    `jax.value_and_grad(loss)`) counts as called there: `jax.grad` and `jax.vmap` keep no
    compiled program and run its Python on every call. So does a function handed to a library
    call that runs it again and again (`scipy.optimize.minimize(objective, x0)`:
    `jaxfacts.FUNCTION_RUNNING_CALLS`), reported at its lax call.
    Only `for`/`while` loops; cold-start benchmark loops (`jax.clear_caches()`,
    `while state:`) and sweeps over a literal list of configurations
    that the call reads (written inline, or bound to a name first: `sizes = (64, 128)`, also
    a `range`) are left alone; a list whose items are all arrays of one shape (`[jnp.array([...]), ...]`:
    inputs, 5 compiles in 5 calls, jitted 1) is none, and a list item read only as array data (`jnp.full(2, start)`:
    not a shape, size or axis there, `jaxfacts.CONCRETE_PARAMS`) is no configuration, nor is
    one read only as a random seed (`jaxfacts.SEEDING_CALLS`: `jax.random.PRNGKey(seed)`,
    `hk.PRNGSequence(seed)`, also through a function of the module that only seeds with it:
    a k-means `fit` refitted per seed, 3 compiles for 3 seeds). A
    helper that calls back the function holding the loop (a program interpreter whose `scan`
    rule interprets the body again) runs wherever its caller runs: left alone, as is a method
    of a class under a decorator that may rewrap its methods (`@evox.jit_class` jits them:
    `fixtures/eager/lax_cond_in_method_of_jit_class_ok.py`; dataclass and pytree decorators
    keep them as written). A library call is reported at the call in the loop; a helper of this module at its lax
    call, the one to change, with every call in a loop that repeats it as evidence (one
    finding per lax call). Also a lax control-flow call in the loop itself given a function
    made on every iteration: a bound method (`walker.body_fn`: each access makes a new
    bound-method object), a method of an object built in the loop, a `functools.partial`
    (lambdas there are JIT101's).

    Outside loops, a helper of this module like that called twice the same way at module level
    (no branch between: a lecture's "with compile" call, then the timed "warm" one) is reported
    at its lax call too, with the second call as evidence: it compiles again (QuantEcon
    optimistic policy iteration; a `jax.clear_caches()` between them is a cold-start measurement).

    ## Why is this bad?
    Outside jit, each lax control-flow call traces its body and compiles it; JAX reuses the
    compiled body only for the very same function object, and a body defined inside the
    function is new on every call. Measured on jax 0.10.2, optax 0.2.8 (CPU): 10 eager
    L-BFGS steps compile 92 times (a `while`, a `cond` and two `scan`s every step); the same
    steps under one `jax.jit` compile 10 times in all, 2 of them the step. After the first
    call, each eager call compiles again: `lbfgs().update` 3 times, `scale_by_lbfgs` 2, the
    line searches, `MultiSteps`, `apply_if_finite`, `reduce_on_plateau`, `minimize` and the
    sparse solvers once; blackjax 1.7.1's `nuts.step` once (its `while`), `hmc.step` twice
    (a `scan` and a `cond`), `mala`/`rmh` once (tests/test_jaxfacts.py measures each). A helper running
    `lax.fori_loop` with a local body compiles on each of 5 calls; with a module-level body,
    once. A method scanning a lambda compiles the scan on each of 4 calls, a helper's
    `while_loop` over 3 start values 3 times, one call deeper 4 times in 4 steps, a fresh
    `functools.partial` body 4 times in 4 calls; a scan
    body defined once at module level compiles once, a helper called only from a jitted
    function never eagerly.
    An objective integrating with `lax.fori_loop` over a body of its own compiles the loop on
    each of scipy's 24 evaluations; jitted at module level, once.
    A loss scanning a lambda, differentiated by `jax.grad` in 5 eager steps, compiles the scan
    10 times (forward and backward); under a jitted step or `jax.jit(jax.grad(loss))`, never on
    its own.
    `lax.fori_loop(0, 10, walker.body_fn, key)` in a 3-iteration loop compiles 3 times, with
    one object made before the loop too; with `body = walker.body_fn` bound once, once
    (jax#1710). An unjitted solver running `lax.while_loop` over a condition and an update of
    its own, called twice in a row, compiles the loop twice; jitted at module level, once.

    ## Fix safety
    Jit the step (`@jax.jit def step(params, state): ...` returning the new params and state),
    or jit the helper. The results are the same up to floating-point reassociation.
    """

    code = "JIT520"
    calling_context = True
    name = "eager-lax-control-flow-in-loop"
    summary = "lax control flow run outside jit in a loop compiles on every iteration; jit the step"
    prefilter_names = frozenset({*LAX_CONTROL_FLOW_FUNCTION_PARAMS, *LAX_LOOP_LIBRARY_CALLS})

    INVALID = [
        """
        import jax.numpy as jnp
        import optax

        def f(x):
            return jnp.sum((x - 1.0) ** 2)

        solver = optax.lbfgs()
        params = jnp.zeros(3)
        state = solver.init(params)
        value_and_grad = optax.value_and_grad_from_state(f)
        for step in range(10):
            value, grad = value_and_grad(params, state=state)
            updates, state = solver.update(grad, state, params, value=value, grad=grad, value_fn=f)
            params = optax.apply_updates(params, updates)
        """,
    ]
    VALID = [
        """
        import jax
        import jax.numpy as jnp
        import optax

        def f(x):
            return jnp.sum((x - 1.0) ** 2)

        solver = optax.lbfgs()
        value_and_grad = optax.value_and_grad_from_state(f)

        @jax.jit
        def step(params, state):
            value, grad = value_and_grad(params, state=state)
            updates, state = solver.update(grad, state, params, value=value, grad=grad, value_fn=f)
            return optax.apply_updates(params, updates), state

        params = jnp.zeros(3)
        state = solver.init(params)
        for i in range(10):
            params, state = step(params, state)
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        model = ctx.model
        context = calling_context(ctx)
        jitted = set(jitted_functions(ctx))
        repeated: dict[int, tuple[EagerHelper, list[CallSite]]] = {}
        in_sequence: dict[int, tuple[EagerHelper, list[CallSite]]] = {}
        for site in model.calls:
            loops = [loop for loop in site.frame.loops_in_scope() if isinstance(loop, (cst.For, cst.While))]
            if not loops and _top_level(ctx, site):
                helper = _eager_helper(site, model, jitted, context)
                if helper is not None:  # ``run(model)`` to warm up, then ``run(model)`` timed
                    in_sequence.setdefault(id(helper.call), (helper, []))[1].append(site)
            if not loops or context.runs_traced(site.frame):
                continue  # traced code runs once per trace of its caller's jit
            made = _body_made_in_loop(ctx, site, loops)
            if made is not None:
                if not _deliberate_loop(loops, site, model, context):
                    yield Violation(site.node, (
                        f"`{_src(site.node.func)}` gets {made} on every iteration and runs outside jit, "
                        f"where lax looks its compiled program up by the function object: the body is "
                        f"traced and compiled again on every iteration; create the function once before "
                        f"the loop (bind a method to a name there) or jit the loop's step once"))
                continue
            library = _library_loop_call(site, model, value_flow(ctx))
            helper = _eager_helper(site, model, jitted, context) if library is None else None
            what, fix = library or (None if helper is not None else _project_helper(site, ctx), "")
            if (what is None and helper is None) or _deliberate_loop(loops, site, model, context):
                continue
            if helper is not None:
                # at the lax call whose body is made anew (the fix goes there, or on the function
                # holding it); the calls in loops that repeat it are the evidence
                repeated.setdefault(id(helper.call), (helper, []))[1].append(site)
                continue
            # a library's (or another module's) lax call: the call in the loop is what to change
            yield Violation(site.node, (
                f"{what} runs lax control flow outside jit, in a loop: its body is traced and "
                f"compiled again on every iteration; {fix or 'jit the step (or the helper) once'}"))
        for function, (runner, site) in context.runner_calls().items():
            # ``scipy.optimize.minimize(objective, x0)`` runs ``objective`` eagerly, again and again
            found = None if context.runs_traced(site.frame) else _fresh_control_flow(function, model, jitted, context, 0)
            if found is not None and id(found[2]) not in repeated:
                inner, control, call, body = found
                yield Violation(call, (
                    f"`{control}` gets {body} on every call of `{function.name.value}`, which "
                    f"`{runner}` calls again and again outside jit: its body is traced and compiled again "
                    f"on every call; define the body once outside `{function.name.value}`, or move its JAX "
                    f"computation into one module-level jitted function that it calls"),
                    related=((site.node, f"`{runner}` calls `{function.name.value}` here, again and again"),),
                    repeated_at=site.node)
        for key, (helper, sites) in in_sequence.items():
            again = _called_again(sites, model)
            if key in repeated or again is None:
                continue
            yield Violation(helper.call, (
                f"`{helper.control}` gets {helper.body} on every call of `{helper.owner.name.value}` and "
                f"runs outside jit; `{_src(again.node, 50)}` calls it again after a first call, and "
                f"compiles its body again (the second call is no faster than the first); jit "
                f"`{helper.called.name.value}` once, or define the body once outside it"),
                related=((again.node, "called again here, compiling again"),
                         (sites[0].node, "first called here")),
                repeated_at=again.node)
        for helper, sites in repeated.values():
            through = "" if helper.owner is helper.called else f", which `{helper.called.name.value}` calls,"
            # ``jax.grad(loss)(w)``: jit what the loop calls, the differentiated function
            jit_what = _src(sites[0].node.func, 50) if context.applies_transform(sites[0].node) \
                else helper.called.name.value
            yield Violation(helper.call, (
                f"`{helper.control}` gets {helper.body} on every call of `{helper.owner.name.value}`"
                f"{through} and runs outside jit, called in a loop (`{_src(sites[0].node, 50)}`): its body "
                f"is traced and compiled again on every iteration; jit `{jit_what}` once, "
                f"or define the body once outside it"),
                related=tuple((site.node, "called on every iteration here") for site in sites),
                repeated_at=sites[0].node)


# Fresh bodies another rule reports: a lambda (JIT101), a jit made in place (JIT201/202).
BODIES_REPORTED_ELSEWHERE = frozenset({"lambda", "jit"})


def _body_made_in_loop(ctx: FileContext, site: CallSite, loops: list) -> Optional[str]:
    """A lax control-flow call in the loop itself given a function made on every iteration: a
    bound method (``walker.body_fn``: each access makes a new bound-method object, and eager
    lax keys its program on the function object: measured 3 compiles in 3 iterations for one
    object, 1 with the method bound to a name once), a def or a ``functools.partial`` made
    there. What it is, for the message."""
    qualname = ctx.model.qualified_name(site.node.func, site.frame.scope)
    params = LAX_CONTROL_FLOW_FUNCTION_PARAMS.get(qualname or "")
    if params is None:
        return None
    positional = [a.value for a in site.node.args if a.keyword is None and not a.star]
    keywords = {a.keyword.value: a.value for a in site.node.args if a.keyword is not None}
    for index, keyword in params:
        function = positional[index] if index < len(positional) else keywords.get(keyword)
        if isinstance(function, cst.Attribute):
            cls = receiver_class(ctx, function.value, site.frame.scope)
            if cls is not None and member_kind(ctx, cls, function.attr.value) in ("method", "classmethod"):
                return f"`{_src(function)}`, a new bound-method object (each access makes one),"
        created = created_object(ctx, function, site.frame.scope, site.frame) if function is not None else None
        if created is None or created[0] in BODIES_REPORTED_ELSEWHERE:
            continue
        if any(created[1].is_inside(loop) for loop in loops):
            return {"bound-method": f"`{_src(function)}`, a method of an object built in the loop,",
                    "def": f"`{_src(function)}`, a function defined in the loop,",
                    "partial": f"`{_src(function)}`, a new partial,"}.get(created[0], f"`{_src(function)}`,")
    return None


def _library_loop_call(site: CallSite, model: SemanticModel, flow: ValueFlow) -> Optional[tuple[str, str]]:
    """(what, the fact's advice) for a library call that runs lax control flow inside
    (jaxfacts.LAX_LOOP_LIBRARY_CALLS): called itself (``jax.scipy.optimize.minimize(...)``), or
    the method of an object such a call built (``solver.update`` of ``solver = optax.lbfgs()``,
    also inside ``optax.chain``)."""
    func = site.node.func
    qualname = model.qualified_name(func, site.frame.scope)
    if qualname is None and isinstance(func, cst.Name):  # ``cg = jax.jit(cg) if USE_JIT else cg``
        binding = flow.single(func, site.frame.scope)
        value = assigned(binding).value if binding is not None else None
        chosen = chosen_branch(flow, value, binding.scope) if value is not None else None
        if isinstance(chosen, (cst.Name, cst.Attribute)):
            qualname = model.qualified_name(chosen, binding.scope)
    fact = LAX_LOOP_LIBRARY_CALLS.get(qualname or "")
    if fact is not None and not fact.method:
        return f"`{qualname}` (it runs {fact.runs})", fact.fix
    if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
        built, method, shown = func.value, func.attr.value, f"{func.value.value}.{func.attr.value}"
    elif isinstance(func, cst.Name):  # ``value_and_grad(params, state=state)``
        built, method, shown = func, "__call__", func.value
    elif isinstance(func, cst.Call):  # ``optax.value_and_grad_from_state(f)(params, ...)``
        found = _builds_lax_loop(func, site.frame.scope, site.frame, model, "__call__")
        return None if found is None else (f"`{found[0]}(...)(...)` ({found[1].runs})", found[1].fix)
    else:
        return None
    origin = model.value_origin(built, site.frame.scope, site.frame)
    if origin is None or not isinstance(origin[0], cst.Call):
        return None
    found = _builds_lax_loop(origin[0], origin[1], origin[2], model, method)
    if found is None:
        return _fresh_data_call(site, origin, model, flow, method, shown)
    builder, fact = found
    return f"`{shown}` ({builder}: {fact.runs})", fact.fix


def _fresh_data_call(site: CallSite, origin, model: SemanticModel, flow: ValueFlow, method: str,
                     shown: str) -> Optional[tuple[str, str]]:
    """``mcmc.run(key, np.zeros(n))`` in a loop, of an ``MCMC`` built without
    ``jit_model_args=True`` (``LaxLoopCall.fresh_data_unless``): the data is baked into the
    sampler, and data made anew on each iteration compiles it again on each run."""
    qualname = model.qualified_name(origin[0].func, origin[1])
    fact = LAX_LOOP_LIBRARY_CALLS.get(qualname or "")
    if fact is None or not fact.fresh_data_unless or fact.method != method:
        return None
    keyword, value = fact.fresh_data_unless
    if any(a.keyword is not None and a.keyword.value == keyword and cst.Module([]).code_for_node(a.value) == value
           for a in origin[0].args):
        return None
    loops = site.frame.loops_in_scope()
    data = [a.value for a in site.node.args[1:] if not a.star] + \
        [a.value for a in site.node.args[:1] if a.keyword is not None]
    if not loops or not any(_made_in(value, site, loops[0], flow) for value in data):
        return None
    return (f"`{shown}` ({qualname} without {keyword}={value}: its sampler closes over the run's data, "
            f"made anew on every iteration)", fact.fresh_data_fix)


def _made_in(value: cst.BaseExpression, site: CallSite, loop: cst.CSTNode, flow: ValueFlow) -> bool:
    """``value`` is an array made on each iteration of ``loop``: a call written there, or a
    name the loop body binds to one."""
    if isinstance(value, cst.Call):
        return True
    binding = flow.single(value, site.frame.scope) if isinstance(value, cst.Name) else None
    return binding is not None and binding.kind == "assign" and isinstance(binding.value, cst.Call) \
        and binding.frame is not None and binding.frame.is_inside(loop)


def _builds_lax_loop(call: cst.Call, scope: Scope, frame: Frame, model: SemanticModel,
                     method: str) -> Optional[tuple[str, LaxLoopCall]]:
    """The library call (and its fact) whose ``method`` runs lax control flow, for the object
    ``call`` builds, also inside ``optax.chain(...)`` (rules/_builders.py)."""
    found = built_by(call, scope, frame, model, lambda qualname, built: _lax_loop_fact(qualname, built, method)
                     is not None)
    return (found, LAX_LOOP_LIBRARY_CALLS[found]) if found is not None else None


def _lax_loop_fact(qualname: str, call: cst.Call, method: str) -> Optional[LaxLoopCall]:
    """The fact for ``qualname``'s ``method`` when ``call`` passes the keywords it needs."""
    fact = LAX_LOOP_LIBRARY_CALLS.get(qualname)
    if fact is None or fact.method != method or not all(
            any(a.keyword is not None and a.keyword.value == keyword and cst.Module([]).code_for_node(a.value) == value
                for a in call.args) for keyword, value in fact.when):
        return None
    return fact


@dataclass(eq=False)
class EagerHelper:
    """A function of this module called eagerly in a loop that runs lax control flow with a
    body it makes itself: ``called`` is the function the loop calls, ``owner`` the one whose
    lax call (``call``, of ``control``) gets the fresh body (``called`` or one call below it)."""

    called: cst.FunctionDef
    owner: cst.FunctionDef
    control: str
    call: cst.Call
    body: str  # what the fresh body is, for the message


def _eager_helper(site: CallSite, model: SemanticModel, jitted: set, context: CallingContext
                  ) -> Optional[EagerHelper]:
    """The helper (``helper(x)``, ``obj.run(x)``, ``self.run(x)``) a call in a loop runs that
    calls lax control flow with a body it defines itself, directly or through one more such
    call of its own (``step`` calling ``rollout``)."""
    helper = context.callee(site.node, site.frame.scope)
    if helper is None or site.frame.is_inside(helper) or _calls_back(helper, site, model, context):
        return None  # a recursive call (an interpreter): it runs wherever its caller does
    found = _fresh_control_flow(helper, model, jitted, context, 0)
    if found is None:
        return None
    inner, control, call, body = found
    return EagerHelper(helper, inner, control, call, body)


def _top_level(ctx: FileContext, site: CallSite) -> bool:
    """A statement of the module's own body (a notebook cell's): it runs once, whenever the
    module does (not under an ``if``, a ``try`` or a ``with jax.disable_jit():``)."""
    return site.frame.scope.kind == "module" and any(statement is site.statement for statement in ctx.module.body)


def _called_again(sites: list[CallSite], model: SemanticModel) -> Optional[CallSite]:
    """A repeat of the first of these module-level calls, written the same way (the warm-up
    and the timed run of one configuration: jit would reuse its program), with no cache clear
    between them: it compiles the fresh body again."""
    sites = sorted(sites, key=lambda site: model.order(site.node))
    first = sites[0]
    same = _written(first.node)
    for second in sites[1:]:
        if _written(second.node) != same:
            continue
        clears = [s for s in model.calls if s.frame.scope is first.frame.scope
                  and model.order(first.node) < model.order(s.node) < model.order(second.node)
                  and model.qualified_name(s.node.func, s.frame.scope) in CACHE_CLEARS]
        return None if clears else second
    return None


def _written(call: cst.Call) -> str:
    """The call's code without its layout (a call split over lines is the same call)."""
    return "".join(cst.Module([]).code_for_node(call).split())


def _calls_back(helper: cst.FunctionDef, site: CallSite, model: SemanticModel, context: CallingContext) -> bool:
    """``helper`` (or a body it defines) calls the function that holds ``site``: mutual
    recursion, as in a jaxpr interpreter whose ``scan`` rule interprets the body again; it
    runs wherever, and as often as, its caller does."""
    around = context.function_around(site.node)
    if around is None:
        return False
    return any(inner.frame.is_inside(helper) and context.callee(inner.node, inner.frame.scope) is around
               for inner in model.calls)


def _fresh_control_flow(helper: cst.FunctionDef, model: SemanticModel, jitted: set,
                        context: CallingContext, depth: int) -> Optional[tuple[cst.FunctionDef, str, cst.Call, str]]:
    """(the def whose lax call gets a fresh body, the lax function, the call, what the body
    is) for an eager ``helper``."""
    if helper in jitted or context.traced(helper) or not _plain(helper, model):
        return None
    control = _control_flow_with_local_body(helper, model)
    if control is not None:
        return (helper, *control)
    if depth >= 1:
        return None
    scope = model.scope_of[helper]
    for node in own_nodes(helper.body):
        site = model.call_site_of.get(node) if isinstance(node, cst.Call) else None
        if site is not None and not any(isinstance(loop, (cst.For, cst.While))
                                        for loop in site.frame.loops_in_scope()):
            # (a call in a loop of the helper is flagged there)
            inner = context.callee(node, scope)
            if inner is not None and inner is not helper:
                found = _fresh_control_flow(inner, model, jitted, context, depth + 1)
                if found is not None:
                    return found
    return None


def _plain(function: cst.FunctionDef, model: SemanticModel) -> bool:
    """No decorator that could jit or cache it (``@staticmethod``, ``@property`` are plain),
    nor, for a method, a class decorator that could rewrap its methods (``@evox.jit_class``
    jits them; a dataclass or pytree registration keeps them as written)."""
    scope = model.functions[function].scope
    if not all((model.qualified_name(d.decorator, scope) or dotted_name(d.decorator)) in PLAIN_DECORATORS
               for d in function.decorators):  # (a builtin such as ``staticmethod`` has no import)
        return False
    if scope.kind != "class" or not isinstance(scope.node, cst.ClassDef):
        return True
    return all(decorator_qualname(d, model, scope.parent) in KEEPING_CLASS_DECORATORS
               for d in scope.node.decorators)


# Class decorators that leave the methods as written.
KEEPING_CLASS_DECORATORS = NON_PYTREE_CLASS_DECORATORS | PYTREE_CLASS_DECORATORS | {
    "jax.tree_util.register_pytree_node_class", "functools.total_ordering", "typing.final"}


def _project_helper(site: CallSite, ctx: FileContext) -> Optional[str]:
    """A call of another module's def that runs lax control flow with a body of its own
    (project.ModuleSummary.lax_helpers, through the project index)."""
    func = site.node.func
    if ctx.index is None or not isinstance(func, (cst.Name, cst.Attribute)) or not ctx.index.lax_helper_names():
        return None
    root = func
    while isinstance(root, cst.Attribute):
        root = root.value
    binding = ctx.model.single_binding(root.value, site.frame.scope) if isinstance(root, cst.Name) else None
    qualname = ctx.model.qualified_name(func, site.frame.scope) if binding is not None \
        and binding.kind == "import" else None
    if qualname is None:
        return None
    module, is_package = module_name_for(ctx.path)
    qualname = absolute(qualname, ctx.model.module_name or module, is_package)
    control = ctx.index.lax_helper(qualname)
    if control is None:
        return None
    return f"`{qualname}` (its `{control}` with a body defined inside it)"


def _control_flow_with_local_body(helper: cst.FunctionDef, model: SemanticModel
                                  ) -> Optional[tuple[str, cst.Call, str]]:
    """(the lax function, its call, what the body is) of a lax call in ``helper`` given a
    function made anew per call, or a method of ``self`` (each access binds a new method
    object: measured 3 compiles in 3 eager calls, flowMC #133); not one that runs only under a
    trace (``if isinstance(keys, jax.core.Tracer):``)."""
    scope = model.scope_of[helper]
    traced_only = _tracer_guarded(helper, model, scope)
    calls = sorted((node for node in own_nodes(helper.body) if isinstance(node, cst.Call)), key=model.order)
    for node in calls:  # the first in the source: the finding shows one of them
        if id(node) in traced_only:
            continue
        qualname = model.qualified_name(node.func, scope)
        if qualname not in LAX_CONTROL_FLOW_FUNCTION_PARAMS:
            continue
        positional = [a.value for a in node.args if a.keyword is None and not a.star]
        keywords = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
        for index, keyword in LAX_CONTROL_FLOW_FUNCTION_PARAMS[qualname]:
            function = positional[index] if index < len(positional) else keywords.get(keyword)
            if function is not None and _is_fresh_function(function, scope, model):
                return qualname.replace("jax.lax.", "lax."), node, "a body defined anew"
            if function is not None and _own_bound_method(function, helper, model):
                return qualname.replace("jax.lax.", "lax."), node, f"`{_src(function)}`, a new bound-method object,"
    return None


def _own_bound_method(expr: cst.BaseExpression, helper: cst.FunctionDef, model: SemanticModel) -> bool:
    """``self.body_fn`` in a method ``helper``: a method of its class (not a staticmethod)."""
    params = [*helper.params.posonly_params, *helper.params.params]
    outer = model.functions[helper].scope
    if not (isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name) and params
            and expr.value.value == params[0].name.value and outer.kind == "class"
            and isinstance(outer.node, cst.ClassDef)):
        return False
    method = inherited_method(model, outer.node, expr.attr.value)
    return method is not None and not any(dotted_name(d.decorator) == "staticmethod" for d in method.decorators)


def _tracer_guarded(helper: cst.FunctionDef, model: SemanticModel, scope: Scope) -> set[int]:
    """The nodes in the body of an ``if isinstance(x, jax.core.Tracer):`` (jaxfacts.TRACER_TYPES)
    of ``helper``: they run only while a transformation traces the helper."""
    guarded: set[int] = set()
    for node in own_nodes(helper.body):
        if isinstance(node, cst.If) and tracer_test(model, node.test, scope) == "traced":
            guarded.update(id(inner) for inner in iter_nodes(node.body))
    return guarded


def _is_fresh_function(expr: cst.BaseExpression, scope: Scope, model: SemanticModel, depth: int = 0) -> bool:
    """A function object made anew on every call of the helper: a lambda, a
    ``functools.partial(...)``, or a name bound in the helper itself to a local ``def`` or to
    one of those (``body = partial(step, dt=dt)``); a list or tuple display holding one
    (``lax.switch``'s branches)."""
    if isinstance(expr, cst.Lambda):
        return True
    if isinstance(expr, (cst.List, cst.Tuple)):  # ``lax.switch(i, [lambda _: x, ...], ...)``
        return any(not isinstance(e, cst.StarredElement) and _is_fresh_function(e.value, scope, model, depth)
                   for e in expr.elements)
    if isinstance(expr, cst.Call):
        return model.qualified_name(expr.func, scope) in PARTIAL_CONSTRUCTORS
    if isinstance(expr, cst.Name) and depth == 0:
        bindings = model.lookup(expr.value, scope)
        return bool(bindings) and all(
            b.scope is scope and (b.kind == "def" or (
                b.kind == "assign" and b.value is not None and _is_fresh_function(b.value, scope, model, 1)))
            for b in bindings)
    return False


def _deliberate_loop(loops: list, site: CallSite, model: SemanticModel, context: CallingContext) -> bool:
    """A loop that clears the cache (the recompiles are what it measures; a loop that only
    times its calls is timing steady-state calls, which the recompiles slow down: jax#852), or a
    sweep over a literal list of configurations that the call reads (each is a new program;
    jit would compile each one too)."""
    for loop in loops:
        if context.sweeps_configurations(loop, site.frame.scope, site.node):
            return True
        for node in own_nodes(loop):
            if isinstance(node, cst.Call) and model.qualified_name(node.func, site.frame.scope) in CACHE_CLEARS:
                return True
        if isinstance(loop, cst.While) and isinstance(loop.test, cst.Name):
            return True  # ``while state:`` (google-benchmark style)
    return False
