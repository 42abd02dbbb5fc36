# source: https://github.com/quantumlib/OpenFermion/pull/1396
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the PR's fix returns cast(float, res) (typing.cast, a no-op at run time), so the jitted objective traces and compiles once for its two calls.

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
from typing import cast

import jax
import jax.numpy as jnp


@jax.jit
def compute_objective_batched(
    chis,
    zetas,
    chols,
    norm_factors,
    num_kpts: int,
    penalty_param: float = 0.0,
) -> float:
    """Compute THC objective function.

    Batches evaluation over kpts.
    """
    eri_thc = jnp.einsum(
        "Jpm,Jqm,Jmn,Jrn,Jsn->Jpqrs",
        chis[0].conj(),
        chis[1],
        zetas,
        chis[2].conj(),
        chis[3],
        optimize=True,
    )
    eri_ref = jnp.einsum("Jnpq,Jnrs->Jpqrs", chols[0], chols[1], optimize=True)
    deri = (eri_thc - eri_ref) / num_kpts
    norm_left = norm_factors[0] * norm_factors[1]
    norm_right = norm_factors[2] * norm_factors[3]
    mpq_normalized = (
        jnp.einsum("JP,JPQ,JQ->JPQ", norm_left, zetas, norm_right, optimize=True) / num_kpts
    )

    lambda_z = jnp.sum(jnp.einsum("jpq->j", 0.5 * jnp.abs(mpq_normalized)) ** 2.0)

    res = 0.5 * jnp.sum((jnp.abs(deri)) ** 2) + penalty_param * lambda_z
    return cast(float, res)


key = jax.random.PRNGKey(0)  # scaffolding: J=2 batches, 3 orbitals, THC rank 4, 5 Cholesky vectors
chi = jax.random.normal(key, (2, 3, 4))  # scaffolding
zeta = jax.random.normal(key, (2, 4, 4))  # scaffolding
chol = jax.random.normal(key, (2, 5, 3, 3))  # scaffolding
norm = jnp.ones((2, 4))  # scaffolding
for _ in range(2):  # scaffolding
    compute_objective_batched((chi, chi, chi, chi), zeta, (chol, chol), (norm, norm, norm, norm), 2,
                              penalty_param=0.1)  # scaffolding
_report({"jit(compute_objective_batched)"}, 2)  # scaffolding
