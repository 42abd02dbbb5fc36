from typing import Iterator

import libcst as cst

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._stale import memoised_jax_arrays


class MemoisedArrayUnderTrace(Rule):
    """
    ## What it does
    Flags a memoised function (`functools.lru_cache` / `functools.cache`, or a
    `functools.cached_property`) whose own body makes a jax array (`jnp.asarray(...)`,
    `jnp.array(...)`, `jnp.arange(...)`), when code that a jit traces calls it (or reads the
    property): a cached projector or table built on first use inside a jitted function. It is
    reported at the memoising decorator, with the array as a related location. Silent when the
    body runs its jax operations under `jax.ensure_compile_time_eval()`, and when only eager
    code reaches it.

    ## Why is this bad?
    Under a trace every jax operation is staged, constants included: the array the memoised
    body makes is a tracer of that trace, and the cache keeps it after the trace ends. The next
    trace that hits the cache (another shape, another static argument, another jitted
    function) uses the dead tracer. Measured on jax 0.10.2 (CPU): an `lru_cache`d projector
    indexing with `jnp.asarray(...)`, built in a jitted run with `steps=2` and reused by the run
    with `steps=4`, raises `UnexpectedTracerError` on the second trace (GKX e253a6bc;
    `fixtures/trace_state/lru_cached_projector_built_under_jit.py`); a `cached_property` of
    `jnp.array`s read by two jitted coupling steps raises it in the second (jax-frc 3857956).
    Built with NumPy, or computed by a plain method, both run (`..._numpy_ok.py`,
    `..._method_ok.py`).

    ## Fix safety
    Build the cached value with NumPy (a host constant every trace can use), or drop the
    cache so each trace builds its own arrays. Both keep the values; NumPy constants are
    embedded in each compiled program.
    """

    code = "JIT816"
    name = "memoised-array-under-trace"
    summary = "a memoised function making a jax array under a trace caches a tracer the next trace trips on"
    severity = "error"

    INVALID = [
        """
        import functools

        import jax
        import jax.numpy as jnp

        @functools.lru_cache(maxsize=None)
        def kernel(n):
            return jnp.hanning(n)

        @jax.jit
        def smooth(x):
            return jnp.convolve(x, kernel(5), mode="same")
        """,
    ]
    VALID = [
        """
        import functools

        import jax
        import jax.numpy as jnp
        import numpy as np

        @functools.lru_cache(maxsize=None)
        def kernel(n):
            return np.hanning(n)

        @jax.jit
        def smooth(x):
            return jnp.convolve(x, kernel(5), mode="same")
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        for memo in memoised_jax_arrays(ctx):
            made = cst.Module([]).code_for_node(memo.made.func)
            yield Violation(memo.decorator, (
                f"`{memo.function.name.value}` is memoised and makes a jax array (`{made}(...)`), and "
                f"traced code reaches it: under the trace the array is a tracer and the cache keeps it, "
                f"so the next trace that hits the cache (another shape, static argument or jitted "
                f"function) raises UnexpectedTracerError; build the cached value with NumPy, or drop "
                f"the cache"), ((memo.made, "the jax array made while tracing"),))
