# source: https://github.com/uwplasma/GKX/commit/e253a6bcc015cc36d69c9b26ca8feb19f04d4f13
# expect: none
# runtime: COMPILES 2 CALLS 3
# why: The commit's fix: the cached projector keys on the ky-axis layout and keeps kx_neg as host numpy, so each trace gets its own constant; one compile per step count.
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
from functools import lru_cache, partial
from typing import Callable

import jax
import jax.numpy as jnp
import numpy as np


@lru_cache(maxsize=32)
def _cached_hermitian_projector(
    ny_full: int, two_sided: bool, nx: int
) -> Callable[[jnp.ndarray], jnp.ndarray]:
    nyc = ny_full // 2 + 1
    use_hermitian = nyc > 2 and two_sided
    if not use_hermitian:
        return lambda G_state: G_state

    neg_hi = nyc - 1 if (ny_full % 2 == 0) else nyc
    # The conjugate kx ordering stays a host array. These projectors are cached
    # and reused across traces, and a device constant materialized here would
    # belong to whichever trace happened to build it first, escaping that scope
    # the moment a second trace reuses the same grid signature. The ordering is
    # an index reversal, so numpy holds it exactly and each trace gets its own
    # constant at use.
    kx_neg = (
        np.concatenate(([0], np.arange(nx - 1, 0, -1))).astype(np.int32)
        if nx > 1
        else None
    )

    def project(G_state: jnp.ndarray) -> jnp.ndarray:
        pos = G_state[..., :nyc, :, :]
        neg = jnp.conj(pos[..., 1:neg_hi, :, :])[..., ::-1, :, :]
        if kx_neg is not None:
            neg = neg[..., kx_neg, :]
        return jnp.concatenate([pos, neg], axis=-3)

    return project


_TRACED_KY_AXIS_MESSAGE = (
    "the Hermitian projector cannot read a traced ky axis: it needs the axis "
    "layout -- length, and whether the negative-ky half is carried -- which is "
    "grid topology and has no derivative."
)


def _hermitian_ky_axis_layout(ky_vals) -> tuple[int, bool]:
    """Return ``(ny_full, two_sided)`` for one ky axis, read on the host."""

    if isinstance(ky_vals, jax.core.Tracer):
        raise ValueError(_TRACED_KY_AXIS_MESSAGE)
    host = np.asarray(ky_vals, dtype=float).reshape(-1)
    return int(host.size), bool(np.any(host < 0.0))


def _make_hermitian_projector(
    ky_vals: np.ndarray, nx: int
) -> Callable[[jnp.ndarray], jnp.ndarray]:
    """Return a stable projector for one full-ky grid signature."""

    ny_full, two_sided = _hermitian_ky_axis_layout(ky_vals)
    return _cached_hermitian_projector(ny_full, two_sided, int(nx))


ny, nx, nz = 8, 4, 2  # scaffolding: a small two-sided ky grid
ky_host = np.fft.fftfreq(ny) * ny


@partial(jax.jit, static_argnames=("steps",))  # scaffolding: a jitted compressed-real-FFT run that builds its projector in the trace
def run(G, steps):
    project = _make_hermitian_projector(ky_host, nx)
    for _ in range(steps):
        G = project(G * 0.99)
    return G


G0 = jnp.ones((ny, nx, nz), dtype=jnp.complex64)  # scaffolding
try:  # scaffolding
    G = run(G0, steps=2)  # scaffolding: a short warm-up run
    G = run(G, steps=4)  # scaffolding: the production run with more steps (a new trace)
    G = run(G, steps=4)  # scaffolding
    _report({"jit(run)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
