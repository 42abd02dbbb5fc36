from typing import Iterator, Optional

import libcst as cst

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._context import CallingContext, calling_context
from jitlint.rules._jitted import jitted_functions
from jitlint.rules._nnx import own_nodes
from jitlint.semantic import CallSite, Scope, SemanticModel

# lax control flow: run eagerly, each call traces its body function and compiles it again
# unless it is the very same function object as last time.
LAX_CONTROL_FLOW = {  # qualname -> positions of the function arguments
    "jax.lax.fori_loop": (2,), "jax.lax.while_loop": (0, 1), "jax.lax.scan": (0,),
    "jax.lax.cond": (1, 2), "jax.lax.switch": (1,), "jax.lax.map": (0,),
}
# optax transformations whose update runs a line search (lax.while_loop/cond) inside.
LINE_SEARCH_OPTIMIZERS = frozenset({
    "optax.lbfgs", "optax.scale_by_zoom_linesearch", "optax.scale_by_backtracking_linesearch",
    "optax.polyak_sgd",
})
CHAINS = frozenset({"optax.chain", "optax.named_chain"})
TIMERS = frozenset({"time.time", "time.perf_counter", "time.perf_counter_ns", "time.monotonic",
                    "time.process_time", "timeit.timeit", "timeit.repeat", "jax.clear_caches"})


class EagerLaxControlFlowInLoop(Rule):
    """
    ## What it does
    Flags, in a Python loop outside traced code (a jitted or transformed function, or one
    whose every caller in the module runs traced, like an environment's `step` used only as
    `jax.jit(env.step)`), a call that runs lax control flow
    eagerly: the `update` of an optax optimizer with a line search (`optax.lbfgs`,
    `optax.scale_by_zoom_linesearch`, ..., also inside `optax.chain`), or a function of this module that calls
    `lax.fori_loop`/`while_loop`/`scan`/`cond`/`switch` with a body it defines itself (a local
    `def` or a lambda). Only `for`/`while` loops; benchmark loops (timers,
    `jax.clear_caches()`, `while state:`) and sweeps over a literal list of configurations
    that the call reads (written inline, or bound to a name first: `sizes = (64, 128)`, also
    a `range`) are left alone.

    ## Why is this bad?
    Outside jit, each lax control-flow call traces its body and compiles it; JAX reuses the
    compiled body only for the very same function object, and a body defined inside the
    function is new on every call. Measured on jax 0.10.2, optax 0.2.8 (CPU): 10 eager
    L-BFGS steps compile 92 times (a `while`, a `cond` and two `scan`s every step); the same
    steps under one `jax.jit` compile 10 times in all, 2 of them the step. A helper running
    `lax.fori_loop` with a local body compiles on each of 5 calls; with a module-level body,
    once.

    ## Fix safety
    Jit the step (`@jax.jit def step(params, state): ...` returning the new params and state),
    or jit the helper. The results are the same up to floating-point reassociation.
    """

    code = "JIT520"
    calling_context = True
    name = "eager-lax-control-flow-in-loop"
    summary = "lax control flow run outside jit in a loop compiles on every iteration; jit the step"
    prefilter_words = ("lbfgs", "linesearch", "fori_loop", "while_loop", "scan", "switch")

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
        for site in model.calls:
            loops = [loop for loop in site.frame.loops_in_scope() if isinstance(loop, (cst.For, cst.While))]
            if not loops or context.runs_traced(site.frame):
                continue  # traced code runs once per trace of its caller's jit
            what = _line_search_update(site, model) or _eager_helper(site, model, jitted)
            if what is None or _deliberate_loop(loops, site, model, context):
                continue
            yield Violation(site.node, (
                f"{what} runs lax control flow outside jit, in a loop: its body is traced and "
                f"compiled again on every iteration; jit the step (or the helper) once"))


def _line_search_update(site: CallSite, model: SemanticModel) -> Optional[str]:
    func = site.node.func
    if not (isinstance(func, cst.Attribute) and func.attr.value == "update"
            and isinstance(func.value, cst.Name)):
        return None
    origin = model.value_origin(func.value, site.frame.scope, site.frame)
    if origin is None or not isinstance(origin[0], cst.Call):
        return None
    qualname = _line_search(origin[0], origin[1], model)
    if qualname is None:
        return None
    return f"`{func.value.value}.update` ({qualname}, a line search)"


def _line_search(call: cst.Call, scope: Scope, model: SemanticModel) -> Optional[str]:
    """The line-search optimizer ``call`` builds, also inside ``optax.chain(...)``."""
    qualname = model.qualified_name(call.func, scope)
    if qualname in LINE_SEARCH_OPTIMIZERS:
        return qualname
    if qualname in CHAINS:
        for arg in call.args:
            if isinstance(arg.value, cst.Call):
                found = _line_search(arg.value, scope, model)
                if found is not None:
                    return found
    return None


def _eager_helper(site: CallSite, model: SemanticModel, jitted: set) -> Optional[str]:
    func = site.node.func
    if not isinstance(func, cst.Name):
        return None
    bindings = model.bindings_at(func, site.frame.scope)
    if len(bindings) != 1 or bindings[0].kind != "def":
        return None
    helper = bindings[0].node
    if not isinstance(helper, cst.FunctionDef) or helper in jitted or helper.decorators:
        return None
    if site.frame.is_inside(helper):
        return None  # a recursive call (an interpreter): it runs wherever its caller does
    control = _control_flow_with_local_body(helper, model)
    if control is None:
        return None
    return f"`{helper.name.value}` (its `{control}` with a body defined inside it)"


def _control_flow_with_local_body(helper: cst.FunctionDef, model: SemanticModel) -> Optional[str]:
    scope = model.scope_of[helper]
    local_defs = {n.name.value for n in own_nodes(helper.body) if isinstance(n, cst.FunctionDef)}
    for node in own_nodes(helper.body):
        if not isinstance(node, cst.Call):
            continue
        qualname = model.qualified_name(node.func, scope)
        if qualname not in LAX_CONTROL_FLOW:
            continue
        positional = [a.value for a in node.args if a.keyword is None and not a.star]
        for index in LAX_CONTROL_FLOW[qualname]:
            if index < len(positional) and _is_local_function(positional[index], local_defs, scope, model):
                return qualname.replace("jax.lax.", "lax.")
    return None


def _is_local_function(expr: cst.BaseExpression, local_defs: set[str], scope: Scope,
                       model: SemanticModel) -> bool:
    if isinstance(expr, cst.Lambda):
        return True
    if isinstance(expr, cst.Name) and expr.value in local_defs:
        bindings = model.lookup(expr.value, scope)
        return bool(bindings) and all(b.scope is scope for b in bindings)
    return False


def _deliberate_loop(loops: list, site: CallSite, model: SemanticModel, context: CallingContext) -> bool:
    """A loop that times or clears the cache (the recompiles are what it measures), or a
    sweep over a literal list of configurations that the call reads (each is a new program;
    jit would compile each one too)."""
    for loop in loops:
        if context.sweeps_configurations(loop, site.frame.scope, site.node):
            return True
        for node in own_nodes(loop):
            if isinstance(node, cst.Call) and model.qualified_name(node.func, site.frame.scope) in TIMERS:
                return True
        if isinstance(loop, cst.While) and isinstance(loop.test, cst.Name):
            return True  # ``while state:`` (google-benchmark style)
    return False
