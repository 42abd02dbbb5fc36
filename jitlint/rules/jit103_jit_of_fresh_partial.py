from jitlint.rules._fresh import FreshCallableRule


class JitOfFreshPartial(FreshCallableRule):
    """
    ## What it does
    Flags jit of a `functools.partial(...)` or `jax.tree_util.Partial(...)` built in the code
    that runs the jit.

    ## Why is this bad?
    Each `partial(...)` call is a new object, and JAX caches compiled code per wrapped object, so
    equal arguments do not help. Measured on jax 0.10.2 (CPU): `jax.jit(functools.partial(f, 2.0))`
    in a 5-step loop compiles 5 times in 5 calls (also with `jax.tree_util.Partial`); the same
    partial built once before the loop compiles once.

    ## Fix safety
    Safe to hoist when the bound arguments do not change between iterations; otherwise make
    them arguments of the jitted function (static when they must be Python values).
    """

    code = "JIT103"
    calling_context = True
    name = "jit-of-fresh-partial"
    summary = "jit of a partial built on every iteration or call recompiles every time"
    kinds = ("partial",)

    INVALID = [
        """
        import functools
        import jax
        import jax.numpy as jnp

        def scale(a, x):
            return a * x

        x = jnp.ones(3)
        for step in range(5):
            x = jax.jit(functools.partial(scale, 0.5))(x)
        """,
    ]
    VALID = [
        """
        import functools
        import jax
        import jax.numpy as jnp

        def scale(a, x):
            return a * x

        halve = jax.jit(functools.partial(scale, 0.5))
        x = jnp.ones(3)
        for step in range(5):
            x = halve(x)
        """,
    ]
