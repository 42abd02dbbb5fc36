# source: https://github.com/exoplanet-dev/jaxoplanet/issues/178
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: dfm's suggestion: a jitted helper that builds the system from params and returns the fluxes, so nothing traced escapes; it compiles once for 2 parameter sets.
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


@jax.jit
def compute_light_curve(params, time):
    system = System(Central(params["mass"], params["central_radius"]), params["radius"], params["period"])  # build system using params (scaffolding)
    return light_curve(system)(time)


time = np.linspace(-2.0, 2.0, 1000)
for radius in (0.5, 0.6):  # scaffolding: two parameter sets
    params = {"mass": jnp.array(1.3), "central_radius": jnp.array(1.1), "radius": jnp.array(radius), "period": jnp.array(1.5)}  # scaffolding
    flux = compute_light_curve(params, time)
_report({"jit(compute_light_curve)"}, 2)  # scaffolding
