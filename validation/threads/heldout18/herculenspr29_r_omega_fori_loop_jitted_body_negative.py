# source: https://github.com/Herculens/herculens/pull/29
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the PR's R_omega defines a fresh @jit body_fun per call and runs it in lax.fori_loop, but inside the jitted EPL deflection that inner jit is only traced, so there is one compile for three lens positions.
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


from functools import partial  # jax_util.py imports at bfb8420 (kept)
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

    @jit
    def body_fun(i, val):
        ratio = (2. * i + t - 2) / (2. * i - t + 2.)
        val[1] = -f * ei2phi * ratio * val[1]
        val[0] += val[1]
        return val

    return lax.fori_loop(1, nmax, body_fun, [partial_sum, omega_i])[0]


@jax.jit  # scaffolding: the jitted EPL deflection that calls R_omega (epl.py line 190)
def alpha(x, y, b, t, q):  # scaffolding
    z = q * x + 1j * y  # scaffolding
    R = jnp.abs(z)  # scaffolding
    return 2. / (1. + q) * (b / R)**t * R_omega(z, t, q, nmax=20)  # scaffolding


x = jnp.linspace(0.1, 1.0, 50)  # scaffolding
for k in range(3):  # scaffolding
    alpha(x + k, x, 1.0, 1.0, 0.8)  # scaffolding
_report({"jit(alpha)", "jit(body_fun)"}, 3)  # scaffolding
