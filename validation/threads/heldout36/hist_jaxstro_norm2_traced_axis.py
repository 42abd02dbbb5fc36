# source: https://github.com/jaxstro/jaxstro/commit/483d6dba39d51e04ee4d12252767e7c3049dd6a7
# expect: trace-time-error at line 54
# runtime: ERROR ValueError
# why: norm2 is plain @jax.jit, so norm2(x, axis=1) traces axis; jnp.linalg.norm forwards it to an internal jit as a static argument and tracing fails with ValueError (non-hashable static argument: the tracer).

# --- measurement harness: counts XLA backend compiles per jitted function name ---
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")
from jax import monitoring as _monitoring

_COMPILED = []  # one entry per XLA compile, e.g. "jit(step)"


def _on_duration(event, duration_secs, **kwargs):
    if event == "/jax/core/compile/backend_compile_duration":
        _COMPILED.append(kwargs.get("fun_name"))


_monitoring.register_event_duration_secs_listener(_on_duration)


def _report(targets, calls):
    n = sum(1 for name in _COMPILED if name in targets)
    print(f"COMPILES {n} CALLS {calls}")


# --- end harness ---
"""
Small linear algebra helpers for JAX.

These are convenience wrappers around jax.numpy.linalg and related
operations, not a replacement for a full LA library. For serious
linear solves, eigenproblems, etc., use lineax or JAX's linalg.
"""

from functools import partial

import jax
import jax.numpy as jnp

Array = jax.Array  # scaffolding: from .types import Array


@jax.jit
def norm2(
    x: Array,
    axis: int | None = None,
    keepdims: bool = False,
) -> Array:
    """
    Euclidean (ℓ2) norm of an array.
    """
    return jnp.linalg.norm(x, ord=2, axis=axis, keepdims=keepdims)


calls = 0  # scaffolding
try:  # scaffolding
    for scale in (1.0, 2.0, 3.0):  # scaffolding
        row_norms = norm2(scale * jnp.ones((4, 3)), axis=1)
        calls += 1  # scaffolding
    _report({"jit(norm2)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
