# source: https://github.com/pierreglaser/jax-tutorial/blob/main/tutorial_with_solutions.ipynb
# expect: none
# runtime: COMPILES 3 CALLS 15
# why: jit(ksd) is re-wrapped on every inner iteration, but it wraps the same function, so it compiles once per sample size only (3 compiles, 15 calls).
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

import numpy as np

import jax
import jax.numpy as jnp
from jax import jit, grad, vmap

def gaussian_kernel(x, y):
    sigma = 2
    z = x - y
    return jnp.exp(-jnp.sum(jnp.square(z)) / sigma ** 2)

def p(x):
    return jnp.exp(-0.5 * jnp.sum(jnp.square(x))) #  unnormalized standard normal density

# Solution
s = grad(lambda x: jnp.log(p(x)))

# You will need the jacobian function transformation of jax, which computes the jacobian of a vector-valued function
from jax import jacobian

def stein_kernel(x, y):
    k = gaussian_kernel
    term_1 = jnp.dot(s(x), s(y)) * k(x, y)
    term_2 = jnp.dot(s(x), grad(k, argnums=1)(x, y))
    term_3 = jnp.dot(grad(k, argnums=0)(x, y), s(y))
    
    # Solution
    term_4 = jnp.trace(jacobian(grad(k, argnums=1), argnums=0)(x, y))
    
    return term_1 + term_2 + term_3 + term_4

def compute_gram_matrix_stein_kernel(X):
    return vmap(vmap(stein_kernel, in_axes=(None, 0)), in_axes=(0, None))(X, X)

def ksd(X):
    N = X.shape[0]
    return jnp.sqrt(jnp.sum(compute_gram_matrix_stein_kernel(X)) / (N **2))

from jax import random

sample_sizes = (50, 100, 200)  # scaffolding: was (50, 100, 200, 300, 500, 1000, 2000, 5000)

key = random.PRNGKey(0)

ksd_vals = []
for N in sample_sizes:
    ksd_vals_this_iter = []
    for rs in range(5):
        key, subkey = random.split(key)
        X = jax.random.normal(key, (N, 2))
        ksd_vals_this_iter.append(jit(ksd)(jnp.array(X)))
    ksd_vals.append(jnp.mean(jnp.array(ksd_vals_this_iter)))
_report({"jit(ksd)"}, 15)  # scaffolding
