from typing import Iterator

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._static import spec_problems


class DonateArgnumOutOfRange(Rule):
    """
    ## What it does
    Flags `donate_argnums` naming a position the jitted function does not have (negative
    indices too). Functions with `*args` stay silent, as JAX accepts them. Also flags
    `donate_argnums` given to `eqx.filter_jit`, which raises ValueError for it (its keyword is
    `donate="all"` / `"warn"`).

    ## Why is this bad?
    `jax.jit` validates `donate_argnums` like `static_argnums` when it is applied. Measured on
    jax 0.10.2: `ValueError: Jitted function has donate_argnums=(3,), but only accepts 2
    positional arguments.` at decoration or import time.

    ## Fix safety
    Use the index of the buffer you mean to donate, or `donate_argnames`. Donating the wrong
    argument invalidates an array the caller may still use, so check the intent.
    """

    code = "JIT703"
    name = "donate-argnum-out-of-range"
    summary = "donate_argnums beyond the positional parameters raises ValueError when jit is applied"
    severity = "error"

    INVALID = [
        """
        from functools import partial

        import jax

        @partial(jax.jit, donate_argnums=(0, 2))
        def update(params, grads):
            return params - grads
        """,
    ]
    VALID = [
        """
        from functools import partial

        import jax

        @partial(jax.jit, donate_argnums=0)
        def update(params, grads):
            return params - grads
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        for keyword, node, message in spec_problems(ctx):
            if keyword == "donate_argnums":
                yield Violation(node, message)
