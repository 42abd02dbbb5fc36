# source: https://jan-williams.github.io/OpenReservoirComputing/examples/jit_compatibility/
# expect: unhashable-static at line 64
# runtime: ERROR TypeError
# why: jax.jit(esn.forecast) makes the bound method, and with it the whole model, part of the cache key; the model holds a sparse BCOO matrix, which cannot be hashed, so the call fails.

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
import functools

import equinox as eqx
import jax
import jax.numpy as jnp
from jax.experimental import sparse  # scaffolding

jax.config.update("jax_enable_x64", True)


class ESNForecaster(eqx.Module):  # scaffolding: stand-in for orc.forecaster.ESNForecaster (orc is not installed)
    Wr: sparse.BCOO  # scaffolding: sparse reservoir matrix, as in ORC
    Wout: jax.Array  # scaffolding

    def __init__(self, data_dim, res_dim, seed=0):  # scaffolding
        k1, k2 = jax.random.split(jax.random.PRNGKey(seed))  # scaffolding
        mask = jax.random.uniform(k2, (res_dim, res_dim)) < 0.05  # scaffolding
        self.Wr = sparse.BCOO.fromdense(0.1 * jax.random.normal(k1, (res_dim, res_dim)) * mask)  # scaffolding
        self.Wout = jnp.ones((data_dim, res_dim)) / res_dim  # scaffolding

    def forecast(self, fcast_len, res_state):  # scaffolding
        def step(r, _):  # scaffolding
            r = jnp.tanh(self.Wr @ r)  # scaffolding
            return r, self.Wout @ r  # scaffolding

        _, ys = jax.lax.scan(step, res_state, None, length=fcast_len)  # scaffolding
        return ys  # scaffolding


esn = ESNForecaster(data_dim=3, res_dim=500, seed=0)
R = jnp.ones((2400, 1, 500))  # scaffolding: stands in for the trained reservoir states
fcast_len = 600  # scaffolding: len(U_test)

# Pattern 1 - closed-over jax.jit (does not work)
try:  # scaffolding
    fc = jax.jit(esn.forecast)
    fc(fcast_len, R[-1, 0])
    _report({"jit(forecast)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
