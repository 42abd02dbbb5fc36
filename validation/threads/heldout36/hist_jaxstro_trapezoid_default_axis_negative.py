# source: https://github.com/jaxstro/jaxstro/commit/ee9f914f3f0fd1f80846f222364ebb1a536c9dcb
# expect: none
# runtime: COMPILES 2 CALLS 6
# why: The pre-fix @jax.jit trapezoid uses y.shape[axis] with a non-static axis, but when callers rely on the default axis=-1 the keyword is never passed to jit and stays a Python int, so it traces and compiles once per signature (with and without x).

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
"""Canonical sampled-data integration methods."""

from functools import partial
from typing import Optional

import jax
import jax.numpy as jnp
from jaxtyping import Array, Float


@jax.jit
def trapezoid(
    y: Float[Array, "..."],
    x: Optional[Float[Array, " n"]] = None,
    *,
    dx: float = 1.0,
    axis: int = -1,
) -> Float[Array, "..."]:
    """Integrate sampled values with the composite trapezoidal rule."""
    y = jnp.asarray(y)
    idx_left = jnp.arange(0, y.shape[axis] - 1)
    idx_right = jnp.arange(1, y.shape[axis])
    y_left = jnp.take(y, indices=idx_left, axis=axis)
    y_right = jnp.take(y, indices=idx_right, axis=axis)
    if x is None:
        return 0.5 * jnp.sum(y_left + y_right, axis=axis) * dx
    x = jnp.asarray(x)
    if x.ndim != 1:
        raise ValueError("x must be 1D if provided")
    if x.shape[0] != y.shape[axis]:
        raise ValueError(
            "x and y must have matching lengths along the integration axis"
        )
    return jnp.sum(0.5 * (y_left + y_right) * jnp.diff(x), axis=axis)


grid = jnp.linspace(0.0, 1.0, 4)  # scaffolding
calls = 0  # scaffolding
for scale in (1.0, 2.0, 3.0):  # scaffolding
    area = trapezoid(scale * jnp.ones((3, 4)))
    area_x = trapezoid(scale * jnp.ones((3, 4)), grid)
    calls += 2  # scaffolding
_report({"jit(trapezoid)"}, calls)
