# source: https://github.com/EEA-sensors/parallel-non-linear-gaussian-smoothers/blob/a7e6986c4a5a60e7901c854751e787b4a512545e/notebooks/runtime.ipynb
# expect: shape-churn at line 104
# runtime: COMPILES 20 CALLS 40
# why: profile_smoother slices the observations and linearisation points to observations[:j] for each of 20 lengths and calls the jitted smoother, so every new length is a new input shape and the smoother is recompiled for each one.

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
# (notebook notebooks/runtime.ipynb flattened: cells 4, 7, 9, 10, 12, 15, 17, 18, 20, 21; shell and plotting cells cut;
#  parsmooth's smoother and bearings model are replaced by stand-ins with the same signatures)
from collections import namedtuple
from typing import Callable

# cell 4
from jax import jit, devices, make_jaxpr
import jax
import jax.numpy as jnp
import numpy as np
import time

MVNormalParameters = namedtuple("MVNormalParameters", ["mean", "cov"])  # from parsmooth/utils.py


def ieks(initial_state: MVNormalParameters,  # scaffolding: stand-in for parsmooth.parallel.ieks (same signature)
         observations: jnp.ndarray,
         transition_function: Callable,
         transition_covariance: jnp.ndarray,
         observation_function: Callable,
         observation_covariance: jnp.ndarray,
         initial_linearization_points: jnp.ndarray = None,
         n_iter: int = 100,
         propagate_first: bool = True):
    def body(i, m):
        pred = transition_function(m)
        innov = observations - observation_function(pred)
        return pred + 0.01 * jnp.pad(innov, ((0, 0), (0, 3)))
    mean = jax.lax.fori_loop(0, n_iter, body, initial_linearization_points.mean)
    return MVNormalParameters(mean, initial_linearization_points.cov + transition_covariance)


def make_parameters(qc, qw, r, dt, s1, s2):  # scaffolding: stand-in for parsmooth.models.bearings.make_parameters
    Q = qc * dt * jnp.eye(5)
    R = r ** 2 * jnp.eye(2)
    transition_function = lambda x: x + dt * jnp.array([x[2], x[3], 0., 0., 0.])
    observation_function = lambda x: jnp.array([jnp.arctan2(x[1] - s1[1], x[0] - s1[0]), jnp.arctan2(x[1] - s2[1], x[0] - s2[0])])
    return Q, R, observation_function, transition_function


def get_data(x0, dt, r, T, s1, s2, qw, random_state=None):  # scaffolding: stand-in for parsmooth.models.bearings.get_data
    rng = np.random.RandomState(random_state)
    return np.arange(T) * dt, rng.randn(T, 5), jnp.asarray(rng.randn(T, 2))


# cell 7
s1 = jnp.array([-1.5, 0.5])  # First sensor location
s2 = jnp.array([1., 1.])  # Second sensor location
r = 5.  # Observation noise (stddev) - Large because IEKS is not very stable
dt = 0.01  # discretization time step
x0 = jnp.array([0.1, 0.2, 1, 0])  # initial true location
qc = 0.1  # noise - Large because IEKS is not very stable
qw = 0.1  # noise - Small because IEKS is not very stable

T = 100  # number of observations
# cell 9
Q, R, observation_function, transition_function = make_parameters(qc, qw, r, dt, s1, s2)
# cell 10
transition_function = jnp.vectorize(transition_function, signature="(m)->(m)")
observation_function = jnp.vectorize(observation_function, signature="(m)->(d)")
# cell 12
ts, true_states, observations = get_data(x0, dt, r, T, s1, s2, qw, random_state=42)
# cell 15
m = jnp.array([-1., -1., 0., 0., 0.])
P = jnp.eye(5)

initial_guess = MVNormalParameters(m, P)
initial_linearization_points = jnp.zeros((T, 5), dtype=m.dtype)
initial_linearization_covariances = jnp.repeat(jnp.eye(5).reshape(1, 5, 5), T, axis=0)
# cell 17 (the three other smoothers and the GPU variants cut)
cpu_par_ieks = jit(ieks, static_argnums=(2, 4, 7), backend="cpu")
# cell 18
def profile_smoother(s_method, lengths, n_runs=1, n_iter=10):
    res_mean = []
    for j in lengths:  # scaffolding: tqdm.tqdm(lengths) dropped
        observations_slice = observations[:j]
        init_linearizations_points_slice = initial_linearization_points[:j]
        init_linearizations_covs_slice = initial_linearization_covariances[:j]
        init_linearizations_states = MVNormalParameters(init_linearizations_points_slice, init_linearizations_covs_slice)
        args = initial_guess, observations_slice, transition_function, Q, observation_function, R, init_linearizations_states, n_iter
        s = s_method(*args)  # this is a call used for compiling the function, this is a bit slow at the moment in JAX and shouldn't be taken into account for benchmarking.
                             # they are currently working on AOT compilation, which would then reduce the overhead substantially.   
        s.mean.block_until_ready()
        run_times = []
        for _ in range(n_runs):
            tic = time.time()
            s_states = s_method(*args)
            s_states.mean.block_until_ready()
            toc = time.time()
            run_times.append(toc - tic)
        res_mean.append(np.mean(run_times))
    return np.array(res_mean)
# cell 20
lengths_space = np.logspace(1, np.log10(T), num=20).astype(np.int32)
# cell 21
cpu_par_ieks_time = profile_smoother(cpu_par_ieks, lengths_space)
_report({"jit(ieks)"}, 2 * len(lengths_space))  # scaffolding: a warm-up and one timed call per length
