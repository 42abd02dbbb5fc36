# source: https://github.com/romilly/spiking-jax/blob/79270ea0e61116ad5853ea9b6c0da429a356a3a6/notebooks/lif-jax.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 10
# why: jit(step) reads neuron constants (threshold, reset_voltage, dt, R_DUR...) from notebook globals that are never reassigned, so baking them in at trace time is harmless; repeated calls with the same arrays compile once.

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
mv = 0.001
ms = 0.001
mmo = 0.001
na = 1E-9
megohm = 1E6

# typical neuron parameters
threshold = -50 * mv     # spike threshold [mV]
reset_voltage = -65 * mv  # reset potential [mV]
tau_m = 8. * ms     # membrane time constant [ms]
membrane_resistance = 10 * megohm    # membrane resistance [MOhm]
initial_potential = -75 * mv   # initial potential [mV]
resting_potential = -70 * mv      # resting potential [mV]
refactory_period = 3. * ms      # refractory time (ms)
I = 1.0 * na # base injection current [mA]

# simulation parameters
dt = 0.1 * ms  # Simulation time step [ms]
R_DUR = int(refactory_period / dt)

import jax.numpy as np


def initial_state(count):
    potentials = np.full(count, initial_potential)
    ts = np.zeros(count)
    injected_currents = na * (np.array(range(count)) + 1)
    return injected_currents, potentials, ts


def step(v, tr, injected_current):
    rv = np.full_like(v, reset_voltage)
    dv = ((resting_potential - v) + (injected_current * membrane_resistance)) * (dt / tau_m)
    spikes = v > threshold
    next_v = np.where(spikes, rv, v + dv)
    refactory = tr > 0
    next_v = np.where(refactory, rv, next_v)
    next_tr = np.where(refactory, tr - 1, tr)
    next_tr = np.where(spikes, R_DUR, next_tr)
    return next_v, next_tr, spikes

COUNT = 1000  # scaffolding: 1000000 in the notebook

injected_currents, potentials, ts = initial_state(COUNT)

for _ in range(10):  # scaffolding: %timeit -n 100 -r 100 step(potentials, ts, injected_currents)
    step(potentials, ts, injected_currents)

from jax import jit

jstep = jit(step)

for _ in range(10):  # scaffolding: %timeit -n 100 -r 100 jstep(potentials, ts, injected_currents)
    jstep(potentials, ts, injected_currents)
_report({"jit(step)"}, 10)  # scaffolding
