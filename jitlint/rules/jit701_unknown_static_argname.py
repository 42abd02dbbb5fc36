from typing import Iterator

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._static import spec_problems


class UnknownStaticArgname(Rule):
    """
    ## What it does
    Flags `static_argnames` (or `donate_argnames`) naming something that is not a parameter of
    the jitted function, or naming a positional-only parameter. Functions with `**kwargs` accept
    any name and stay silent, as JAX does. Also flags `static_argnames` given to
    `eqx.filter_jit`, which takes none (`jaxfacts.REJECTED_JIT_KEYWORDS`).

    ## Why is this bad?
    `jax.jit` checks the names against the signature when it is applied, at decoration or
    import time. Measured on jax 0.10.2: `ValueError: Jitted function has invalid argnames
    {'q'} in static_argnames. Function does not take these args.` (positional-only: `... These
    are positional-only`). Usually a typo or a renamed parameter.

    ## Fix safety
    Name an existing parameter (or use `static_argnums` for a positional-only one). Check which
    argument was meant to be static: fixing the name changes which argument is traced.
    """

    code = "JIT701"
    name = "unknown-static-argname"
    summary = "static_argnames/donate_argnames naming no parameter raises ValueError when jit is applied"
    severity = "error"

    INVALID = [
        """
        from functools import partial

        import jax

        @partial(jax.jit, static_argnames="mode")
        def forward(x, training):
            return x
        """,
    ]
    VALID = [
        """
        from functools import partial

        import jax

        @partial(jax.jit, static_argnames="training")
        def forward(x, training):
            return x
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        for keyword, node, message in spec_problems(ctx):
            if keyword.endswith("argnames"):
                yield Violation(node, message)
