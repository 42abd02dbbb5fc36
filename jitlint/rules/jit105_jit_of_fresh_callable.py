from jitlint.rules._fresh import FreshCallableRule


class JitOfFreshCallable(FreshCallableRule):
    """
    ## What it does
    Flags jit of a callable built in place on every run: a transformed function
    (`jax.jit(jax.grad(f))`, `jax.vmap`, `jax.value_and_grad`, ...) or a new instance of a callable
    class of this module (`jax.jit(Model())`), in a loop or a repeatedly called function that
    calls the result.

    ## Why is this bad?
    `jax.grad(f)` returns a new function object on every call, and a new instance is a new
    object; JAX caches compiled code per wrapped object. Measured on jax 0.10.2 (CPU):
    `jax.jit(jax.grad(f))` or `jax.jit(jax.vmap(f))` in a 5-step loop compiles 5 times in 5
    calls, and so does `jax.jit(Model())`. The transformation itself is cheap; jitting the result
    once is the fix.

    ## Fix safety
    Safe to hoist: `jax.grad(f)` of a module-level `f` does not depend on the iteration.
    """

    code = "JIT105"
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
        """,
    ]
