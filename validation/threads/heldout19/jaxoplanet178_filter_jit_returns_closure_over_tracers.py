# source: https://github.com/exoplanet-dev/jaxoplanet/issues/178
# expect: stale-closure at line 57
# runtime: ERROR UnexpectedTracerError
# why: filter_jit(light_curve)(system) returns the inner light-curve function, which closes over the traced system, so calling it with time after jit has returned uses leaked tracers and raises UnexpectedTracerError.
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

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
from equinox import filter_jit


class Central(eqx.Module):  # scaffolding: cut-down jaxoplanet keplerian.Central
    mass: jax.Array
    radius: jax.Array


class System(eqx.Module):  # scaffolding: cut-down jaxoplanet keplerian.System with one body
    central: Central
    radius: jax.Array
    period: jax.Array


def light_curve(system):  # scaffolding: stands in for jaxoplanet.experimental.starry.light_curves.light_curve
    @jnp.vectorize
    def impl(time):
        phase = 2 * jnp.pi * time / system.period
        return 1.0 - (system.radius / system.central.radius) ** 2 * jnp.maximum(jnp.cos(phase), 0.0)

    return impl


system = System(Central(jnp.array(1.3), jnp.array(1.1)), jnp.array(0.5), jnp.array(1.5))  # scaffolding

time = np.linspace(-2.0, 2.0, 1000)
try:  # scaffolding
    flux = filter_jit(light_curve)(system)(time)
    _report({"jit(light_curve)"}, 1)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
