from jitlint.rules._fresh import FreshCallableRule


class JitOfLambda(FreshCallableRule):
    """
    ## What it does
    Flags `jax.jit(lambda ...)` (or any jit-like wrapper: `pjit`, `jax.pmap`, `nnx.jit`, a
    project's own `def my_jit(f, **kw): return jax.jit(f, **kw)`), and an eager
    `jax.lax.scan`/`fori_loop`/`while_loop`/`map` outside any jit, given a lambda created anew
    each time the surrounding code runs.
    It fires where the code that builds the callable runs more than once: in a loop body that
    calls the result, or in a function that calls the result (every call of that function
    compiles, whether or not its callers are in view; a caller seen in a loop is named as
    evidence). A function that builds the jit once and reuses it in its own loop is reported
    only when it is itself seen to repeat (a `train_epoch` called per epoch), and a factory
    only when its result (or a tuple element of it) is called per iteration. The same jit
    written twice in one block is reported at the second. Silent: module top level,
    `if __name__ == "__main__":`, `main`/`train`/`fit`-like entry points, test files and
    tests, `__init__`/`setUp`, functions only called from code that runs once or from jitted
    bodies, memoised factories (`functools.cache`, `*cache*`/`*memo*` decorators), lazy init,
    jits stored on objects or returned, `inline=True`, `.lower()`/`.trace()` only.
    When the lambda reads the loop's own variable only as an operand of array arithmetic
    (`for lr in lrs: jax.jit(lambda p, g: p - lr * g)`), the message says to pass it as an
    argument; when the variable shapes the program (sizes, branches) or the loop times each
    variant (an autotuning sweep), one compile per value is inherent and nothing is reported.
    (Like every rule, this one reads only files that mention `jit` or `pmap`.)

    ## Why is this bad?
    JAX caches compiled code on the identity of the wrapped function. A new lambda is a new
    object, so every iteration traces and compiles again. Measured on jax 0.10.2 (CPU):
    `jax.jit(lambda x: x + 1)(x)` in a 5-step loop compiles 5 times in 5 calls; the same lambda
    bound once before the loop compiles once. `jax.lax.scan(lambda ...)` run eagerly in a
    5-step loop compiles the scan 5 times. `jax.jit(lambda p, g: p - lr * g)` per `lr` compiles
    once per value; `jax.jit(lambda p, g, lr: p - lr * g)` built once compiles once for all.

    ## Fix safety
    Hoisting is safe when the lambda reads nothing that changes from one iteration to the next;
    pass such values as arguments instead of closing over them.
    """

    code = "JIT101"
    name = "jit-of-lambda"
    summary = "jit of a lambda created on every iteration or call recompiles every time"
    kinds = ("lambda",)

    INVALID = [
        """
        import jax
        import jax.numpy as jnp

        x = jnp.ones(3)
        for step in range(5):
            x = jax.jit(lambda v: v * 2.0)(x)
        """,
        """
        import jax

        def scale(x):
            return jax.jit(lambda v: v * 2.0)(x)

        for step in range(5):
            scale(step)
        """,
    ]
    VALID = [
        """
        import jax
        import jax.numpy as jnp

        double = jax.jit(lambda v: v * 2.0)
        x = jnp.ones(3)
        for step in range(5):
            x = double(x)
        """,
        """
        import jax

        @jax.jit
        def outer(x):
            return jax.jit(lambda v: v + 1)(x)  # inlined into outer's trace
        """,
    ]
