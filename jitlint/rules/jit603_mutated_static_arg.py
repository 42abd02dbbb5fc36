from typing import Iterator

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._stale import mutated_static_args


class MutatedStaticArg(Rule):
    """
    ## What it does
    Flags an object passed as a static argument of a jitted function and mutated (an attribute
    or item assignment, a mutating method call) between two calls, or in the loop that calls.

    ## Why is this bad?
    jit keys its cache on the hash of each static argument. A plain object hashes by identity:
    after `cfg.scale = 3.0` the next call finds the old trace and silently computes with the old
    value. An object whose `__hash__` follows its fields gets a new cache entry instead, and
    compiles again on every change. Measured on jax 0.10.2 (CPU): a static config object with
    `cfg.scale` changed between two calls compiles once and returns the first result twice.

    ## Fix safety
    Pass the changing field as a traced argument, or build a new immutable config (a frozen
    dataclass, a NamedTuple) for each distinct setting: each then compiles once.
    """

    code = "JIT603"
    name = "mutated-static-arg"
    summary = "a static argument mutated between calls: jit reuses the old trace (or recompiles)"

    INVALID = [
        """
        from functools import partial

        import jax
        import jax.numpy as jnp

        class Config:
            def __init__(self, scale):
                self.scale = scale

        @partial(jax.jit, static_argnums=1)
        def apply(x, cfg):
            return x * cfg.scale

        cfg = Config(2.0)
        print(apply(jnp.ones(2), cfg))
        cfg.scale = 3.0
        print(apply(jnp.ones(2), cfg))
        """,
    ]
    VALID = [
        """
        from functools import partial
        from typing import NamedTuple

        import jax
        import jax.numpy as jnp

        class Config(NamedTuple):
            scale: float

        @partial(jax.jit, static_argnums=1)
        def apply(x, cfg):
            return x * cfg.scale

        print(apply(jnp.ones(2), Config(2.0)))
        print(apply(jnp.ones(2), Config(3.0)))
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        for found in mutated_static_args(ctx):
            yield Violation(found.arg, (
                f"`{found.name}` is a static argument of `{found.callee}` and is mutated between "
                f"calls: jit keys its cache on its hash, so later calls reuse the old trace "
                f"(stale result) or, if the hash changes, compile again; pass the changing value "
                f"as a traced argument or build a new immutable config"))
