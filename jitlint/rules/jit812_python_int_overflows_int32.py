from typing import Iterator

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._traced import enables_x64, tracer_uses


class PythonIntOverflowsInt32(Rule):
    """
    ## What it does
    Flags a Python int outside the int32 range (`2**31` and up, below `-2**31`) that meets a
    traced value: in arithmetic or a comparison with one (`x * 2654435761`, `x % 2**32`,
    `x < 2**40`), as a traced argument of a jitted call (`step(state, 2**40)`), or in a jitted
    function's output (`return x, 2**64`). The constant may be written through integer
    arithmetic (`1 << 40`) or a name bound once to it (`PRIME = 2654435761`). Silent in a
    module that turns 64-bit types on (`jax.config.update("jax_enable_x64", True)`, the
    `JAX_ENABLE_X64` variable, `jax.experimental.enable_x64`).

    ## Why is this bad?
    With 64-bit types off (the default) JAX makes a Python int a weakly typed int32 where it
    meets a jax value. Measured on jax 0.10.2 (CPU): `jax.jit(lambda x: x * 2654435761)`
    raises `OverflowError: An overflow was encountered while parsing an argument to a jitted
    computation` for an int32, a uint32 and a float32 `x` alike; `jax.jit(lambda x: (x,
    2**64))(7)` raises `OverflowError: Python int 18446744073709551616 too large to convert to
    int32` (jax#15631); `jax.jit(f)(2**40)` raises the first. `x + (2**31 - 1)` and
    `x * jnp.uint32(2654435761)` run.

    ## Fix safety
    Turning 64-bit types on changes the default dtype of every Python float and int in the
    program (float64 arithmetic is slower on accelerators); wrapping the constant in the
    dtype meant (`jnp.uint32(2654435761)` for a hash, a float for a scale) changes only
    that expression. Check which the code intends.
    """

    code = "JIT812"
    name = "python-int-overflows-int32"
    summary = "a Python int outside int32 meeting a traced value raises OverflowError while 64-bit types are off"
    severity = "error"

    INVALID = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def bucket(ids):
            return (ids * 2654435761) % 1024

        print(bucket(jnp.arange(8)))
        """,
    ]
    VALID = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def bucket(ids):
            return (ids.astype(jnp.uint32) * jnp.uint32(2654435761)) % 1024

        print(bucket(jnp.arange(8)))
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        uses = [use for use in tracer_uses(ctx) if use.kind == "overflow"]
        if uses and enables_x64(ctx):
            return
        for use in uses:
            yield Violation(use.node, use.message, related=use.related)
