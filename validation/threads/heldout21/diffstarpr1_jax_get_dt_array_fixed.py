# source: https://github.com/ArgonneCPAC/diffstar/pull/1
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: with the PR's _jax_get_dt_array (jnp.diff and .at[].set on the traced grid) the jitted caller compiles once for two galaxies.
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
from jax import jit as jjit
from jax import numpy as jnp


def _get_dt_array(t):
    """Compute delta time from input time."""
    n = t.size
    dt = np.zeros(n)
    tlo = t[0] - (t[1] - t[0]) / 2
    for i in range(n - 1):
        thi = (t[i + 1] + t[i]) / 2
        dt[i] = thi - tlo
        tlo = thi
    thi = t[n - 1] + dt[n - 2] / 2
    dt[n - 1] = thi - tlo
    return dt


@jjit
def _jax_get_dt_array(t):
    dt = jnp.zeros_like(t)
    tmids = 0.5 * (t[:-1] + t[1:])
    dtmids = jnp.diff(tmids)

    dt = dt.at[1:-1].set(dtmids)

    t_lo = t[0] - (t[1] - t[0]) / 2
    t_hi = t[-1] + dtmids[-1] / 2

    dt = dt.at[0].set(tmids[0] - t_lo)
    dt = dt.at[-1].set(t_hi - tmids[-1])
    return dt


@jjit
def _integrate_sfr(sfr, dt):
    """Calculate the cumulative stellar mass history."""
    return jnp.cumsum(sfr * dt) * 1e9


@jjit
def mstar_history_from_lgt(lgt, sfr):  # scaffolding: the SFH calculators of stars.py, inferring dt from lgt inside jit as the PR intends
    dt = _jax_get_dt_array(10**lgt)
    return _integrate_sfr(sfr, dt)


lgt = np.log10(np.linspace(0.1, 13.8, 50))  # scaffolding
try:  # scaffolding
    for k in range(2):  # scaffolding: two galaxies
        mstar = mstar_history_from_lgt(lgt, np.full(50, 1.0 + k))
    _report({"jit(mstar_history_from_lgt)"}, 2)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
