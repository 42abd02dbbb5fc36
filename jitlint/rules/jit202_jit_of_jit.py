from jitlint.rules._fresh import FreshCallableRule


class JitOfJit(FreshCallableRule):
    """
    ## What it does
    Flags `jax.jit(jax.jit(f))` (any jit-like of a jit-like) where the inner jitted function is
    created anew each time the surrounding code runs and that code runs repeatedly (a loop body,
    or a function called again and again), and the result is called there.

    ## Why is this bad?
    Re-wrapping a *long-lived* function is cheap: `jax.jit(f)` of a module-level `f` in a loop
    compiles once (the cache is keyed on `f`). But the inner `jax.jit(f)` is a new object on
    every run, so the outer jit sees a new function each time. Measured on jax 0.10.2 (CPU):
    `jax.jit(jax.jit(f))(x)` in a 5-step loop compiles 5 times in 5 calls; one jit created
    once compiles once. Jitting a jitted function adds nothing: one jit is enough.

    ## Fix safety
    Drop the inner (or outer) jit and create the jitted function once, outside the loop.
    Safe: a jit of a jit computes the same thing as one jit.
    """

    code = "JIT202"
    calling_context = True
    name = "jit-of-jit"
    summary = "jit of a jit-wrapped function created on every iteration or call recompiles every time"
    kinds = ("jit-of-jit",)

    INVALID = [
        """
        import jax
        import jax.numpy as jnp

        def double(x):
            return 2.0 * x

        x = jnp.ones(3)
        for step in range(5):
            x = jax.jit(jax.jit(double))(x)
        """,
    ]
    VALID = [
        """
        import jax
        import jax.numpy as jnp

        def double(x):
            return 2.0 * x

        double_jit = jax.jit(double)
        x = jnp.ones(3)
        for step in range(5):
            x = jax.jit(double_jit)(x)  # re-wrapping a long-lived function: one compile
        """,
    ]
