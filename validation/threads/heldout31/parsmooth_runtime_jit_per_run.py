# source: https://github.com/EEA-sensors/sqrt-parallel-smoothers/blob/6a2ee2c9b1760dd9d78db85474e225eaa215ef2c/notebooks/experiment_bearing_only_param_estimation_run_time.ipynb
# expect: jit-in-loop-or-body at line 82
# runtime: COMPILES 6 CALLS 6
# why: The runtime benchmark builds method_res = lambda r: method(*args, r) and wraps value_and_grad of it in a fresh jax.jit for every run, so each run re-traces and recompiles the log-likelihood gradient even when the data length (and so every shape) is unchanged.

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
# (notebook notebooks/experiment_bearing_only_param_estimation_run_time.ipynb flattened: cells 0, 1, 3 (parts), 4 (one of
#  the eight jitted log-likelihoods), 5 and a reduced cell 6; parsmooth and the pickled data are replaced by stand-ins)
import jax
import numpy as np
import jax.numpy as jnp
import scipy
import time
from scipy.optimize import minimize

jax.config.update("jax_enable_x64", True)

# cell 1
dt = 0.01  # discretization time step
r_true = 0.05
n_run = 3  # scaffolding: 10 runs cut to 3
Ts = [8, 16]  # scaffolding: 13 lengths (1 ... 4096) cut to 2


def iterated_smoothing(observations, initial_points, prec, iteration):  # scaffolding: stand-in for parsmooth's iterated smoother
    m = initial_points[1:, :1] + (observations[:, :1] - initial_points[1:, :1]) * (1.0 - 0.5 ** iteration)
    return m, jnp.sum(-0.5 * prec ** 2 * (observations[:, :1] - m) ** 2)


# scaffolding: data.pkl (10 runs x 13 lengths of simulated bearings) replaced by random arrays of the same layout
_rng = np.random.RandomState(0)
Data = [[{'ys': jnp.asarray(_rng.randn(T, 2)), 'initial_states': jnp.asarray(_rng.randn(T + 1, 5))} for i in range(n_run)] for T in Ts]


# cell 4
@jax.jit
def runtime_get_ell_std_extended_par(observations, initial_points, iteration, prec_r):
    r = 1 / prec_r[0]
    _, ell = iterated_smoothing(observations, initial_points, r, iteration)  # scaffolding: R, observation model and parsmooth call condensed
    return -ell
# cell 5
#parallel
def func(method, lengths, data, n_runs=5, n_iter=15, sqrt=False, mth='extended-std-par'):
    SdR11s = []
    Times = []
    for t, _ in enumerate(lengths):
        print(f"Length {t+1} out of {len(lengths)}")
        sdR11_res = []
        run_times = []
        for i in range(n_runs):
            observations_slice = data[t][i]['ys']
            if sqrt:
                init_linearizations_states = data[t][i]['initial_states_sqrt']
                args = observations_slice, init_linearizations_states, n_iter
            else:
                init_linearizations_states = data[t][i]['initial_states']
                args = observations_slice, init_linearizations_states, n_iter
            r0 = np.array([10.])
            method_res = lambda r: method(*args,r)
            grad_func= jax.jit(jax.value_and_grad(method_res))
            gpu_grad_func = jax.jit(grad_func)  # scaffolding: backend="gpu" dropped (CPU run)
            def wrap_func(r):
                loss, grad_val = gpu_grad_func(r)
                return np.array(loss, dtype=np.float64), np.array(grad_val, dtype=np.float64)
            tic = time.time()
            sdR11 = minimize(wrap_func, r0, jac=True, method="L-BFGS-B", bounds=[(0, 100)], options={"maxiter": 3}).x  # scaffolding: maxiter
            toc = time.time()
            run_times.append(toc - tic)
            sdR11_res.append(sdR11)
            print(f"run {i+1} out of {n_runs}", end="\r")
        SdR11s.append(sdR11_res)
        Times.append(run_times)
        # (np.savez of per-length results cut)
    print()

    return np.array(Times), np.array(SdR11s)

# cell 6 (commented out in the notebook after it was run; its printed output is kept there)
time_gpu_extended_std_par, sd_gpu_extended_std_par= func(runtime_get_ell_std_extended_par, Ts, Data, n_run,sqrt=False, mth='extended-std-par')
_report({"jit(<lambda>)"}, len(Ts) * n_run)  # scaffolding: one optimisation per (length, run)
