# source: https://github.com/bdatko/numpyro_play/blob/9d0a32bcbadc679ee3a8a1e99de41903559e58d5/notebooks/pyro_importance_sampling.ipynb
# expect: shape-churn at line 93
# runtime: COMPILES 2 CALLS 23
# why: the jitted jax_simulate is called with mu as a Python float (0.12, 0.14) and then as the int 0 ('Third call, different type'), a weak int32 instead of a weak float32, so it compiles a second time.
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




# cell 1
# import arviz as az  # scaffolding: arviz not installed; used only after MCMC (cut)
import jax
import jax.numpy as jnp
# import matplotlib.pyplot as plt  # scaffolding: matplotlib not installed; plots cut
import numpy as np
# import pandas as pd  # scaffolding: pandas not installed; unused in the kept cells
from jax import jit, lax

import numpyro
from numpyro.distributions import Gamma, LogNormal, Normal, Uniform
from numpyro.infer import MCMC, NUTS, SA
# cell 2: IPython magics (%matplotlib, %autoreload, %watermark) cut  # scaffolding
# cells 3-4: %watermark cut  # scaffolding
# cell 5
key = jax.random.PRNGKey(2)
key
# cell 6
little_g = 9.8  # m/s/s
mu0 = 0.12  # actual coefficient of friction in the experiment
time_measurement_sigma = 0.02  # observation noise in seconds (known quantity)
# cell 7
def _body(info):
    displacement, length, velocity, dt, acceleration, T = info
    displacement += velocity * dt
    velocity += acceleration * dt
    T += dt

    return displacement, length, velocity, dt, acceleration, T


def _conf(info):
    displacement, length, _, _, _, _ = info
    return displacement < length


def slide(displacement, length, velocity, dt, acceleration, T):
    info = (displacement, length, velocity, dt, acceleration, T)
    res = lax.while_loop(_conf, _body, info)
    return res[-1]


# length=2.0, phi=jnp.pi / 6.0, dt=0.005
@jit
def jax_simulate(mu, key, noise_sigma, length, phi, dt):
    T = jnp.zeros(())
    velocity = jnp.zeros(())
    displacement = jnp.zeros(())
    acceleration = (little_g * jnp.sin(phi)) - (little_g * jnp.cos(phi)) * mu

    T = slide(displacement, length, velocity, dt, acceleration, T)

    return T + noise_sigma * jax.random.normal(key, ())
# cell 8
print(
    "First call: ",
    jax_simulate(mu0, key, time_measurement_sigma, 2.0, jnp.pi / 6.0, 0.005),
)
print(
    "Second call: ",
    jax_simulate(0.14, key, time_measurement_sigma, 2.0, jnp.pi / 6.0, 0.005),
)
print(
    "Third call, different type: ",
    jax_simulate(0, key, time_measurement_sigma, 2.0, jnp.pi / 6.0, 0.005),
)
# cell 9
# analytic formula that the simulator above is computing via
# numerical integration (no measurement noise)
@jax.jit
def analytic_T(mu, length=2.0, phi=jnp.pi / 6.0):
    numerator = 2.0 * length
    denominator = little_g * (jnp.sin(phi) - mu * jnp.cos(phi))
    return jnp.sqrt(numerator / denominator)
# cell 10
# generate N_obs observations using simulator and the true coefficient of friction mu0
print("generating simulated data using the true coefficient of friction %.3f" % mu0)
N_obs = 20
# cell 11
keys = jax.random.split(key, N_obs)
# cell 12
observed_data = jnp.array(
    [
        jax_simulate(mu0, key, time_measurement_sigma, 2.0, jnp.pi / 6.0, 0.005)
        for key in keys
    ]
)
observed_mean = jnp.mean(observed_data)
observed_mean
# (cells 13-21: the numpyro model and MCMC runs, and arviz summaries, cut)  # scaffolding
_report({"jit(jax_simulate)"}, 23)  # scaffolding: 3 calls in cell 8, 20 in cell 12
