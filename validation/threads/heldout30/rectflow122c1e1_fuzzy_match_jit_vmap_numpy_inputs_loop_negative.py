# source: https://github.com/HeiseMax/RectifiedFlow/blob/122c1e1f0d9e2d5817e218eb80bd07bc2a63a337/jax.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 23
# why: find_closest = jit(vmap(...)) is built once at module level and fuzzy_match calls it on NumPy float64 arrays of the same (2048, 2) shape every time (the resampled y_r1/y_r2 included), so it compiles once for 23 calls.
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
import numpy as np
import torch
import jax
import jax.numpy as jnp
from jax import jit, random, vmap, pmap
from functools import wraps, partial

# import matplotlib.pyplot as plt  # scaffolding: matplotlib is not installed (plot cells cut)
# cell 2
# scaffolding: plt.rc styling cell cut
# cell 3
def slow_find_closest(x: np.array, ys: np.array) -> np.array:
    """ Find the closest y to x """
    residuals = x[None] - ys
    norms = np.linalg.norm(residuals, axis=-1)
    
    i = np.argmin(norms, axis=0)
    
    return ys[i], norms[i]
# cell 4
def slow_fuzzy_match(xs: np.array, ys: np.array) -> (np.array, np.array):
    """ Find means and standard deviations for a fuzzy matching of y in x """
    xs = xs.reshape(-1, xs.shape[-1])
    ys = ys.reshape(-1, ys.shape[-1])
    means = np.empty_like(xs)
    stds = np.empty(xs.shape[0])
    for i, y in enumerate(ys):
        mean, std = slow_find_closest(y, xs)
        means[i] = mean
        stds[i] = std
    
    return means, stds
# cell 5
def find_closest(x: jnp.array, ys: jnp.array) -> (jnp.array, jnp.array):
    """ Find the closest y to x """
    residuals = x[None] - ys
    norms = jnp.linalg.norm(residuals, axis=-1)
    
    i = jnp.argmin(norms, axis=0)
    
    return ys[i], norms[i]

find_closest = jit(vmap(find_closest, in_axes=(0, None)))
# cell 6
def fuzzy_match(xs: np.array, ys: np.array, batch_size: int = None) -> (np.array, np.array):
    """ Find means and standard deviations for a fuzzy matching of y in x """
    xs = xs.reshape(-1, xs.shape[-1])
    ys = ys.reshape(-1, ys.shape[-1])
    
    if batch_size is None:
        means, stds = find_closest(ys, xs)
    else:
        means = []
        stds = []
        for start in range(0, len(ys), batch_size):
            y_batch = ys[start:start + batch_size]
            mean_batch, std_batch = find_closest(y_batch, xs)
            means.append(mean_batch)
            stds.append(std_batch)
        
        means = np.concatenate(means, axis=0)
        stds = np.concatenate(stds, axis=0)
            
    return np.asarray(means), np.asarray(stds)
# cell 7
# scaffolding: a timeit helper, only used by the commented-out cell 8; cut
# cell 9
x = np.random.standard_normal((2 ** 11, 2))
y = np.random.standard_normal((2 ** 11, 2)) + np.array([3,0])

print(x.shape, y.shape)  # scaffolding: print() around the cell's expression
# cell 10
means, stds = fuzzy_match(x, y)
# cell 11
print(means[0:5, 0], stds[0:5])  # scaffolding: print() around the cell's expression
# cell 12
# scaffolding: plotting-only cell cut
# cell 13
y_r1 = np.random.normal(means, stds.reshape(-1, 1))
# cell 14
means, stds = fuzzy_match(x, y_r1)
# cell 15
# scaffolding: plotting-only cell cut
# cell 16
y_r2 = np.random.normal(means, stds.reshape(-1, 1))
means, stds = fuzzy_match(x, y_r2)
# cell 17
# scaffolding: plotting-only cell cut
# cell 18
for i in range(20):  # scaffolding: 100000 iterations in the notebook
    y_r2 = np.random.normal(means, stds.reshape(-1, 1))
    means, stds = fuzzy_match(x, y_r2)
_report({"jit(find_closest)"}, 23)  # scaffolding: 3 calls before the loop and 20 in it
