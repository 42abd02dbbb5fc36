# source: https://github.com/darrenjw/jax-smfsb/blob/71374b1235cb3ef2fe77d12b4f5ebd636116532c/dsmts/check_bd_kernel.py
# expect: jit-in-loop-or-body at line 95
# runtime: COMPILES 7 CALLS 7
# why: check_bd_kernel.py calls jsmfsb.sim_time_series once per random key in a Python loop; sim_time_series defines a new @jit advance closure on every call and runs it through an eager lax.scan, so every call traces and compiles the scan again.

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
# --- darrenjw/jax-smfsb @71374b1: src/jsmfsb/spn.py (Spn.__init__, step_gillespie), models.py (bd), sim.py (sim_time_series, sim_sample); docstrings cut ---
import numpy as np
import jax
from jax import jit
import jax.numpy as jnp
import jax.lax as jl


class Spn:
    def __init__(self, n, t, pre, post, h, m):
        self.n = n  # species names
        self.t = t  # reaction names
        self.pre = jnp.array(pre).astype(jnp.float32)
        self.post = jnp.array(post).astype(jnp.float32)
        self.h = h  # hazard function
        self.m = jnp.array(m).astype(jnp.float32)  # initial marking

    def step_gillespie(self, min_haz=1e-10, max_haz=1e07):
        sto = (self.post - self.pre).T
        u, v = sto.shape

        @jit
        def advance(state):
            key, xo, x, t = state
            h = self.h(x, t)
            h0 = jnp.sum(h)
            key, k1, k2 = jax.random.split(key, 3)
            t = jnp.where(h0 > max_haz, 1e30, t)
            t = jnp.where(h0 < min_haz, 1e30, t + jax.random.exponential(k1) / h0)
            j = jax.random.choice(k2, v, p=h / h0)
            xn = jnp.add(x, sto[:, j])
            return (key, x, xn, t)

        @jit
        def step(key, x0, t0, deltat):
            t = t0
            x = x0
            termt = t0 + deltat
            key, x, xn, t = jl.while_loop(
                lambda state: state[3] < termt, advance, (key, x, x, t)
            )
            return x

        return step


def bd(th=[1, 1.1]):
    return Spn(
        ["X"],
        ["Birth", "Death"],
        [[1], [1]],
        [[2], [0]],
        lambda x, t: jnp.array([th[0] * x[0], th[1] * x[0]]),
        [100],
    )



class models:  # scaffolding: module namespace
    bd = staticmethod(bd)


def sim_time_series(key, x0, t0, tt, dt, step_fun):
    n = int((tt - t0) // dt)
    keys = jax.random.split(key, n)

    @jit
    def advance(state, key):
        x, t = state
        x = step_fun(key, x, t, dt)
        t = t + dt
        return (x, t), x

    _, mat = jl.scan(advance, (x0, t0), keys)
    return jnp.insert(mat, 0, x0, 0)


def sim_sample(key, n, x0, t0, deltat, step_fun, batch_size=None):
    keys = jax.random.split(key, n)
    mat = jl.map(lambda k: step_fun(k, x0, t0, deltat), keys, batch_size=batch_size)
    return mat


class jsmfsb:  # scaffolding: package namespace
    models = models
    sim_time_series = staticmethod(sim_time_series)
    sim_sample = staticmethod(sim_sample)


# --- dsmts/check_bd_kernel.py ---
# check_bd_kernel.py

# Custom script to check that the kernel for gillespie simulation
#   of the birth-death process has the correct mean and variance

# Based on 00001/dsmts-001-01 (first time point)
# Initial marking 100. Birth rate 0.1. Death rate 0.11.
# After 1 time unit, the mean should be 99.00498 and the
#   sd should be 4.54834.


# NOTE: this script was written to identify a bug, which turned out to be
#   in sim_time_series, and has since been fixed. This code is now for
#   historical interest only. Will be removed from the repo at some point.

import time
import jax
import jax.numpy as jnp

N = 6  # scaffolding: 1000 in the script
true_mean = 99.00498
true_sd = 4.54834

print("Running with N=" + str(N))
bd = jsmfsb.models.bd([0.1, 0.11])
step = bd.step_gillespie()
k0 = jax.random.key(42)
out = jsmfsb.sim_sample(k0, N, bd.m, 0, 1, step)
sample_mean = jnp.mean(out)
print(sample_mean)
# Is this close enough?
z_score = jnp.sqrt(N) * (sample_mean - true_mean) / true_sd
print(z_score)
# Kernel, according to sim_sample, seems absolutely fine.
# Do sd test, anyway, just to make sure.
sxx = out - true_mean
sxx = sxx * sxx
sxx = jnp.sum(sxx)
sts = sxx / N
print(jnp.sqrt(sts))
y_score = (sts / (true_sd * true_sd) - 1) * jnp.sqrt(N / 2)
print(y_score)
# Again, seems fine.
# time.sleep(5)  (cut)

# Is the issue with sim_time_series somehow?
sx = 0
sxx = 0
keys = jax.random.split(k0, N)
for k in keys:
    out = jsmfsb.sim_time_series(k, bd.m, 0, 2, 1, step)
    assert out.shape == (3, 1)
    sx = sx + out[1, 0]
    si = out[1, 0] - true_mean
    sxx = sxx + (si * si)
sample_mean = sx / N
print(sample_mean)
z_score = jnp.sqrt(N) * (sample_mean - true_mean) / true_sd
print(z_score)
sts = sxx / N
print(jnp.sqrt(sts))
y_score = (sts / (true_sd * true_sd) - 1) * jnp.sqrt(N / 2)
print(y_score)
# Yes! Somehow a problem using sim_time_series...
# Why?! Because the initial state isn't included in the output,
# so the output is shifted by one relative to what it should be!

# NOTE: this bug is now fixed, and the tests are all fine.


# eof
_report({"jit(scan)", "jit(advance)"}, N + 1)  # scaffolding: one sim_sample (lax.map) call plus N sim_time_series calls
