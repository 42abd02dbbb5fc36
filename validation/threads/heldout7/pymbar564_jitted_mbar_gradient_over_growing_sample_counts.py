# source: https://github.com/choderalab/pymbar/issues/564
# expect: shape-churn at line 58
# runtime: COMPILES 4 CALLS 4
# why: Forward/reverse free-energy analysis re-solves MBAR on growing subsets of the samples; pymbar's jitted solver functions see a new u_kn shape each time, so every subset compiles and caches a new executable (the growing memory).

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
import jax
import jax.numpy as jnp
import numpy as np
from jax import jit
from jax.numpy import exp
from jax.scipy.special import logsumexp


@jit  # pymbar wraps this with jit_or_pass_after_bitsize, which applies jax.jit
def jax_mbar_gradient(u_kn, N_k, f_k):
    """JAX version of MBAR gradient function. See documentation of mbar_gradient.
    N_k must be float (should be cast at a higher level)
    """

    log_denominator_n = logsumexp(f_k - u_kn.T, b=N_k, axis=1)
    log_numerator_k = logsumexp(-log_denominator_n - u_kn, axis=1)
    return -1 * N_k * (1.0 - exp(f_k + log_numerator_k))


# scaffolding: a forward free-energy analysis as in the issue (MBAR re-solved on the first fraction
# of the samples of each state); random reduced potentials, 3 states, 4 fractions
rng = np.random.default_rng(0)
u_kln = rng.normal(size=(3, 3, 200)).astype(np.float32)
f_k = jnp.zeros(3)
calls = 0
for fraction in (0.25, 0.5, 0.75, 1.0):
    n = int(fraction * u_kln.shape[-1])
    u_kn = jnp.asarray(u_kln[:, :, :n].reshape(3, -1))
    N_k = jnp.full(3, float(n))
    grad = jax_mbar_gradient(u_kn, N_k, f_k)
    calls += 1
_report({"jit(jax_mbar_gradient)"}, calls)
