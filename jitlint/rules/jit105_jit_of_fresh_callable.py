from jitlint.rules._fresh import FreshCallableRule


class JitOfFreshCallable(FreshCallableRule):
    """
    ## What it does
    Flags jit of a callable built in place on every run: a transformed function
    (`jax.jit(jax.grad(f))`, `jax.vmap`, `jax.value_and_grad`, `jax.shard_map` (also
    `jax.experimental.shard_map.shard_map`), `checkify.checkify`, `jax.named_call`,
    `jax.checkpoint`, and `jax.custom_vjp`/`jax.custom_jvp`/`jax.custom_gradient` objects (the
    transforms are data: `jitlint/jaxfacts.py` `FRESH_TRANSFORMS`), also held in a variable first:
    `f = jax.vmap(g); f = jax.jit(f)`), the pullback of `jax.vjp` or the function of
    `jax.linearize`, a new instance of a callable class of this module (`jax.jit(Model())`,
    hashable or not), and any `nnx.jit(...)` applied per run (nnx.jit builds a new jitted
    wrapper each time, whatever it wraps). The jitted result may be called in the loop, or
    handed there to a library call that runs it (`scipy.optimize.newton(f, x0,
    fprime=slope)`, `iminuit.Minuit(..., grad=devf)`: any function or method that is neither
    this module's, nor JAX's, nor a container's `append`). The run itself may be repeated by a
    library: a custom objective that `xgboost.train(..., obj=objective)` or a LightGBM/XGBoost
    estimator built with `objective=` (also through `super().__init__` of a subclass) calls once
    per boosting round (`jaxfacts.FUNCTION_RUNNING_CALLS`).
    Wrappers that compare equal under a cache that keys on equality stay silent:
    `eqx.filter_jit(eqx.filter_grad(f))`, `jax.pmap`/`eqx.filter_jit` of a hashable instance.

    ## Why is this bad?
    `jax.grad(f)` returns a new function object on every call, and a new instance is a new
    object; JAX caches compiled code per wrapped object. Measured on jax 0.10.2 (CPU):
    `jax.jit(jax.grad(f))` or `jax.jit(jax.vmap(f))` in a 5-step loop compiles 5 times in 5
    calls, and so does `jax.jit(Model())`, even when `Model` defines `__eq__`/`__hash__` (jit holds
    the callable weakly, so an equal new object compiles again once the old one is gone; 1
    compile when one instance is kept). `jax.jit(pullback)` of `jax.vjp(f, x)` per point
    compiles once per point, and `nnx.jit(model)(x)` per step 5 times in 5 steps. A jitted
    `jax.grad` built per fit and handed to SciPy's Newton solver compiles 5 times in 5 fits,
    once when built before the fits. `jax.jit(jax.grad(...))` built in an XGBoost objective
    compiles twice per round for a gradient and a Hessian (10 compiles in 5 rounds), and once
    each when jitted at module level; in a LightGBM classifier's bound objective, 5 in 5 rounds
    (`fixtures/fresh/grad_jitted_per_round_in_xgboost_objective.py`,
    `grad_jitted_once_for_xgboost_objective_ok.py`, `grad_jitted_in_lightgbm_objective_method.py`).
    `jax.jit(jax.shard_map(f, mesh=mesh, in_specs=..., out_specs=...))` per step compiles 5
    times in 5 steps, also for a module-level `f` (on a 1- and a 2-device CPU mesh); built and
    jitted once it compiles once, and a `shard_map` inside a jitted body is traced with it.
    `jax.jit(checkify.checkify(step))` per step compiles 4 times in 4 steps, once when built
    before the loop. A `jax.custom_vjp(loss)` object (with its `defvjp`) built per step and
    jitted compiles 5 times in 5 steps, once when built before the loop and re-jitted per step
    (`fixtures/fresh/custom_vjp_per_step.py`, `ok_custom_vjp_built_once.py`); so do
    `jax.custom_jvp` objects and `jax.named_call` (5 in 5). `tests/test_jaxfacts.py` checks every
    transform of the table: 3 compiles in 3 steps built per step, 1 built once. The
    transformation itself is cheap; jitting the result once is the fix (for a pullback, jit
    `lambda x, v: jax.vjp(f, x)[1](v)` once and pass the point as an argument).

    ## Fix safety
    Safe to hoist: `jax.grad(f)` of a module-level `f` does not depend on the iteration.
    """

    code = "JIT105"
    calling_context = True
    name = "jit-of-fresh-callable"
    summary = "jit of a transformed function or new callable instance recompiles every time"
    kinds = ("transformed", "nnx-wrapper")

    INVALID = [
        """
        import jax
        import jax.numpy as jnp

        def loss(w):
            return jnp.sum(w ** 2)

        w = jnp.ones(3)
        for _ in range(5):
            w = w - 0.1 * jax.jit(jax.grad(loss))(w)
        """,
        """
        import jax
        import jax.numpy as jnp

        def f(x):
            return jnp.tanh(x)

        for x in [jnp.ones(3), jnp.zeros(3)]:
            y, pullback = jax.vjp(f, x)
            pullback = jax.jit(pullback)
            print(pullback(jnp.ones(3)))
        """,
    ]
    VALID = [
        """
        import jax
        import jax.numpy as jnp

        def loss(w):
            return jnp.sum(w ** 2)

        grad_loss = jax.jit(jax.grad(loss))
        w = jnp.ones(3)
        for _ in range(5):
            w = w - 0.1 * grad_loss(w)
        """,        """
        import equinox as eqx
        import jax.numpy as jnp

        def loss(w):
            return jnp.sum(w ** 2)

        w = jnp.ones(3)
        for _ in range(5):
            # equinox's wrappers compare equal and filter_jit keys on equality: 1 compile
            w = w - 0.1 * eqx.filter_jit(eqx.filter_grad(loss))(w)
        """,
    ]
