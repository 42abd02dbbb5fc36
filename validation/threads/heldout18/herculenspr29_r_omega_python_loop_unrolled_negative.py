# source: https://github.com/Herculens/herculens/pull/29
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: R_omega's Python for loop over range(nmax) with a literal nmax=20 is unrolled once at trace time, so the jitted EPL deflection compiles once for three lens positions (slow compile, not a recompile).
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


from functools import partial  # jax_util.py imports at bfb8420^ (kept)
import numpy as np
import jax
import jax.numpy as jnp
from jax import jit, lax


def R_omega(z, t, q, nmax):
    """Angular dependency of the deflection angle in the EPL lens profile."""
    # Compute constant factors
    f = (1. - q) / (1. + q)
    ei2phi = z / z.conjugate()
    # Set the first term of the series
    omega_i = z  # jnp.array(np.copy(z))  # Avoid overwriting z ?
    partial_sum = omega_i

    for i in range(1, nmax):
        # Iteration-dependent factor
        ratio = (2. * i - (2. - t)) / (2. * i + (2 - t))
        # Current Omega term proportional to the previous term
        omega_i = -f * ratio * ei2phi * omega_i
        # Update the partial sum
        partial_sum += omega_i
    return partial_sum


@jax.jit  # scaffolding: the jitted EPL deflection that calls R_omega (epl.py line 190)
def alpha(x, y, b, t, q):  # scaffolding
    z = q * x + 1j * y  # scaffolding
    R = jnp.abs(z)  # scaffolding
    return 2. / (1. + q) * (b / R)**t * R_omega(z, t, q, nmax=20)  # scaffolding


x = jnp.linspace(0.1, 1.0, 50)  # scaffolding
for k in range(3):  # scaffolding
    alpha(x + k, x, 1.0, 1.0, 0.8)  # scaffolding
_report({"jit(alpha)"}, 3)  # scaffolding
