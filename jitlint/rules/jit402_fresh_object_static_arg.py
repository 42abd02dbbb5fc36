from typing import Iterator, Optional

import libcst as cst

from jitlint.jaxfacts import FUNCTION_KEYED_LIBRARY_CALLS, SOLVER_PARAMETERS, STATIC_STATE_FIELDS
from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._context import calling_context
from jitlint.rules._feedback import fresh_static_fields, static_fields_replaced_in_loops
from jitlint.rules._jitted import jitted_calls, jitted_functions
from jitlint.rules._nnx import NNX_JIT, creates_nnx_object
from jitlint.rules._module_fields import FRESH, instance_uses
from jitlint.rules._static import (
    Fresh, StaticUse, created_object, fresh_tree_partial, fresh_when, kept_static_by_filtering, fresh_receiver, fresh_value,
    fresh_self, static_receivers, static_uses, twin_objects,
)
from jitlint.semantic import Frame, Scope
from jitlint.values import assigned, names_in, origin, returned_values, value_flow
from jitlint.walk import source_text


class FreshObjectStaticArg(Rule):
    """
    ## What it does
    Flags an object created anew each time the code runs and passed at a static position of a
    jitted function: a lambda, a nested `def` (or a module-level `def` inside a loop: a script
    defining a graph's residual and Jacobian per test graph for a Newton solver jitted with them
    static, 5 compiles for 5 graphs), a `functools.partial(...)`, a bound method of a
    new object, or a new instance of a class (resolved within the linted tree) without
    `__eq__`, which hashes by identity, an optax transformation or schedule (`optax.adam(lr)`:
    a tuple of closures; also one named by a string, `getattr(optax, name)(**kwargs)`: jaxparrow
    PR 61, 4 compiles in 4 calls), a `jax.tree_util.Partial`; also one a `@property` of the class builds
    on every access (`self.activation` returning a lambda; a `functools.cached_property` builds
    it once and stays silent), or a method of an instance of the module's class returns on
    every call (`exploration.get_policy()` returning a lambda, given to an `eqx.filter_jit`
    step per environment step: actsafe, 5 compiles in 5 steps; returning a lambda stored in
    `__init__`, 1). It fires when the call repeats: in a loop
    that creates the object, or in a function that is called repeatedly; when two such objects
    made alike (the same optax factory, a partial of the same function, the same class with
    the same arguments) reach one static parameter at different calls; and when a jitted
    method with a static `self` is called on a new identity-hashed instance each time
    (`Head(2.0)(x)` in a loop; `model.update(p, batch)` then `model = Net(new_p)` later in the same loop, JRowbottom's MNIST object, 5 compiles in 5 steps, 1 when the loop keeps one instance; also an instance a factory function of the module returns:
    `gp = build_gp(params)`; also through another method of the class that calls
    `self.train_step(...)`, run by a loop on a new instance per iteration or on each instance
    of a list a loop fills: NeuroBayes' ensemble, 3 compiles for 3 members, 1 with a
    module-level step; a loop over a literal list of configurations the constructor reads,
    `for lr in (0.1, 0.01): Model(lr).train()`, is a program per configuration and stays
    silent). A lambda, nested def or partial bound to a name beside the call
    (in the same function, at the same loop level: `_T = lambda v: T(v, params)` then
    `solve(_T, v0)`) is reported where it is defined, the call as evidence. Also: a default made anew when the caller gives none
    (`fn or (lambda x: x)`, `fn if fn else ...`, `if fn is None: fn = lambda ...`) in a
    repeated function, reported once per call; two instances of a class that defines
    `__hash__` but not `__eq__` (it compares by identity; also through its bases, across
    modules), also as the body of `lax.scan`/`fori_loop`/`while_loop`/`cond` called outside
    jit (`jaxfacts.EAGER_LAX_FUNCTION_PARAMS`); and an `equinox.Module` instance whose field
    holds a jitted function, lambda, nested def or partial made per instance (`self.fn =
    jax.jit(fn)` in `__init__`), passed where that field is static (any non-array field under
    `eqx.filter_jit`, a marked static field anywhere) when a second instance can arrive. And
    an NNX object built in a loop around an optax transformation made in that loop
    (`nnx.Optimizer(model, optax.adam(lr))` each epoch, also by a helper of the module that
    builds and returns it: `make_optimizer(model, lr)`) and passed to an `nnx.jit` function
    called there: the transformation is part of the object's static graph definition. The same
    on each run of a function that runs repeatedly (`train()` called per benchmark run, also
    when it hands the optimizer to a helper that calls the step), and for a flax `TrainState`
    built there with static fields made anew (`tx=optax.adam(...)`, `apply_fn=model.apply` of a
    new model; `jaxfacts.STATIC_STATE_FIELDS`) passed to any jitted step; silent when the run
    builds them from its own parameters (`optax.adam(lr)` in `train(lr)`: a sweep, where each
    run is a new program anyway).
    Under `eqx.filter_jit` every non-array argument is static: there a lambda, a nested def, a
    `functools.partial` or an optax transformation made anew (per call, or twins) is flagged
    too (a `jax.tree_util.Partial`, a Module, a plain instance are left alone there). So is a
    function transformed anew (`jax.vmap(f)`, `jax.grad(f)`: each application is a new object;
    `jaxfacts.FRESH_TRANSFORMS`). And a
    lambda, nested def or fresh transform given to a library function whose jit keys on the
    functions it is given (`jaxfacts.FUNCTION_KEYED_LIBRARY_CALLS`: `diffrax.diffeqsolve`,
    optimistix's solvers and `lineax.linear_solve` under `eqx.filter_jit`,
    `jax.experimental.ode.odeint`), directly or inside one of the library's own objects
    (`diffrax.ODETerm(vector_field)`, also through a name); not in a loop that passes another
    solver on every iteration (`jaxfacts.SOLVER_PARAMETERS`: each is a new program anyway).
    And a `jax.tree_util.Partial` over a lambda or nested def made together with it (also by a
    function or method that builds and returns it), passed as a traced argument each time the
    call repeats: the Partial is a pytree whose function is static structure, compared by
    identity (NIFTy's kernel interpolator).
    And a jitted function that stores an optax transformation, schedule or lambda it makes in a
    static field of the train state it returns (`state.replace(tx=optax.chain(...))`;
    `jaxfacts.STATIC_STATE_FIELDS`: a flax `TrainState`'s `tx` and `apply_fn`) when a loop feeds
    that state back to it (MEAL 1013dfe), and the same replacement run in the loop that calls a
    jitted step with the state (also `self.state = self.state.replace(tx=optax.adam(lr))` in a
    method the loop calls, under an `if` that changes the rate: NeuroBayes' SWA schedule).
    Silent where the call runs traced: in a jitted body, or in a
    function that is handed to a jit or transform, or whose every caller runs traced (a
    helper of a jitted loss): it is traced once with its caller.

    ## Why is this bad?
    Static arguments are compared by hash and equality; these objects are equal only to
    themselves, so every new one is a cache miss. Measured on jax 0.10.2 (CPU), 5 calls each:
    a fresh plain instance, a fresh lambda or a fresh `functools.partial` as a static argument
    compiles 5 times; a bound method of a new object compiles 5 times. The same object reused,
    an equal tuple, a frozen dataclass, a class with `__eq__` and `__hash__`, or a bound method
    of the same object compile once. Two `optax.adam(...)` with equal settings compile twice
    (optax 0.2.8); `train()` building `optax.adam` and passing it static compiles once per
    `train()`; two `jtu.Partial(f)` compile twice; `Head(2.0)(x)` with `static_argnums=0` on
    `__call__` compiles 5 times in 5 calls. A default lambda made in `train()` and passed
    static compiles on each of 5 calls (a module-level default: once); two `Scale(2.0)` with
    `__hash__` but no `__eq__` compile twice, as do two such scan bodies given to an eager
    `lax.scan` (with `__eq__`: once); a Module storing `jax.jit(activation)` per instance,
    created in a 5-step loop and passed to `eqx.filter_jit`, compiles 5 times (storing
    `activation` itself: once). Under `eqx.filter_jit` (equinox 0.13.8): a new `optax.adam`
    per `train()` compiles once per `train()` (4 in 4), two alike compile twice, one reused
    compiles once. flax 0.12.8: an `nnx.jit` epoch step given a new `nnx.Optimizer` around a
    new `optax.adam` every epoch compiles 3 times in 3 epochs (flax#5548); with one `adam`
    made before the loop, once, even with a new model and optimizer every epoch; `train()`
    building `nnx.Optimizer(model, optax.adam(1e-3))`, run 3 times: 3 compiles (1 with the
    transformation made at module level). A `TrainState.create(apply_fn=model.apply, ...,
    tx=optax.adam(1e-3))` of a new `nn.Dense` per `train()`, 3 runs: 3 compiles; with only the
    transformation hoisted still 3 (bound methods compare their object by identity); with the
    model and the transformation made once, 1. Under
    `eqx.filter_jit`, a lambda, a nested def or a `functools.partial` made on each of 5
    iterations compiles 5 times, a `jax.tree_util.Partial` over a module-level function once;
    `diffrax.diffeqsolve` (diffrax 0.7.2) given `ODETerm` of a vector field nested in the solving
    function compiles on each of 4 solves, a module-level one reading `args` once (diffrax#142).
    A method returning `jax.tree_util.Partial` over its own nested def, called for 5 kernels,
    compiles the jitted consumer 5 times; over a module-level def, once.

    A jitted training function that stores a new `optax.chain` in the `tx` of the TrainState it
    returns, fed back for 3 tasks, compiles 3 times; reset only `opt_state` and it compiles once
    (`fixtures/changing_statics/train_state_fresh_optimizer_in_returned_state.py`). An epoch
    loop that rebuilds `optax.adam(lr)` in the state's `tx` for 4 rates compiles the step 4
    times; one `optax.inject_hyperparams(optax.adam)` whose `learning_rate` is set in the
    optimizer state, once.

    ## Fix safety
    Create the object once (hoist the lambda or partial out of the loop, define the function at
    module level) and pass the same object, or give the class value equality (a frozen
    dataclass). Safe when the object captures nothing that changes between calls.
    """

    code = "JIT402"
    calling_context = True
    name = "fresh-object-static-arg"
    summary = "a new lambda, function, partial or identity-hashed object as a static argument recompiles every call"
    # eager lax bodies (lax.cond: with them)
    # and the library calls whose jit keys on the functions given to them
    prefilter_names = frozenset({"jax.lax.scan", "jax.lax.fori_loop", "jax.lax.while_loop"}) \
        | FUNCTION_KEYED_LIBRARY_CALLS

    INVALID = [
        """
        from functools import partial

        import jax
        import jax.numpy as jnp

        @partial(jax.jit, static_argnums=0)
        def apply(fn, x):
            return fn(x)

        x = jnp.ones(3)
        for step in range(5):
            x = apply(lambda v: v * 2.0, x)
        """,
    ]
    VALID = [
        """
        from functools import partial

        import jax
        import jax.numpy as jnp

        @partial(jax.jit, static_argnums=0)
        def apply(fn, x):
            return fn(x)

        double = lambda v: v * 2.0
        x = jnp.ones(3)
        for step in range(5):
            x = apply(double, x)
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        defaults: dict[cst.Call, list[tuple[StaticUse, Fresh]]] = {}
        for use in static_uses(ctx):
            fresh = fresh_value(ctx, use)
            if use.spec.filtering and (fresh is None or not kept_static_by_filtering(ctx, use, fresh)):
                continue
            if fresh is not None and fresh.default is not None:
                defaults.setdefault(use.site.node, []).append((use, fresh))
            elif fresh is not None and fresh.kind != "jit":
                made = _made_beside(ctx, use) if fresh.kind in ("lambda", "def", "partial") else None
                yield Violation(made or use.arg, (
                    f"{use.where()} is {fresh.what} {fresh.when}; it is equal only to itself, so "
                    f"`{use.callee}` recompiles on every call; {fresh.fix}"),
                    related=((use.arg, f"passed to `{use.callee}` here"),) if made is not None else (),
                    repeated_at=use.arg if made is not None else None, runs_at_repeat=made is not None)
        for call, found in defaults.items():
            yield _defaults_made_per_call(call, found)
        for use in instance_uses(ctx):
            problem = use.problem
            if problem.kind == FRESH:
                yield Violation(use.arg, (
                    f"a `{problem.cls}` instance made {use.when} is passed to `{use.callee}`, and its field "
                    f"`{problem.field}` holds {problem.what} for each instance; that field is "
                    f"static there (not an array) and equal only to itself, so `{use.callee}` "
                    f"recompiles for every new instance; store a long-lived function (define or "
                    f"jit it once at module level) in `{problem.field}`"),
                    related=((problem.value, "the object made for each instance"),))
        yield from _fresh_static_receivers(ctx)
        yield from _optimizers_with_fresh_transformations(ctx)
        yield from _fresh_functions_into_filtered_library_calls(ctx)
        yield from _tree_partials_over_fresh_functions(ctx)
        yield from _fresh_static_fields_fed_back(ctx)
        yield from _static_fields_replaced_in_loops(ctx)
        for use, fresh, first in twin_objects(ctx):
            earlier = " ".join(cst.Module([]).code_for_node(first.value).split())
            yield Violation(use.arg, (
                f"{use.where()} is {fresh.what}, created separately from `{earlier}` passed in "
                f"an earlier call; it is equal only to itself, so `{use.callee}` compiles again; "
                f"{fresh.fix}"))


def _made_beside(ctx: FileContext, use: StaticUse) -> Optional[cst.CSTNode]:
    """Where a function passed at a static position (a lambda, a nested def, a partial) is
    defined, when that is beside the call (the
    same function or module code, at the same loop level): ``_T = lambda v: T(v, params)`` or
    ``def rhs_fn(G): ...`` before ``solve(_T, v0)``.  The fix goes there (make it once,
    outside), so the finding does.  Made once before a loop that calls with it, the object
    recompiles per run of the code around the loop, and the finding stays at the call."""
    if not isinstance(use.value, cst.Name):
        return None
    made = origin(value_flow(ctx), use.value, use.scope, use.site.frame)
    if made is None or made[1] is not use.scope or made[0] is use.value or made[2] is not use.site.frame:
        return None
    node = made[0]
    return node.name if isinstance(node, cst.FunctionDef) else node


def _fresh_static_receivers(ctx: FileContext) -> Iterator[Violation]:
    """A jitted method with a static ``self`` called on a new identity-hashed instance each
    time, reported at the call (where the instance arrives; reusing one is a fix there), with
    where ``self`` is marked static as evidence (the other fix: a traced ``self``)."""
    reported = set()
    for receiver in static_receivers(ctx):
        fresh = fresh_receiver(ctx, receiver)
        through = None
        if fresh is None:
            found = fresh_self(ctx, receiver)
            fresh, through = found if found is not None else (None, None)
        if fresh is None or fresh.kind not in ("instance", "hashed-instance"):
            continue
        name = f"{receiver.cls.name.value}.{receiver.method}"
        if through is not None:
            if (id(receiver.marking), id(through.node)) in reported:
                continue  # one finding per marking and loop call
            reported.add((id(receiver.marking), id(through.node)))
            outer = through.node.func.attr.value  # type: ignore[attr-defined]
            call = source_text(through.node, 50)
            yield Violation(receiver.receiver, (
                f"`{name}` is jitted with a static `self`, and `{outer}` calls it on {fresh.what}, "
                f"{fresh.when} (`{call}`): each instance is a new cache key, "
                f"so `{name}` compiles again for every one; make `self` traced instead of static "
                f"(register `{receiver.cls.name.value}` as a pytree: an equinox Module, a flax "
                f"struct dataclass), or jit a function of the arrays at module level"),
                related=((receiver.marking, "`self` marked static"), (through.node, "called on each instance here")))
            continue
        yield Violation(receiver.receiver, (
            f"`{name}` is jitted with a static `self`, and called on {fresh.what} {fresh.when}: "
            f"`{name}` recompiles on every call; reuse one instance, or make `self` traced "
            f"instead of static (register `{receiver.cls.name.value}` as a pytree: an equinox "
            f"Module, a flax struct dataclass)"),
            related=((receiver.marking, "`self` marked static"),))


# Libraries whose solvers pass an ``args`` pytree to the user's function: what a nested
# function closes over goes there instead.
CLOSURE_ARGUMENTS = {"diffrax": " (pass what it closes over through `args`)",
                     "optimistix": " (pass what it closes over through `args`)"}


def _fresh_functions_into_filtered_library_calls(ctx: FileContext) -> Iterator[Violation]:
    """A lambda or nested def made each time the call runs, given to a library function whose
    jit keys on the functions it is given (``jaxfacts.FUNCTION_KEYED_LIBRARY_CALLS``:
    ``diffrax.diffeqsolve``, ``optimistix.root_find`` ... under ``equinox.filter_jit``,
    ``jax.experimental.ode.odeint``) directly or inside one of the
    library's own objects (``diffrax.ODETerm(vector_field)``: an equinox Module, whose function
    field is a non-array leaf, so static)."""
    model = ctx.model
    context = calling_context(ctx)
    for site in model.calls:
        qualname = model.qualified_name(site.node.func, site.frame.scope)
        if qualname not in FUNCTION_KEYED_LIBRARY_CALLS or context.runs_traced(site.frame):
            continue
        package = qualname.split(".")[0]
        for arg in site.node.args:
            if arg.star:
                break
            found = _fresh_function_within(ctx, arg.value, site.frame.scope, site.frame, site, package, 0)
            if found is None:
                continue
            function, fresh = found
            if any(context.sweeps_configurations(loop, site.frame.scope, site.node)
                   for loop in site.frame.loops_in_scope()) or _solver_per_iteration(ctx, site, qualname):
                break  # each iteration solves another configuration: a new program anyway
            shown = _src_name(function)
            yield Violation(function, (
                f"`{shown}` given to `{qualname}` is {fresh.what} {fresh.when}: `{qualname}` keeps the "
                f"functions it is given static in its jit and compares them by identity, so it "
                f"recompiles on every call; {fresh.fix}{CLOSURE_ARGUMENTS.get(package, '')}"))


def _tree_partials_over_fresh_functions(ctx: FileContext) -> Iterator[Violation]:
    """A ``jax.tree_util.Partial`` over a lambda or nested def made with it, passed as a traced
    argument of a jitted function each time the call runs: the Partial is a pytree whose
    function is static structure, compared by identity (NIFTy's kernel interpolator)."""
    context = calling_context(ctx)
    for jc in jitted_calls(ctx):
        site = ctx.model.call_site_of[jc.call]
        if context.runs_traced(site.frame):
            continue
        for arg in jc.dynamic_args():
            found = fresh_tree_partial(ctx, arg.value, site)
            if found is None:
                continue
            function, what, fresh = found
            shown = f"`{function.name.value}`" if isinstance(function, cst.FunctionDef) else "the lambda"
            # reported at the function: defining it once is the fix
            yield Violation(function.name if isinstance(function, cst.FunctionDef) else function, (
                f"{shown} is wrapped in a `jax.tree_util.Partial` passed to `{jc.name}`, and made anew "
                f"{fresh.when}: the function is the static part of the Partial's pytree and equal only "
                f"to itself, so `{jc.name}` recompiles on every call; define it once at module level "
                f"and pass what changes as the Partial's arguments"),
                related=((arg.value, f"passed to `{jc.name}` here"),))


def _solver_per_iteration(ctx: FileContext, site, qualname: str) -> bool:
    """The solver argument (jaxfacts.SOLVER_PARAMETERS) is a name bound in the loop around the
    call (``for solver in solvers:``, ``solver = implicit_tol(solver)``): another algorithm,
    so another program, on every iteration."""
    parameter = SOLVER_PARAMETERS.get(qualname)
    if parameter is None:
        return False
    position, keyword = parameter
    positional = [a.value for a in site.node.args if a.keyword is None and not a.star]
    value = positional[position] if position < len(positional) else next(
        (a.value for a in site.node.args if a.keyword is not None and a.keyword.value == keyword), None)
    if not isinstance(value, cst.Name):
        return False
    spans = [span for loop in site.frame.loops_in_scope() if (span := ctx.model.span(loop)) is not None]
    return any(start <= ctx.model.order(binding.node) < end
               for binding in ctx.model.lookup(value.value, site.frame.scope) for start, end in spans)


def _fresh_function_within(ctx: FileContext, value: cst.BaseExpression, scope: Scope, frame: Frame, site,
                           package: str, depth: int) -> Optional[tuple[cst.BaseExpression, Fresh]]:
    """``value`` (evaluated in ``frame``) itself, or an argument of a constructor of ``package``
    it calls (``diffrax.ODETerm(f)``, also through a name bound once in the calling function:
    ``term = diffrax.ODETerm(f)``), when that is a lambda or nested def made anew each time
    the call at ``site`` runs."""
    created = created_object(ctx, value, scope, frame)
    if created is not None and created[0] in ("lambda", "def", "transform"):
        fresh = fresh_when(ctx, created[0], created[2], created[1], site)
        return (value, fresh) if fresh is not None else None
    if depth >= 2:
        return None
    if isinstance(value, cst.Name):
        binding = value_flow(ctx).single(value, scope)
        made = assigned(binding).value if binding is not None and binding.frame is not None else None
        return None if made is None else \
            _fresh_function_within(ctx, made, binding.scope, binding.frame, site, package, depth + 1)
    if isinstance(value, cst.Call) and (ctx.model.qualified_name(value.func, scope) or "").startswith(package + "."):
        for inner in value.args:
            if inner.star:
                return None
            found = _fresh_function_within(ctx, inner.value, scope, frame, site, package, depth + 1)
            if found is not None:
                return found
    return None


def _optimizers_with_fresh_transformations(ctx: FileContext) -> Iterator[Violation]:
    """An object whose static part holds an optax transformation made anew, passed to a jitted
    function: an NNX object (``nnx.Optimizer(model, optax.adam(1e-3))``) given to an ``nnx.jit``
    function, whose graph definition holds it (flax#5548), or a library train state whose static
    field holds it (``TrainState.create(..., tx=optax.adam(1e-3))``,
    ``jaxfacts.STATIC_STATE_FIELDS``) given to any jit.  Made in the loop that calls, or on each
    run of a function that runs repeatedly; the transformation hashes by identity."""
    model = ctx.model
    context = calling_context(ctx)
    for func, entry in jitted_functions(ctx).items():
        if not isinstance(func, cst.FunctionDef):
            continue
        nnx = any(app.jit.qualname == NNX_JIT for app in entry.apps)
        binding = next((b for b in model.functions[func].scope.bindings.get(func.name.value, ())
                        if b.node is func), None)
        for site in model.calls_to(binding) if binding is not None else ():
            if context.runs_traced(site.frame):
                continue
            loops = site.frame.loops_in_scope()
            for arg in site.node.args:
                value = _state_before_feedback(ctx, arg.value, site)
                held = _fresh_transformation_inside(ctx, value, site, loops, nnx) if loops else None
                if held is not None:
                    where, when, fix = ("in this loop", "on every iteration",
                                        "create the transformation once before the loop (or reuse the optimizer)")
                else:
                    per_run = _fresh_transformation_per_run(ctx, value, site, func, nnx)
                    if per_run is None:
                        continue
                    held, caller, evidence = per_run
                    where, when, fix = (f"in `{caller.name.value}`", f"on every run of `{caller.name.value}` ({evidence})",
                                        "create the transformation once at module level and pass it in")
                made, fields = held
                if fields is None:
                    what = (f"an NNX object built {where} around `{_src_name(made)}`, a new optax transformation "
                            f"each time; it is part of the object's static graph definition and its functions "
                            f"hash by identity")
                else:
                    what = (f"a train state built {where} with {' and '.join(fields)}, made anew each time; "
                            f"{'these are static fields' if len(fields) > 1 else 'that is a static field'}, part "
                            f"of the state's pytree structure, compared by identity (a bound method by its object)")
                    objects = " and ".join(dict.fromkeys(
                        "the transformation" if shown.startswith("`tx=") else "the model" for shown in fields))
                    fix = fix.replace("the transformation", objects).replace(
                        "pass it in", "pass them in" if " and " in objects else "pass it in")
                yield Violation(site.node, (
                    f"`{_src_name(arg.value)}` passed to {'nnx.jit' if nnx else 'jitted'} `{func.name.value}` is "
                    f"{what}, so `{func.name.value}` recompiles {when}; {fix}"),
                    related=((made, "made anew here"),))
                break


def _state_before_feedback(ctx: FileContext, value: cst.BaseExpression, site) -> cst.BaseExpression:
    """``state`` at ``state, loss = train_step(state, batch)`` in a loop: the one value it has
    before the loop (``state = TrainState.create(...)``), the other bindings reaching the call
    being the call's own results (a train state's step keeps its static fields)."""
    if not isinstance(value, cst.Name):
        return value
    reaching = value_flow(ctx).reaching(value, site.frame.scope)
    others = [b for b in reaching if not (isinstance(b.node, cst.Assign) and b.node.value is site.node)]
    if len(others) != 1 or len(others) == len(reaching):
        return value
    start = assigned(others[0]).value
    return start if start is not None else value


def _fresh_transformation_per_run(ctx: FileContext, value: cst.BaseExpression, site, jitted: cst.FunctionDef,
                                  nnx: bool) -> Optional[tuple[tuple[cst.CSTNode, Optional[list[str]]], cst.FunctionDef, str]]:
    """What ``_transformation_built_around`` finds for ``value`` made on each run of a function
    that runs repeatedly (a benchmark's ``train()`` per run, a sweep): the function around
    ``site``, or one that passes the object to it as a parameter (``train()`` building the
    optimizer, ``train_epoch(model, optimizer, loader)`` calling the step: jax_projects'
    MNIST); with the function and the evidence of its repetition."""
    context = calling_context(ctx)
    caller = site.frame.enclosing_function()
    if caller is None or caller is jitted:
        return None
    candidates = [(value, site, caller)]  # (the object, where it is passed, the function run again)
    binding = ctx.model.single_binding(value.value, site.frame.scope) if isinstance(value, cst.Name) else None
    if binding is not None and binding.kind == "param":
        for passed, passing in context.passed_to(binding) or ():
            outer = passing.frame.enclosing_function()
            if outer is not None and outer is not jitted and not context.runs_traced(passing.frame):
                candidates.append((passed, passing, outer))
    for candidate, at, function in candidates:
        evidence = context.repetition_evidence(function)
        held = _fresh_transformation_inside(ctx, candidate, at, [function], nnx) if evidence is not None else None
        if held is not None and not _configured_by_parameters(ctx, held[0], function):
            return held, function, evidence
    return None


def _configured_by_parameters(ctx: FileContext, made: cst.CSTNode, function: cst.FunctionDef) -> bool:
    """``optax.adam(lr)`` (or ``CNN(features=config.features)``) in ``train(lr)``: made from the
    run's own parameters, so each run of a sweep may be a new program anyway: not a needless
    recompile to report."""
    scope = ctx.model.scope_of.get(function)
    flow = value_flow(ctx)
    if scope is None or not isinstance(made, cst.Call):
        return False
    for arg in made.args:
        for name in names_in(arg.value):
            if any(b.kind == "param" and b.scope is scope for b in flow.reaching(name, scope)):
                return True
    return False


def _fresh_transformation_inside(ctx: FileContext, value: cst.BaseExpression, site, loops: list, nnx: bool
                                 ) -> Optional[tuple[cst.CSTNode, Optional[list[str]]]]:
    """What ``_transformation_built_around`` finds for ``value`` made in one of ``loops`` (or
    functions); also in a helper of this module called there that builds and returns the
    object (``make_optimizer(model, lr)``: a new transformation per call)."""
    model = ctx.model
    spans = [model.span(loop) for loop in loops]
    held = _transformation_built_around(value, site.frame.scope, site.frame, model, spans, nnx)
    if held is not None:
        return held
    origin = model.value_origin(value, site.frame.scope, site.frame)
    if origin is None or not isinstance(origin[0], cst.Call) \
            or not any(start < model.order(origin[0]) < end for start, end in spans):
        return None
    for returned in returned_values(model, value_flow(ctx), origin[0], origin[1]):
        function = returned.function
        held = _transformation_built_around(returned.value, returned.scope, returned.frame, model,
                                            [model.span(function)], nnx)
        if held is not None:
            return held
    return None


def _transformation_built_around(value: cst.BaseExpression, scope, frame, model, spans: list, nnx: bool
                                 ) -> Optional[tuple[cst.CSTNode, Optional[list[str]]]]:
    """The object made within ``spans`` that ``value`` holds in its static part (an
    ``optax.*(...)`` call, or the model whose bound method it holds), with, for a train state,
    every static field given an object made there (None: an NNX object's graph): an NNX object built around it (``nnx.Optimizer(model, optax.adam(lr))``,
    under ``nnx.jit``), or a train state given it for a static field
    (``TrainState.create(apply_fn=model.apply, params=..., tx=optax.adam(lr))``; a bound method
    of a model made there is fresh too: bound methods compare their object by identity)."""
    origin = model.value_origin(value, scope, frame)
    if origin is None or not isinstance(origin[0], cst.Call):
        return None
    call, call_scope, call_frame = origin

    def made_within(expr: cst.BaseExpression) -> Optional[cst.CSTNode]:
        inner = model.value_origin(expr, call_scope, call_frame)
        if inner is None or not isinstance(inner[0], cst.Call) \
                or not any(start < model.order(inner[0]) < end for start, end in spans):
            return None
        return inner[0]

    def optax_made(expr: cst.BaseExpression) -> Optional[cst.Call]:
        made = made_within(expr)
        qualname = model.qualified_name(made.func, call_scope) if isinstance(made, cst.Call) else None
        return made if (qualname or "").startswith("optax.") else None  # type: ignore[return-value]

    if nnx and creates_nnx_object(value, scope, frame, model):
        made = next((found for arg in call.args if (found := optax_made(arg.value)) is not None), None)
        return (made, None) if made is not None else None
    fields = _static_state_fields(model.qualified_name(call.func, call_scope))
    fresh: list[tuple[str, cst.CSTNode]] = []
    for arg in call.args:
        if arg.keyword is None or arg.keyword.value not in fields:
            continue
        made = optax_made(arg.value) or (  # ``model.apply`` of a model made there
            made_within(arg.value.value) if isinstance(arg.value, cst.Attribute) else None)
        if made is not None:
            fresh.append((f"`{arg.keyword.value}={_src_name(arg.value)}`", made))
    return (fresh[0][1], [shown for shown, _ in fresh]) if fresh else None


def _static_state_fields(qualname: Optional[str]) -> frozenset[str]:
    """The static fields of the train state ``qualname`` makes (the class, or its ``create``)."""
    if qualname is None:
        return frozenset()
    return STATIC_STATE_FIELDS.get(qualname.removesuffix(".create"), frozenset())


def _src_name(expr: cst.BaseExpression) -> str:
    return " ".join(cst.Module([]).code_for_node(expr).split())


def _defaults_made_per_call(call: cst.Call, found: list[tuple[StaticUse, Fresh]]) -> Violation:
    """One finding for the call: every default it makes is the same mistake with one fix."""
    use, fresh = found[0]
    names = ", ".join(f"`{u.param}`" for u, _ in found)
    what = f"static argument {names} of `{use.callee}` gets" if len(found) == 1 else \
        f"static arguments {names} of `{use.callee}` get"
    fix = fresh.fix if len(found) == 1 else (
        "define each default once at module level and use it when none is given "
        "(`fn if fn is not None else _default_fn`)")
    return Violation(call, (
        f"{what} a default made anew ({fresh.what}) when the caller gives none, {fresh.when}; "
        f"it is equal only to itself, so `{use.callee}` recompiles on every call; {fix}"),
        related=tuple((f.made, f"the default for `{u.param}`, made here") for u, f in found
                      if f.made is not None))


def _static_fields_replaced_in_loops(ctx: FileContext) -> Iterator[Violation]:
    """``state = state.replace(tx=optax.adam(lr))`` run in the loop that calls a jitted step with
    ``state``: a learning rate changed by rebuilding the optimizer."""
    reported = set()
    for found in static_fields_replaced_in_loops(ctx):
        if id(found.replace) in reported:
            continue
        reported.add(id(found.replace))
        callee = found.jc.name
        func = found.made.func if isinstance(found.made, cst.Call) else None
        made = f"a new `{cst.Module([]).code_for_node(func)}(...)`" if func is not None else "a new lambda"
        when = "each time it runs in the loop" if found.conditional else "on every iteration of the loop"
        fix = ("keep one `tx` and change the rate inside the optimizer state: build it with "
               "`optax.inject_hyperparams(...)` and set `opt_state.hyperparams['learning_rate']`, "
               "or give the optimizer a schedule") if found.field == "tx" else \
            "build it once outside the loop and keep it in the state"
        replace = source_text(found.replace, 60)
        yield Violation(found.replace, (
            f"`{replace}` stores {made} in the static field `{found.field}` of the state passed to "
            f"`{callee}`, {when}: a static field is part of the pytree's structure and this object "
            f"is equal only to itself, so `{callee}` (and every jit the state reaches) compiles "
            f"again each time; {fix}"),
            related=((found.jc.call, f"`{callee}` called with the state here"),),
            repeated_at=found.jc.call, runs_at_repeat=True)


def _fresh_static_fields_fed_back(ctx: FileContext) -> Iterator[Violation]:
    """``state = state.replace(tx=optax.chain(...))`` in a jitted function whose returned state
    comes back to it in a loop: the static field holds a new object on every call."""
    for found in fresh_static_fields(ctx):
        callee = found.fed.jc.func.name.value
        func = found.made.func if isinstance(found.made, cst.Call) else None
        made = f"a new `{cst.Module([]).code_for_node(func)}(...)`" if func is not None else "a new lambda"
        yield Violation(found.replace, (
            f"`{callee}` stores {made}, made on every call, in the static field `{found.field}` of "
            f"the state it returns, and the loop feeds that state back: a static field is part of "
            f"the pytree's structure and this object is equal only to itself, so `{callee}` (and "
            f"every jit the state reaches) recompiles on every call; build it once outside the jit "
            f"and keep it in the state (reset only `opt_state`, with the same `tx`)"),
            related=((found.fed.arg, f"`{found.fed.name}` fed back to `{callee}` here"),),
            repeated_at=found.fed.arg, runs_at_repeat=True)
