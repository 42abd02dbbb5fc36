# source: https://github.com/IanQS/numpy_to_jax/blob/efe090d340fb77708dd6a65e70b3465a4a42e061/case_studies/leaky_integrate_and_fire/jax_leaky_integrate_and_fire_2_jit.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 297
# why: update_step is jitted once at module level and called every time step with the same shapes, NumPy weights and Python-float hyperparameters; the slow 'incorrect' variant only pays host-to-device copies, it compiles once.

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
import jax
import jax.numpy as jnp

from typing import TypeAlias
import time
import numpy as np

# from lif_hparams import (...)  -- values inlined from lif_hparams.py (scaffolding)
_dt = 0.01           # Time step (ms)
_t_max = 1           # scaffolding: 100 in lif_hparams.py
_tau_m = 20.0       # Membrane time constant (ms)
_V_reset = -65.0    # Reset potential (mV)
_V_thresh = -50.0   # Threshold potential (mV)
_R = 1.0            # Membrane resistance (MΩ)
num_simulations = 3

W = np.random.RandomState(0).rand(50, 50)  # scaffolding: stand-in for weights.npy


# Initial conditions
n_neurons = len(W)# Number of neurons in the network
_V = jnp.ones(n_neurons) * _V_reset  # Initial potentials

Mat: TypeAlias = jnp.ndarray
Vec: TypeAlias = jnp.ndarray 

@jax.jit
def update_step(
        V, W,
        # Hyperparameters
        v_thresh, v_reset, dt, tau_m, membr_R):
    fired = V >= v_thresh
    V = jnp.where(fired, v_reset, V)
    
    # Update voltages
    I_syn = W.dot(fired)  # Synaptic current from spikes
    dV = (dt / tau_m) * (-V + v_reset + membr_R * I_syn)
    V += dV

    # No self-inputs; neurons cannot spike themselves in this timestep
    V = jnp.where(fired, v_reset, V)
    return V, fired


def run_simulation(
    W: Mat,
    V: Vec,

    # Neuron Parameters
    tau_m: float,
    v_reset: float,
    v_thresh: float,
    membr_R: float,

    # How long do we run for? 
    t_max: float,
    dt: float, 

):
    # Simulation

    spike_train = []
    for i, t in enumerate(jnp.arange(0, t_max, dt)):
        if i == 0:
            continue
        V, fired = update_step(V, W, v_thresh, v_reset, dt, tau_m, membr_R )
        spike_train.append(fired)

    return spike_train

_calls = 0  # scaffolding
time_arr = []
for i in range(num_simulations):
    start = time.time()
    spike_train = run_simulation(
        W,
        _V,
        _tau_m, _V_reset, _V_thresh, _R,
        _t_max, _dt
    )
    _calls += len(spike_train)  # scaffolding
    np.asarray(spike_train)
    end = time.time()
    #print(f"Iteration {i} took: {end - start} seconds")
    time_arr.append(end - start)

print(f"Average Time: {np.mean(time_arr)}")
print(f"S.Dev Time: {np.std(time_arr)}")
_report({"jit(update_step)"}, _calls)  # scaffolding
