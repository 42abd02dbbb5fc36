from typing import Iterator

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._traced import TRACING_CALL_NAMES, tracer_uses


class HashOfTracer(Rule):
    """
    ## What it does
    Flags Python operations that hash a traced value inside a jitted function (or a function
    that `jax.vmap`, `lax.scan` and the other tracing calls trace): `hash(x)`; `set(xs)`,
    `frozenset(xs)`, `collections.Counter(xs)`, `dict.fromkeys(xs)` of a traced array or a list
    of tracers; a set display `{x}`; a dict display with a traced key `{x: v}`; `x in` a set or
    dict; a dict lookup `table[x]` or `table.get(x)`, also with a key holding tracers
    (`table[tuple(x)]`: a tuple of the traced array's elements); a call of a `functools.lru_cache` /
    `functools.cache` function with a traced argument; and `jax.jit(hash)` called with a traced
    argument (the tables in `jitlint/jaxfacts.py: HASHING_*`). The same operations on static
    values (`hash(x.shape)`, a static parameter, a Python constant) stay silent, and so does
    `set(batch)` of a bare parameter, which may be a dict whose keys are strings.

    ## Why is this bad?
    A tracer is unhashable (JAX 0.4.29 briefly let `hash` through; jax#21824). Measured on jax
    0.10.2 (CPU): each of these raises `TypeError: unhashable type: 'DynamicJaxprTracer'` (under
    `jax.vmap`: `'BatchTracer'`) while the function is traced, on the first call
    (`fixtures/hashed_tracers/`).

    ## Fix safety
    Keep the value an array: `jnp.unique(x, size=n)` for distinct values, `jnp.isin` for
    membership, an array indexed by position (or `jax.lax.switch`) instead of a dict keyed by
    values. If the value is really a Python constant (a mode, a size), mark the parameter static
    and hash that. A cached helper must be called outside jit or with static values only.
    """

    code = "JIT809"
    name = "hash-of-tracer"
    summary = "hash(), a set, a dict key or an lru_cache call on a traced value raises TypeError under jit"
    prefilter_names = TRACING_CALL_NAMES  # code that lax.scan and friends trace outside jit
    severity = "error"

    INVALID = [
        """
        import jax

        @jax.jit
        def lookup(code):
            table = {0: 1.0, 1: 2.0}
            return table[code]
        """,
    ]
    VALID = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def lookup(code):
            table = jnp.asarray([1.0, 2.0])
            return table[code]
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        for use in tracer_uses(ctx):
            if use.kind == "hash":
                yield Violation(use.node, use.message, related=use.related)
