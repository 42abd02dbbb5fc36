# source: https://github.com/IanQS/numpy_to_jax/blob/efe090d340fb77708dd6a65e70b3465a4a42e061/case_studies/leaky_integrate_and_fire/jax_leaky_integrate_and_fire_3_scan.ipynb
# expect: changing-static at line 103
# runtime: COMPILES 4 CALLS 4
# why: run_simulation builds a fresh functools.partial of the jitted _update_step on every run and hands it to an un-jitted lax.scan; the scan body is keyed on that new function object, so each simulation re-traces and recompiles jit(scan) (the static float hyperparameters themselves hash equal).

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
from functools import partial

# from lif_hparams import (...)  -- values inlined from lif_hparams.py (scaffolding)
_dt = 0.01           # Time step (ms)
_t_max = 1           # scaffolding: 100 in lif_hparams.py
_tau_m = 20.0       # Membrane time constant (ms)
_V_reset = -65.0    # Reset potential (mV)
_V_thresh = -50.0   # Threshold potential (mV)
_R = 1.0            # Membrane resistance (MΩ)
num_simulations = 4  # scaffolding: 3 in lif_hparams.py

W = jnp.asarray(np.random.RandomState(0).rand(50, 50))  # scaffolding: stand-in for weights.npy


# Initial conditions
n_neurons = len(W)# Number of neurons in the network
_V = jnp.ones(n_neurons) * _V_reset  # Initial potentials

Mat: TypeAlias = jnp.ndarray
Vec: TypeAlias = jnp.ndarray 

@partial(jax.jit, static_argnames=["v_thresh", "v_reset", "dt", "tau_m", "membr_R"])
def _update_step(
        carry,
        _,  # The second arg here should be None
        W,
        # Hyperparameters
        v_thresh, v_reset, dt, tau_m, membr_R):
    V = carry
    fired = V >= v_thresh
    V = jnp.where(fired, v_reset, V)
    
    # Update voltages
    I_syn = W.dot(fired)  # Synaptic current from spikes
    dV = (dt / tau_m) * (-V + v_reset + membr_R * I_syn)
    V += dV

    # No self-inputs; neurons cannot spike themselves in this timestep
    V = jnp.where(fired, v_reset, V)
    return (V), fired


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

    update_step = partial(
        _update_step,
        W= W,
        v_thresh=v_thresh,
        v_reset=v_reset,
        dt=dt,
        tau_m=tau_m,
        membr_R=membr_R
    )
    state, spike_train = jax.lax.scan(
        f=update_step,
        init=V,
        xs=None,
        length=int(t_max // dt)
    )
    return spike_train

time_arr = []
for i in range(num_simulations):
    start = time.time()
    spike_train = run_simulation(
        W,
        _V,
        _tau_m, _V_reset, _V_thresh, _R,
        _t_max, _dt
    )
    np.asarray(spike_train)
    end = time.time()
    #print(f"Iteration {i} took: {end - start} seconds")
    time_arr.append(end - start)

print(f"Average Time: {np.mean(time_arr)}")
print(f"S.Dev Time: {np.std(time_arr)}")
_report({"jit(scan)", "jit(_update_step)"}, num_simulations)  # scaffolding
