# source: https://github.com/hudsonchen/conditional_bayesian_quadrature/blob/1f61124f20975e3f3fb962f850d99c2707dce766/notebooks/stein.ipynb
# expect: jit-in-loop-or-body at line 161
# runtime: COMPILES 6 CALLS 10
# why: nllk_func and step are re-decorated with @jax.jit inside the loop over Monte Carlo repetitions and close over that repetition's x and fx, so every repetition traces and compiles step afresh (3 compiles each, the first two from weak-typed c and optimizer state), where one step taking x and fx as arguments would reuse its 3 compiles.

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
# cell 0
# import matplotlib.pyplot as plt  (scaffolding: plots cut, matplotlib not installed)
import math
# import sklearn  (scaffolding: unused, cut)
from tqdm import tqdm
# import torch  (scaffolding: unused, cut)
import jax.numpy as jnp
import jax
import time
import optax
import numpy as np

# from sklearn.gaussian_process.kernels import Matern  (scaffolding: unused, cut)
# (matplotlib rcParams and set_matplotlib_formats cut: scaffolding)

_CALLS = [0]  # scaffolding

# cell 1
seed = 10
rng_key = jax.random.PRNGKey(seed)
C = 5

x = jnp.linspace(-3, 3, 100)
fx = jnp.exp(jnp.sin(C * 2 * x) ** 2 - (2 * x) ** 2)
# (plot cut: scaffolding)

# cell 2


# @jax.jit
def jax_dist(x, y):
    return jnp.abs(x - y).squeeze()
distance = jax.vmap(jax_dist, in_axes=(None, 1), out_axes=1)

sign_func = jax.vmap(jnp.greater, in_axes=(None, 1), out_axes=1)

# @jax.jit
def my_Matern(x, y, l):    
    r = distance(x, y).squeeze()
    part1 = 1 + math.sqrt(3) * r / l 
    part2 = jnp.exp(-math.sqrt(3) * r / l)
    return part1 * part2


# @jax.jit
def dx_Matern(x, y, l):
    sign = sign_func(x, y).squeeze().astype(float) * 2 - 1
    r = distance(x, y).squeeze()
    part1 = jnp.exp(-math.sqrt(3) / l * r) * (math.sqrt(3) / l * sign)
    part2 = (-math.sqrt(3) / l * sign) * jnp.exp(-math.sqrt(3) / l * r) * (1 + math.sqrt(3) / l * r)
    return part1 + part2

# @jax.jit
def dy_Matern(x, y, l):
    sign = -(sign_func(x, y).squeeze().astype(float) * 2 - 1)
    r = distance(x, y).squeeze()
    part1 = jnp.exp(-math.sqrt(3) / l * r) * (math.sqrt(3) / l * sign)
    part2 = (-math.sqrt(3) / l * sign) * jnp.exp(-math.sqrt(3) / l * r) * (1 + math.sqrt(3) / l * r)
    return part1 + part2

# @jax.jit
def dxdy_Matern(x, y, l):
    r = distance(x, y).squeeze()
    const = math.sqrt(3) / l
    part1 = const * const * jnp.exp(-const * r)
    part2 = -const * const * jnp.exp(-const * r) * (1 + const * r)
    part3 = const * jnp.exp(-const * r) * const
    return -(part1 + part2 + part3)


# @jax.jit
def stein_kernel(x, y, l):
    d_log_px = -x
    d_log_py = -y
    
    K = my_Matern(x, y, l)
    dx_K = dx_Matern(x, y, l)
    dy_K = dy_Matern(x, y, l)
    dxdy_K = dxdy_Matern(x, y, l)
    part1 = d_log_px @ d_log_py.T * K
    part2 = d_log_py.T * dx_K
    part3 = d_log_px * dy_K
    part4 = dxdy_K
    return part1 + part2 + part3 + part4
    
    

# cell 3
seed = int(time.time())
# seed = 0
rng_key = jax.random.PRNGKey(seed)
C = 5
# n_list = [200]
# n_list = jnp.concatenate((jnp.arange(3, 9), jnp.arange(1, 20) * 10))
n = 100
eps = 1e-6

l_list = jnp.array([])
c_list = jnp.array([])
MC_list = jnp.array([])
BMC_mean_list = jnp.array([])
BMC_std_list = jnp.array([])

x = jax.random.normal(rng_key, shape=(100000,))
fx = jnp.exp(jnp.sin(C * 2 * x) ** 2 - (2 * x) ** 2)
true_value = fx.mean()

learning_rate = 1e-2
optimizer = optax.adam(learning_rate)

    
for _ in tqdm(range(2)):  # scaffolding: range(50) in the notebook
    rng_key, _ = jax.random.split(rng_key)
    x = jax.random.normal(rng_key, shape=(n,))[:, None]
    fx = jnp.exp(jnp.sin(C * 2 * x) ** 2 - (2 * x) ** 2)
    MC_list = jnp.append(MC_list, fx.mean())

    c_init = c = 1.0
    log_l_init = log_l = jnp.log(0.3)
    A_init = A = 1.0 / jnp.sqrt(n)
    opt_state = optimizer.init((log_l_init, c_init, A_init))

    
    @jax.jit
    def nllk_func(log_l, c, A):
        l = jnp.exp(log_l)
        n = x.shape[0]
        K = A * stein_kernel(x, x, l) + c
        K_inv = jnp.linalg.inv(K)
        nll = -(-0.5 * fx.T @ K_inv @ fx - 0.5 * jnp.log(jnp.linalg.det(K) + eps)) / n
        return nll[0][0]

    @jax.jit
    def step(log_l, c, A, opt_state, rng_key):
        nllk_value, grads = jax.value_and_grad(nllk_func, argnums=(0, 1, 2))(log_l, c, A)
        updates, opt_state = optimizer.update(grads, opt_state, (log_l, c, A))
        log_l, c, A = optax.apply_updates((log_l, c, A), updates)
        # A = 1.0 / jnp.sqrt(n)
        # log_l = jnp.log(0.3)
        # c = 0.5
        return log_l, c, A, opt_state, nllk_value

    # Debug code
    log_l_debug_list = []
    c_debug_list = []
    A_debug_list = []
    nll_debug_list = []

    for _ in range(5):  # scaffolding: range(1000) in the notebook
        rng_key, _ = jax.random.split(rng_key)
        log_l, c, A, opt_state, nllk_value = step(log_l, c, A, opt_state, rng_key)
        _CALLS[0] += 1  # scaffolding
        # Debug code
        log_l_debug_list.append(log_l)
        c_debug_list.append(c)
        A_debug_list.append(A)
        nll_debug_list.append(nllk_value)

    l = jnp.exp(log_l)
    final_K = A * stein_kernel(x, x, l) + c
    final_K_inv = jnp.linalg.inv(final_K)
    BMC_mean = c * (final_K_inv @ fx).sum()
    BMC_std = jnp.sqrt(c * c - final_K_inv.sum() * c * c)
    BMC_mean_list = jnp.append(BMC_mean_list, BMC_mean)
    BMC_std_list = jnp.append(BMC_std_list, BMC_std)

    l_list = jnp.append(l_list, l)
    c_list = jnp.append(c_list, c)

# (histogram plots cut: scaffolding)

# cell 4
print(BMC_mean_list.mean())  # scaffolding: print of the cell's value

_report({"jit(step)"}, _CALLS[0])  # scaffolding
