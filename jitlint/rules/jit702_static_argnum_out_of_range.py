from typing import Iterator

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._static import spec_problems


class StaticArgnumOutOfRange(Rule):
    """
    ## What it does
    Flags `static_argnums` naming a position the jitted function does not have (counting
    `self` for a method jitted in its class body; negative indices too). Functions with
    `*args` accept any position and stay silent, as JAX does. Also flags `static_argnums` given
    to `eqx.filter_jit`, which takes none: measured with equinox 0.13.8, `ValueError:
    `jitkwargs` cannot contain 'static_argnums', ...` when applied; every non-array argument
    is static there already. And a call of a `jax.checkpoint` / `jax.remat`-wrapped function
    that passes fewer positional arguments than its static position needs: those transforms
    check the positions against each call's arguments, so a defaulted parameter left out or
    given by keyword raises (`jaxfacts.StaticSpecTransform.unpassed`; pmwd#27: `ValueError: the
    static_argnums argument to jax.checkpoint / jax.remat can only take integer values ...
    less than len(args)`). `nnx.remat` fills the defaults in first and stays silent. Also
    the static positions passed to `jax.jit` by position (`jax.jit(fn, static_argnums)`, old
    JAX's signature: aesara PR 393): jit takes only the function positionally and raises
    `TypeError: jit() takes from 0 to 1 positional arguments but 2 were given`
    (`jaxfacts.JIT_POSITIONAL_ARGUMENTS`). Also parameter names given as `static_argnums`
    (`static_argnums=("solver", "bc")`: PyPIC3D's time loop, `TypeError: 'str' object cannot be
    interpreted as an integer` when applied; the fix is `static_argnames`), and positions past
    the signature of a function that is itself jitted (`jax.jit(train_step, static_argnums=(2,
    3))` of a `@partial(jax.jit, ...)` two-parameter `train_step`: a jitted function keeps its
    signature, `jaxfacts.SIGNATURE_KEEPING_JITS`; ValueError when applied).

    ## Why is this bad?
    `jax.jit` checks the positions against the signature when it is applied. Measured on jax
    0.10.2: `ValueError: Jitted function has static_argnums=(5,), but only accepts 2 positional
    arguments.` at decoration or import time.

    ## Fix safety
    Use the right index, or `static_argnames` (robust to reordering). Check which argument was
    meant to be static: fixing the index changes which argument is traced.
    """

    code = "JIT702"
    name = "static-argnum-out-of-range"
    summary = "static_argnums beyond the positional parameters raises ValueError when jit is applied"
    severity = "error"

    INVALID = [
        """
        from functools import partial

        import jax

        @partial(jax.jit, static_argnums=2)
        def forward(x, training):
            return x
        """,
    ]
    VALID = [
        """
        from functools import partial

        import jax

        @partial(jax.jit, static_argnums=1)
        def forward(x, training):
            return x
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        for keyword, node, message in spec_problems(ctx):
            if keyword == "static_argnums":
                yield Violation(node, message)
