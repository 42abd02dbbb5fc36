from typing import Iterator

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._stale import mutated_static_args


class MutatedStaticArg(Rule):
    """
    ## What it does
    Flags an object passed as a static argument of a jitted function and mutated (an attribute
    or item assignment, a mutating method call) between two calls, or in the loop that calls.

    ## Why is this bad?
    jit keys its cache on each static argument's hash and equality, and keeps the object itself
    as the key. A plain object hashes by identity: after `cfg.scale = 3.0` the next call finds
    the old trace and silently computes with the old value. Measured on jax 0.10.2 (CPU): a
    static config with `cfg.scale` changed between two calls compiles once and returns the first
    result twice; with a `__hash__` / `__eq__` over its fields and `scale` changed in a loop of 3
    calls, it still compiles once and returns results of the first value (the cache grows by an
    entry per change, `_cache_size()` 3), because the stored key is the mutated object itself.

    ## Fix safety
    Pass the changing field as a traced argument, or build a new immutable config (a frozen
    dataclass, a NamedTuple) for each distinct setting: each then compiles once.
    """

    code = "JIT603"
    name = "mutated-static-arg"
    summary = "a static argument mutated between calls: jit silently reuses the old trace"

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
                f"calls: jit keeps the object as its cache key, so later calls silently reuse the "
                f"trace of the old value; pass the changing value as a traced argument or build "
                f"a new immutable config"),
                ((found.mutation, f"`{found.name}` is mutated here"),) if found.mutation else ())
