# source: https://github.com/choderalab/pymbar/pull/451
# expect: none
# runtime: COMPILES 1 CALLS 10
# why: the module-level jax.jit of jax_self_consistent_update takes the integer states_with_samples index array as a traced argument, which gathers fine under jit, so ten solver iterations compile once.
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


import numpy as np
import jax
from jax.scipy.special import logsumexp
import jax.numpy as jnp
from jax.numpy import exp, sum, newaxis, diag, dot, s_

jax.config.update("jax_enable_x64", True)  # as pymbar/mbar_solvers.py (jax.config.config form updated)


def self_consistent_update(u_kn, N_k, f_k, states_with_samples=None):
    """Return an improved guess for the dimensionless free energies (docstring shortened)."""

    return jit_self_consistent_update(
            u_kn, N_k, f_k, states_with_samples=states_with_samples
        )

def jax_self_consistent_update(u_kn, N_k, f_k, states_with_samples=None):
    """JAX version of self_consistent update.  For parameters, see self_consistent_update.
    N_k must be float (should be cast at a higher level)

    """

    # Only the states with samples can contribute to the denominator term.
    if states_with_samples is not None:
        log_denominator_n = logsumexp(
            f_k[states_with_samples] - u_kn[states_with_samples].T, b=N_k[states_with_samples], axis=1
        )
    else:
        log_denominator_n = logsumexp(f_k - u_kn.T, b=N_k, axis=1) 
    # All states can contribute to the numerator term.
    return -1. * logsumexp(-log_denominator_n - u_kn, axis=1)  # check transpose

jit_self_consistent_update = jax.jit(jax_self_consistent_update)



rng = np.random.default_rng(0)  # scaffolding: 4 thermodynamic states, one without samples, 300 samples
N_k = np.array([100.0, 0.0, 120.0, 80.0])  # scaffolding
u_kn = rng.normal(size=(4, 300))  # scaffolding
states_with_samples = np.where(N_k != 0)[0].astype(np.int64)  # as MBAR.__init__ (mbar.py)
f_k = np.zeros(4)  # scaffolding
for _ in range(10):  # scaffolding: the adaptive solver's self-consistent iterations
    f_k = self_consistent_update(u_kn, N_k, f_k, states_with_samples=states_with_samples)  # scaffolding
    f_k = f_k - f_k[0]  # scaffolding
import builtins  # scaffolding
sum = builtins.sum  # scaffolding: the module imports jax.numpy.sum over the builtin the report uses
_report({"jit(jax_self_consistent_update)"}, 10)  # scaffolding
