# source: https://github.com/ArgonneCPAC/diffstar/pull/1
# expect: trace-time-error at line 54
# runtime: ERROR ValueError
# why: the original _get_dt_array fills a numpy array element by element, so calling it on a traced time grid inside a jitted function stores tracers into np.zeros and raises (ValueError: setting an array element with a sequence); the PR adds a jnp version so dt can be inferred inside jit.
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
def _integrate_sfr(sfr, dt):
    """Calculate the cumulative stellar mass history."""
    return jnp.cumsum(sfr * dt) * 1e9


@jjit
def mstar_history_from_lgt(lgt, sfr):  # scaffolding: the SFH calculators of stars.py, inferring dt from lgt inside jit as the PR intends
    dt = _get_dt_array(10**lgt)
    return _integrate_sfr(sfr, dt)


lgt = np.log10(np.linspace(0.1, 13.8, 50))  # scaffolding
try:  # scaffolding
    for k in range(2):  # scaffolding: two galaxies
        mstar = mstar_history_from_lgt(lgt, np.full(50, 1.0 + k))
    _report({"jit(mstar_history_from_lgt)"}, 2)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
