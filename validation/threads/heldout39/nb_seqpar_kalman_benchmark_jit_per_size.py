# source: https://github.com/EEA-sensors/sequential-parallelization-examples/blob/3aaec605d8336bf2280e9feb2969303736c93d71/python/temporal-parallelization-bayes-smoothers/parallel_kalman_jax.ipynb
# expect: none
# runtime: COMPILES 4 CALLS 12
# why: jit(kfs, backend="cpu") and jit(pkfs, backend="cpu") are built once and called in a benchmark loop over observation lengths: each length is a new shape and compiles once, then the timed repeat calls reuse it; the StateSpaceModel namedtuple (ints xdim/ydim included) is an ordinary pytree argument, so nothing recompiles needlessly.

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
# cell 2
# (pip install of jax 0.1.77 cut: scaffolding)

# cell 5
_CALLS = [0]  # scaffolding
# Python specific imports that will make our job easier and our code prettier
from collections import namedtuple
from functools import partial
import time
from tqdm.auto import trange, tqdm

# JAX specific imports that we will use to code the logic
from jax import jit, vmap, make_jaxpr, device_put, devices
from jax import config  # scaffolding: `from jax.config import config` in the notebook (module removed)
from jax.core import eval_jaxpr  # this will serve as a proxy compiler as JAX doesn't have an AOT function
from jax.lax import associative_scan, psum, scan
import jax.numpy as jnp
import jax.scipy as jsc

# Auxiliary libraries that we will use to report results and create the data
import math
# import matplotlib.pyplot as plt  (scaffolding: plots cut)
import numpy as np
import scipy as sc

# cell 6
config.update("jax_enable_x64", True)  # We use this so that we have the same precision as the pure numpy implementation
                                       # This can be useful in particular for large observations (long running series)

# cell 8
LOG2PI = math.log(2 * math.pi)

# cell 10
StateSpaceModel = namedtuple("StateSpaceModel", ["F", "H", "Q", "R", "m0", "P0", "xdim", "ydim"])

# cell 11
def make_car_tracking_model(q: float, dt: float, r: float, m0: np.ndarray, P0: np.ndarray):
    F = np.eye(4) + dt * np.eye(4, k=2)
    H = np.eye(2, 4)
    Q = np.kron(np.array([[dt**3/3, dt**2/2],
                          [dt**2/2, dt]]), 
                np.eye(2))
    R = r ** 2 * np.eye(2)
    return StateSpaceModel(F, H, q * Q, R, m0, P0, m0.shape[0], H.shape[0])

# cell 12
car_tracking_model = make_car_tracking_model(q=1., dt=0.1, r=0.5, 
                                             m0=np.array([0., 0., 1., -1.]), 
                                             P0=np.eye(4))

# cell 14
def get_data(model: StateSpaceModel, T:float, seed:int=0):
    # We first generate the normals we will be using to simulate the SSM:
    rng = np.random.RandomState(seed)
    normals = rng.randn(1 + T, model.xdim + model.ydim)
    
    # Then we allocate the arrays where the simulated path and observations will
    # be stored:
    xs = np.empty((T, model.xdim))
    ys = np.empty((T, model.ydim))

    # So that we can now run the sampling routine:
    Q_chol = sc.linalg.cholesky(model.Q, lower=True)
    R_chol = sc.linalg.cholesky(model.R, lower=True)
    P0_chol = sc.linalg.cholesky(model.P0, lower=True)
    x = model.m0 + P0_chol @ normals[0, :model.xdim]
    for i, norm in enumerate(normals[1:]):
        x = model.F @ x + Q_chol @ norm[:model.xdim]
        y = model.H @ x + R_chol @ norm[model.xdim:]
        xs[i] = x
        ys[i] = y
    return xs, ys

# cell 15
log10T = 3  # scaffolding: 4 in the notebook

# cell 16
true_xs, ys = get_data(car_tracking_model, 10 ** log10T, 0)

# cell 18
# (plot cut: scaffolding)

# cell 21
def mvn_logpdf(x, mean, cov):
    n = mean.shape[0]
    upper = jsc.linalg.cholesky(cov, lower=False)
    log_det = 2 * jnp.sum(jnp.log(jnp.abs(jnp.diag(upper))))
    diff = x - mean
    scaled_diff = jsc.linalg.solve_triangular(upper, diff.T, lower=False)
    distance = jnp.sum(scaled_diff * scaled_diff, 0)
    return -0.5 * (distance + n * LOG2PI + log_det)

# cell 22
def kf(model, observations):
    def body(carry, y):
        m, P = carry
        m = model.F @ m
        P = model.F @ P @ model.F.T + model.Q

        obs_mean = model.H @ m
        S = model.H @ P @ model.H.T + model.R

        K = jsc.linalg.solve(S, model.H @ P, assume_a='pos').T  # notice the jsc here
        m = m + K @ (y - model.H @ m)
        P = P - K @ S @ K.T
        return (m, P), (m, P)

    _, (fms, fPs) = scan(body, (model.m0, model.P0), observations)
    return fms, fPs

# cell 23
fms, fPs = kf(car_tracking_model, ys[:100])

# cell 25
def ks(model, ms, Ps):
    def body(carry, inp):
        m, P = inp
        sm, sP = carry

        pm = model.F @ m
        pP = model.F @ P @ model.F.T + model.Q

        C = jsc.linalg.solve(pP, model.F @ P, assume_a='pos').T  # notice the jsc here
        
        sm = m + C @ (sm - pm)
        sP = P + C @ (sP - pP) @ C.T
        return (sm, sP), (sm, sP)

    _, (sms, sPs) = scan(body, (ms[-1], Ps[-1]), (ms[:-1], Ps[:-1]), reverse=True)
    sms = jnp.append(sms, jnp.expand_dims(ms[-1], 0), 0)
    sPs = jnp.append(sPs, jnp.expand_dims(Ps[-1], 0), 0)
    return sms, sPs

# cell 26
sms, sPs = ks(car_tracking_model, fms, fPs)

# cell 28
# (plot cut: scaffolding)

# cell 30
def kfs(model, observations):
    return ks(model, *kf(model, observations))

# cell 33
array_of_floats = np.arange(2 ** 4, dtype=np.float32)

# cell 35
def cumulative_sum(arr):
    # obviously numpy implements cumulative sums already, but this is for illustrative purposes.
    res = np.empty_like(arr)
    temp = 0.
    for i, val in enumerate(arr):
        temp += val
        res[i] = temp
    return res

# cell 36
print(cumulative_sum(array_of_floats))  # scaffolding: print of the cell value

# cell 38
def prefix_sum(arr):
    # This is for illustration purposes only, and for instance doesn't take into
    # account the case when the array size is not a pure power of 2
    res = np.copy(arr)
    n = res.shape[0]
    log_n  = np.log2(n).astype(int)

    # Up pass
    for d in range(log_n):
        # this loop can't be done in parallel so it defines the span complexity under
        # parallelization
        for i in range(0, n, 2 ** (d + 1)):
            # this should be done in parallel, therefore would not be taken 
            # into account in the span complexity provided we have at least 
            # n / 2^{d+1} cores on our GPU
            i1 = i + 2 ** d - 1
            i2 = i + 2 ** (d + 1) - 1
            res[i2] += res[i1]

    res[-1] = 0

    # Down pass
    for d in range(log_n-1, -1, -1):
        # this loop can't be done in parallel so it defines the span complexity under
        # parallelization
        for i in range(0, n, 2 ** (d + 1)):
            # this should be done in parallel, therefore would not be taken 
            # into account in the span complexity provided we have at least 
            # n / 2^{d+1} cores on our GPU
            i1 = i + 2 ** d - 1
            i2 = i + 2 ** (d + 1) - 1
        
            res[i1], res[i2] = res[i2], res[i1] + res[i2] 
                
    # Extra pass
    res += arr
    
    return res

# cell 39
print(prefix_sum(array_of_floats))  # scaffolding: print of the cell value

# cell 45
def first_filtering_element(model, y):
    S = model.H @ model.Q @ model.H.T + model.R
    CF, low = jsc.linalg.cho_factor(S)  # note the jsc

    m1 = model.F @ model.m0
    P1 = model.F @ model.P0 @ model.F.T + model.Q
    S1 = model.H @ P1 @ model.H.T + model.R
    K1 = jsc.linalg.solve(S1, model.H @ P1, assume_a='pos').T  # note the jsc

    A = jnp.zeros_like(model.F)
    b = m1 + K1 @ (y - model.H @ m1)
    C = P1 - K1 @ S1 @ K1.T

    # note the jsc
    eta = model.F.T @ model.H.T @ jsc.linalg.cho_solve((CF, low), y)
    J = model.F.T @ model.H.T @ jsc.linalg.cho_solve((CF, low), model.H @ model.F)
    return A, b, C, J, eta


def generic_filtering_element(model, y):
    S = model.H @ model.Q @ model.H.T + model.R
    CF, low = jsc.linalg.cho_factor(S)  # note the jsc
    K = jsc.linalg.cho_solve((CF, low), model.H @ model.Q).T  # note the jsc
    A = model.F - K @ model.H @ model.F
    b = K @ y
    C = model.Q - K @ model.H @ model.Q

    # note the jsc
    eta = model.F.T @ model.H.T @ jsc.linalg.cho_solve((CF, low), y)
    J = model.F.T @ model.H.T @ jsc.linalg.cho_solve((CF, low), model.H @ model.F)
    return A, b, C, J, eta

# cell 47
def make_associative_filtering_elements(model, observations):
    first_elems = first_filtering_element(model, observations[0])
    generic_elems = vmap(lambda o: generic_filtering_element(model, o))(observations[1:])
    return tuple(jnp.concatenate([jnp.expand_dims(first_e, 0), gen_es]) 
                 for first_e, gen_es in zip(first_elems, generic_elems))

# cell 49
@vmap
def filtering_operator(elem1, elem2):
    # # note the jsc everywhere
    A1, b1, C1, J1, eta1 = elem1
    A2, b2, C2, J2, eta2 = elem2
    dim = A1.shape[0]
    I = jnp.eye(dim)  # note the jnp

    I_C1J2 = I + C1 @ J2
    temp = jsc.linalg.solve(I_C1J2.T, A2.T).T
    A = temp @ A1
    b = temp @ (b1 + C1 @ eta2) + b2
    C = temp @ C1 @ A2.T + C2

    I_J2C1 = I + J2 @ C1
    temp = jsc.linalg.solve(I_J2C1.T, A1).T

    eta = temp @ (eta2 - J2 @ b1) + eta1
    J = temp @ J2 @ A1 + J1

    return A, b, C, J, eta

# cell 51
def pkf(model, observations):
    initial_elements = make_associative_filtering_elements(model, observations)
    final_elements = associative_scan(filtering_operator, initial_elements)
    return final_elements[1], final_elements[2]

# cell 53
pfms, pfPs = pkf(car_tracking_model, ys[:100])

# cell 55
print(np.abs(pfms - fms).max())  # scaffolding: print of the cell value

# cell 58
def last_smoothing_element(m, P):
    return jnp.zeros_like(P), m, P

def generic_smoothing_element(model, m, P):
    Pp = model.F @ P @ model.F.T + model.Q

    E  = jsc.linalg.solve(Pp, model.F @ P, assume_a='pos').T
    g  = m - E @ model.F @ m
    L  = P - E @ Pp @ E.T
    return E, g, L

# cell 60
def make_associative_smoothing_elements(model, filtering_means, filtering_covariances):
    last_elems = last_smoothing_element(filtering_means[-1], filtering_covariances[-1])
    generic_elems = vmap(lambda m, P: generic_smoothing_element(model, m, P))(filtering_means[:-1], filtering_covariances[:-1])
    return tuple(jnp.append(gen_es, jnp.expand_dims(last_e, 0), axis=0) 
                 for gen_es, last_e in zip(generic_elems, last_elems))

# cell 62
@vmap
def smoothing_operator(elem1, elem2):
    E1, g1, L1 = elem1
    E2, g2, L2 = elem2

    E = E2 @ E1
    g = E2 @ g1 + g2
    L = E2 @ L1 @ E2.T + L2

    return E, g, L

# cell 64
def pks(model, filtered_means, filtered_covariances):
    initial_elements = make_associative_smoothing_elements(model, filtered_means, filtered_covariances)
    final_elements = associative_scan(smoothing_operator, initial_elements, reverse=True)  # note the vmap
    return final_elements[1], final_elements[2]

# cell 66
psms, psPs = pks(car_tracking_model, pfms, pfPs)

# cell 68
def pkfs(model, observations):
    return pks(model, *pkf(model, observations))

# cell 71
cpu_kfs = jit(kfs, backend="cpu")
cpu_pkfs = jit(pkfs, backend="cpu")
# gpu_kfs = jit(kfs, backend="gpu")  (scaffolding: no GPU here)
# gpu_pkfs = jit(pkfs, backend="gpu")  (scaffolding: no GPU here)

# cell 72
input_sizes = np.logspace(2, log10T, num=2, base=10).astype(int)  # scaffolding: num=10 in the notebook

# cell 73
print(input_sizes)  # scaffolding: print of the cell value

# cell 74
cpu = devices("cpu")[0]
# gpu = devices("gpu")[0]  (scaffolding: no GPU here)

# cell 75
def get_average_runtimes(func, n_iter, device):
    runtimes = np.empty(input_sizes.shape)
    device_model = StateSpaceModel(*(device_put(jnp.asarray(val), device) for val in car_tracking_model))
    for i, input_size in tqdm(enumerate(input_sizes), total=runtimes.shape[0]):
        observations = device_put(jnp.asarray(ys[:input_size]), device)
        res = func(device_model, observations)  # compilation run
        _CALLS[0] += 1  # scaffolding
        for e in res:
            _ = e.block_until_ready()
        tic = time.time()
        for _ in trange(n_iter, leave=False):
            res = func(device_model, observations)
            _CALLS[0] += 1  # scaffolding
            for e in res:
                _ = e.block_until_ready()
        runtimes[i] = (time.time() - tic) / n_iter
    return runtimes

# cell 76
n_iter = 2  # scaffolding: 5 in the notebook

# cell 77
cpu_sequential_runtimes = get_average_runtimes(cpu_kfs, n_iter, cpu)
cpu_parallel_runtimes = get_average_runtimes(cpu_pkfs, n_iter, cpu)
# gpu_sequential_runtimes = get_average_runtimes(gpu_kfs, n_iter, gpu)  (scaffolding: no GPU here)
# gpu_parallel_runtimes = get_average_runtimes(gpu_pkfs, n_iter, gpu)  (scaffolding: no GPU here)

# cell 79
# (plot cut: scaffolding)

_report({"jit(kfs)", "jit(pkfs)"}, _CALLS[0])  # scaffolding
