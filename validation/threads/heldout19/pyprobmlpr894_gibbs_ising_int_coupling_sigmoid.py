# source: https://github.com/probml/pyprobml/pull/894
# expect: trace-time-error at line 84
# runtime: ERROR TypeError
# why: the notebook calls gibbs_samples_jit with float couplings and once with the int J = 10; traced as int32, 2 * J * wi stays an integer and jax.nn.sigmoid rejects integer input on jax 0.10.2, so tracing that call raises TypeError.
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

"""
Author : Ming Liang Ang
Based on : https://github.com/probml/pmtk3/blob/master/demos/gibbsDemoIsing.m
"""

import numpy as np
import jax
import jax.numpy as jnp

n_pixels = 100
pixels = jnp.array(range(n_pixels))


def energy(ix, iy, X, J):
    wi = 0
    a = jax.lax.cond(iy > 0, lambda: X[iy - 1, ix], lambda: 0)  # if iy != 0 then add X[iy - 1, ix]
    wi += jax.lax.cond(iy < n_pixels - 1, lambda: X[iy + 1, ix], lambda: 0)
    wi += jax.lax.cond(ix > 0, lambda: X[iy, ix - 1], lambda: 0)
    wi += jax.lax.cond(ix < n_pixels - 1, lambda: X[iy, ix + 1], lambda: 0)
    return 2 * J * wi


def gibbs_samples(rng_key, J, niter):

    x_values = jnp.array([-1, 1])  # x is binary variable having values either -1 or +1
    grid = jnp.array(jax.random.choice(rng_key, a=x_values, shape=(n_pixels, n_pixels)))  # create grid

    @jax.jit
    def one_step(grid, key):
        keys = jax.random.split(key)
        ix = jnp.array(jax.random.choice(keys[0], a=pixels))  # pick random x pixel
        iy = jax.random.choice(keys[1], a=pixels)  # pick random y pixel
        e = energy(ix, iy, grid, J)  # calculate enerygy on (ix, iy)
        p_ix_iy = jax.nn.sigmoid(e)  # probability
        u = jax.random.uniform(key)
        grid = grid.at[iy, ix].set(jax.lax.cond(u < p_ix_iy, lambda: 1, lambda: -1))
        return grid, None

    keys = jax.random.split(key=rng_key, num=niter)
    grid, _ = jax.lax.scan(one_step, grid, keys)
    return grid


niter = 500  # scaffolding: 50000 in the notebook
gibbs_samples_jit = jax.jit(gibbs_samples, static_argnames=["niter"])

def generate_random(J):  # @interact(J=(0.1, 50, 0.5)) dropped: scaffolding
    n_iter = 500  # scaffolding: 50000 in the notebook
    grid = gibbs_samples_jit(jax.random.PRNGKey(0), J, n_iter)


try:  # scaffolding
    J = 0.2  # J is coupling strength between two nodes (here two pixels)
    sample_grid = gibbs_samples_jit(jax.random.PRNGKey(0), J, niter)

    J = 0.4
    sample_grid = gibbs_samples_jit(jax.random.PRNGKey(1), J, niter)

    J = 10
    sample_grid = gibbs_samples_jit(jax.random.PRNGKey(2), J, niter)

    generate_random(24.6)  # scaffolding: the slider's initial value
    _report({"jit(gibbs_samples)"}, 4)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
