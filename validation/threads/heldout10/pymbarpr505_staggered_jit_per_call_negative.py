# source: https://github.com/choderalab/pymbar/pull/505
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: staggered_jit calls jit(jitable_fn) anew on every call, but always on the same module-level function object, so the jit cache is hit: _jit_self_consistent_update compiles once for three calls (as the PR author expected).

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
import logging

import numpy as np

logger = logging.getLogger(__name__)

use_jit = False
try:
    from jax import config  # (was `from jax.config import config`, removed in current JAX)

    from jax.numpy import s_
    from jax.scipy.special import logsumexp

    from jax import jit as jit_or_passthrough

    use_jit = True
except ImportError:  # (the warning text and the NumPy fallback imports trimmed)
    raise


def jit_or_pass_after_bitsize(jitable_fn):
    """
    Attempt to set JAX precision if present. This does nothing if JAX is not present

    Parameters
    ----------
    jitable_fn: function
        A function which can be jit'd
    """

    def staggered_jit(*args, **kwargs):
        # This will only trigger if JAX is set
        if use_jit and not config.x64_enabled:
            # Warn that JAX 64-bit will being turned on
            logger.warning("******* JAX 64-bit mode is now on! *******")  # (banner shortened)
            config.update("jax_enable_x64", True)
        jited_fn = jit_or_passthrough(jitable_fn)
        return jited_fn(*args, **kwargs)

    return staggered_jit


@jit_or_pass_after_bitsize
def _jit_self_consistent_update(u_kn, N_k, f_k):
    """JAX version of self_consistent update.  For parameters, see self_consistent_update.
    N_k must be float (should be cast at a higher level)

    """
    # Asteroid
    log_denominator_n = logsumexp(f_k - u_kn.T, b=N_k, axis=1)
    # All states can contribute to the numerator term. Check transpose
    return -1.0 * logsumexp(
        -log_denominator_n - u_kn, axis=1
    )  # pylint: disable=invalid-unary-operand-type


def jax_self_consistent_update(u_kn, N_k, f_k, states_with_samples=None):
    """JAX version of self_consistent update.  For parameters, see self_consistent_update.
    N_k must be float (should be cast at a higher level)

    """
    # Only the states with samples can contribute to the denominator term.
    # Precondition before feeding the op to the JIT'd function
    # In theory, this can be computed with jax.lax.cond, but trying to reuse code for non-jax paths
    states_with_samples = s_[:] if states_with_samples is None else states_with_samples
    # Feed to the JIT'd function. Can't pass slice types, so slice here
    return _jit_self_consistent_update(
        u_kn[states_with_samples], N_k[states_with_samples], f_k[states_with_samples]
    )


rng = np.random.default_rng(0)  # scaffolding: a small 3-state problem
u_kn = rng.normal(size=(3, 12))  # scaffolding
N_k = np.array([4.0, 4.0, 4.0])  # scaffolding
f_k = np.zeros(3)  # scaffolding
for _ in range(3):  # scaffolding: the solver calls the update once per iteration
    f_k = np.asarray(jax_self_consistent_update(u_kn, N_k, f_k))  # scaffolding
_report({"jit(_jit_self_consistent_update)"}, 3)  # scaffolding
