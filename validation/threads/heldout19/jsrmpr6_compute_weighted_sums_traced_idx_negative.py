# source: https://github.com/tud-phi/jsrm/pull/6
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the review worried that jnp.arange(N) recompiles, but N comes from M.shape and idx is traced, so compute_weighted_sums compiles once for three indices of the same system; the prints run only at trace time.
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

import jax
import jax.numpy as jnp
from jax import jit
from jax import Array


@jit
def compute_weighted_sums(
    M: Array,
    vec6: Array,
    idx: int
)-> Array:
    """
    Compute the weighted sums of the matrix product of M and vec6,
    """
    N = M.shape[0]
    print("M = ", M)
    print("vec6 = ", vec6)
    print("idx = ", idx)
    print("shape of M = ", M.shape)
    print("shape of vec6 = ", vec6.shape)
    # Matrix product for each j: (N, 6, 6) @ (N, 6, 1) -> (N, 6)
    prod = jnp.einsum('nij,nj->ni', M, vec6)
    print("prod", prod)

    # Triangular mask for partial sum: (N, N)
    # mask[i, j] = 1 if j >= i and j <= idx
    mask = (jnp.arange(N)[:, None] <= jnp.arange(N)[None, :]) & (jnp.arange(N)[None, :] <= idx)
    mask = mask.astype(M.dtype)  # (N, N)
    print("mask", mask)

    # Extend 6-dimensional mask (N, N, 1) to apply to (N, 6)
    masked_prod = mask[:, :, None] * prod[None, :, :]  # (N, N, 6)
    print("masked_prod", masked_prod)

    # Sum over j for each i : (N, 6)
    result = masked_prod.sum(axis=1) # (N, 6)

    return result


J_segment_SE3_global = jnp.tile(jnp.eye(6), (4, 1, 1))  # scaffolding: 4 quadrature points
xi_d_SE3 = jnp.ones((4, 6))  # scaffolding
for i in range(3):  # scaffolding: three segment indices
    compute_weighted_sums(J_segment_SE3_global, xi_d_SE3, i)
_report({"jit(compute_weighted_sums)"}, 3)  # scaffolding
