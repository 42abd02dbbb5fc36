# source: https://github.com/uwplasma/NEO_JAX/commit/ec26d3c4268a4ae0583f0c8b381894d2a39cb235
# expect: trace-time-error at line 68
# runtime: ERROR NonConcreteBooleanIndexError
# why: _fourier_sums_vectorized filters the Boozer modes with a boolean mask built from the mode numbers (m[mask]); inside the jitted pipeline the mode arrays are tracers, so the boolean indexing raises NonConcreteBooleanIndexError.

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


from typing import Dict, Tuple
import os

import jax
import jax.numpy as jnp
import numpy as np  # scaffolding

Array = jax.Array


def _apply_periodic_edges(arr: Array) -> Array:
    # Enforce periodic boundaries by copying first row/column.
    arr = arr.at[-1, :].set(arr[0, :])
    arr = arr.at[:, -1].set(arr[:, 0])
    return arr


def _fourier_sums_vectorized(
    theta_arr: Array,
    phi_arr: Array,
    rmnc: Array,
    zmns: Array,
    lmns: Array,
    bmnc: Array,
    ixm: Array,
    ixn: Array,
    nfp: int,
    max_m_mode: int,
    max_n_mode: int,
    lasym: bool = False,
    rmns: Array | None = None,
    zmnc: Array | None = None,
    lmnc: Array | None = None,
    bmns: Array | None = None,
) -> Dict[str, Array]:
    """Vectorized Fourier sums (fast but allocates theta×phi×modes)."""
    m = ixm.astype(theta_arr.dtype)
    n = ixn.astype(theta_arr.dtype)

    mask = (jnp.abs(m) <= max_m_mode) & (jnp.abs(n) <= max_n_mode)
    m = m[mask]
    n = n[mask]
    rmnc = rmnc[mask]
    zmns = zmns[mask]
    lmns = lmns[mask]
    bmnc = bmnc[mask]

    theta = theta_arr[:, None]
    phi = phi_arr[:, None]

    # Match Fortran's trig combination to reduce rounding drift:
    # cos(m*theta - n*phi) = cos(m*theta)*cos(n*phi) + sin(m*theta)*sin(n*phi)
    # sin(m*theta - n*phi) = sin(m*theta)*cos(n*phi) - cos(m*theta)*sin(n*phi)
    cos_mth = jnp.cos(theta * m[None, :])
    sin_mth = jnp.sin(theta * m[None, :])
    cos_nph = jnp.cos(phi * n[None, :])
    sin_nph = jnp.sin(phi * n[None, :])

    cosv = cos_mth[:, None, :] * cos_nph[None, :, :] + sin_mth[:, None, :] * sin_nph[None, :, :]
    sinv = sin_mth[:, None, :] * cos_nph[None, :, :] - cos_mth[:, None, :] * sin_nph[None, :, :]

    r = jnp.sum(rmnc[None, None, :] * cosv, axis=2)
    z = jnp.sum(zmns[None, None, :] * sinv, axis=2)
    l = jnp.sum(lmns[None, None, :] * sinv, axis=2)
    b = jnp.sum(bmnc[None, None, :] * cosv, axis=2)

    r_tb = jnp.sum(-m[None, None, :] * rmnc[None, None, :] * sinv, axis=2)
    r_pb = jnp.sum(n[None, None, :] * rmnc[None, None, :] * sinv, axis=2)
    z_tb = jnp.sum(m[None, None, :] * zmns[None, None, :] * cosv, axis=2)
    z_pb = jnp.sum(-n[None, None, :] * zmns[None, None, :] * cosv, axis=2)
    p_tb = jnp.sum(-m[None, None, :] * lmns[None, None, :] * cosv, axis=2)
    p_pb = jnp.sum(n[None, None, :] * lmns[None, None, :] * cosv, axis=2)
    b_tb = jnp.sum(-m[None, None, :] * bmnc[None, None, :] * sinv, axis=2)
    b_pb = jnp.sum(n[None, None, :] * bmnc[None, None, :] * sinv, axis=2)

    if lasym:
        if rmns is None or zmnc is None or lmnc is None or bmns is None:
            raise ValueError("Asymmetric terms requested but coefficients missing")
        rmns = rmns[mask]
        zmnc = zmnc[mask]
        lmnc = lmnc[mask]
        bmns = bmns[mask]

        r = r + jnp.sum(rmns[None, None, :] * sinv, axis=2)
        z = z + jnp.sum(zmnc[None, None, :] * cosv, axis=2)
        l = l + jnp.sum(lmnc[None, None, :] * cosv, axis=2)
        b = b + jnp.sum(bmns[None, None, :] * sinv, axis=2)

        r_tb = r_tb + jnp.sum(m[None, None, :] * rmns[None, None, :] * cosv, axis=2)
        r_pb = r_pb + jnp.sum(-n[None, None, :] * rmns[None, None, :] * cosv, axis=2)
        z_tb = z_tb + jnp.sum(-m[None, None, :] * zmnc[None, None, :] * sinv, axis=2)
        z_pb = z_pb + jnp.sum(n[None, None, :] * zmnc[None, None, :] * sinv, axis=2)
        p_tb = p_tb + jnp.sum(m[None, None, :] * lmnc[None, None, :] * sinv, axis=2)
        p_pb = p_pb + jnp.sum(-n[None, None, :] * lmnc[None, None, :] * sinv, axis=2)
        b_tb = b_tb + jnp.sum(m[None, None, :] * bmns[None, None, :] * cosv, axis=2)
        b_pb = b_pb + jnp.sum(-n[None, None, :] * bmns[None, None, :] * cosv, axis=2)

    # Convert lambda derivatives to Boozer phi derivatives
    twopi = 2.0 * jnp.pi
    p_tb = p_tb * twopi / nfp
    p_pb = 1.0 + p_pb * twopi / nfp

    # Enforce periodicity
    r = _apply_periodic_edges(r)
    z = _apply_periodic_edges(z)
    l = _apply_periodic_edges(l)
    b = _apply_periodic_edges(b)
    r_tb = _apply_periodic_edges(r_tb)
    r_pb = _apply_periodic_edges(r_pb)
    z_tb = _apply_periodic_edges(z_tb)
    z_pb = _apply_periodic_edges(z_pb)
    p_tb = _apply_periodic_edges(p_tb)
    p_pb = _apply_periodic_edges(p_pb)
    b_tb = _apply_periodic_edges(b_tb)
    b_pb = _apply_periodic_edges(b_pb)

    return {
        "r": r,
        "z": z,
        "l": l,
        "b": b,
        "r_tb": r_tb,
        "r_pb": r_pb,
        "z_tb": z_tb,
        "z_pb": z_pb,
        "p_tb": p_tb,
        "p_pb": p_pb,
        "b_tb": b_tb,
        "b_pb": b_pb,
    }



# scaffolding: a small Boozer spectrum standing in for booz_xform output (3 surfaces of coefficients)
nfp = 4
xm_b = np.repeat(np.arange(0, 7), 9)
xn_b = np.tile(np.arange(-4, 5), 7) * nfp
theta_arr = jnp.linspace(0.0, 2 * jnp.pi, 17)
phi_arr = jnp.linspace(0.0, 2 * jnp.pi / nfp, 13)
rng = np.random.default_rng(0)


class cfg:  # scaffolding: NEO control settings
    max_m_mode = 4
    max_n_mode = 12


def _solve(rmnc, zmns, lmns, bmnc, ixm, ixn):
    return _fourier_sums_vectorized(
        theta_arr, phi_arr, rmnc, zmns, lmns, bmnc, ixm, ixn,
        nfp, cfg.max_m_mode, cfg.max_n_mode,
    )["b"]


_solve = jax.jit(_solve)

try:  # scaffolding
    for surface in range(3):  # scaffolding
        coeffs = [jnp.asarray(rng.normal(size=xm_b.size)) for _ in range(4)]
        b = _solve(*coeffs, jnp.asarray(xm_b), jnp.asarray(xn_b))
    _report({"jit(_solve)"}, 3)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
