from typing import Iterator

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._static import fresh_value, static_uses


class FreshJitAsStaticArg(Rule):
    """
    ## What it does
    Flags a jitted function that is created anew each time the code runs (`jax.jit(f)` in a
    loop, a nested `@jax.jit def`) and passed as a static argument of another jitted function.
    The callee may be defined in this module or imported from another linted module.

    ## Why is this bad?
    A static argument is part of the compilation cache key, and a jit-wrapped function hashes by
    identity: every new wrapper is a new key, so the *outer* function compiles again on every
    call. Measured on jax 0.10.2 (CPU): `g(jax.jit(f), x)` with `g` jitted with
    `static_argnums=0`, in a 5-step loop, compiles `g` 5 times; passing one `f_jit = jax.jit(f)`
    created once compiles `g` once. Calling a jitted function *inside* another jitted function
    is inlined and costs nothing extra; that stays silent.

    ## Fix safety
    Jit the function once (at module level, or before the loop) and pass that object. Safe
    unless the function closes over values that change between calls; pass those as arguments.
    """

    code = "JIT201"
    calling_context = True
    name = "fresh-jit-as-static-arg"
    summary = "a jitted function created per call, passed as a static argument, recompiles the callee every call"

    INVALID = [
        """
        from functools import partial

        import jax
        import jax.numpy as jnp

        def square(x):
            return x * x

        @partial(jax.jit, static_argnums=0)
        def apply(fn, x):
            return fn(x)

        x = jnp.ones(3)
        for step in range(5):
            x = apply(jax.jit(square), x)
        """,
    ]
    VALID = [
        """
        from functools import partial

        import jax
        import jax.numpy as jnp

        @jax.jit
        def square(x):
            return x * x

        @partial(jax.jit, static_argnums=0)
        def apply(fn, x):
            return fn(x)

        x = jnp.ones(3)
        for step in range(5):
            x = apply(square, x)
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        for use in static_uses(ctx):
            if use.spec.filtering:
                continue
            fresh = fresh_value(ctx, use)
            if fresh is not None and fresh.kind == "jit":
                yield Violation(use.arg, (
                    f"{use.where()} is {fresh.what} {fresh.when}; a jitted function hashes by "
                    f"identity, so `{use.callee}` recompiles on every call; {fresh.fix}"))
