# source: https://github.com/dirmeier/jrnmm/blob/2b67f309d9d2e881a9dd0120b92d67cb0ad16d27/jrnmm/simulator.py
# expect: jit-in-loop-or-body at line 72
# runtime: COMPILES 4 CALLS 4
# why: simulate() defines a fresh @jax.jit _step closure (over dt, mus, Cs, dm, cms...) on every call and runs it through an un-jitted lax.scan, so every simulation call (one per SBI round) re-traces and recompiles the scan.

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
from typing import Union

import chex
import jax
# from einops import rearrange  -- einops not installed; see _rearrange below (scaffolding)
from jax import numpy as jnp
from jax import random as jr
from jax.scipy.linalg import cholesky

jax.config.update("jax_enable_x64", True)


def rearrange(x, pattern):  # scaffolding: stand-in for einops.rearrange(ret, "t b l -> b t l")
    return jnp.transpose(x, (1, 0, 2))


def simulate(
    rng_key: jr.PRNGKey,
    dt: float,
    t_end: float,
    initial_states: jax.Array,
    Cs: Union[float, jax.Array] = 135,
    mus: Union[float, jax.Array] = 220,
    sigmas: Union[float, jax.Array] = 2000,
    gains: Union[float, jax.Array] = 0.0,
    sigma_4: float = 0.01,
    sigma_6: float = 1.0,
    A: float = 3.25,
    B: float = 22,
    a: float = 100,
    b: float = 50,
    v0: float = 6,
    vmax: float = 5.0,
    r: float = 0.56,
) -> jax.Array:
    """Jansen-Rit neural mass model simulator. (docstring trimmed)"""
    initial_states, Cs, mus, sigmas, gains = _preprocess(initial_states, Cs, mus, sigmas, gains)

    n_iter = len(jnp.arange(0, t_end, dt))
    dm, cms = exp_mat(dt, a, b), cov_mats(dt, sigma_4, sigmas, sigma_6, a, b)
    C1, C2, C3, C4 = Cs, 0.8 * Cs, 0.25 * Cs, 0.25 * Cs
    Aa, BbC = A * a, B * b * C4

    @jax.jit
    def _step(states, rng_key):
        noises = jr.normal(rng_key, (states.shape[0], 6))
        new_states = states
        new_states = ode(new_states, dt / 2, Aa, mus, BbC, C1, C2, C3, vmax, v0, r)
        new_states = sde(new_states, dm, cms, noises)
        new_states = ode(new_states, dt / 2, Aa, mus, BbC, C1, C2, C3, vmax, v0, r)
        return new_states, new_states

    sampling_keys = jr.split(rng_key, n_iter)
    _, states = jax.lax.scan(_step, initial_states, sampling_keys)

    ret = states[..., [1]] - states[..., [2]]
    ret = jnp.power(10, gains.reshape(1, len(gains), 1) / 10) * ret

    return rearrange(ret, "t b l -> b t l")


def _preprocess(initial_states, *args):
    Cs, mus, sigmas, gains = (jnp.atleast_1d(arg) for arg in args)
    chex.assert_equal_shape([Cs, mus, sigmas, gains])

    initial_states = jnp.atleast_1d(initial_states)
    chex.assert_equal(initial_states.shape[-1], 6)
    initial_states = jnp.atleast_2d(initial_states).reshape(-1, 6)
    if initial_states.ndim == 1 or initial_states.shape == (1, 6):
        initial_states = jnp.tile(jnp.squeeze(initial_states), [len(Cs), 1])
        chex.assert_shape(initial_states, (len(Cs), 6))
    elif initial_states.ndim == 2 and len(Cs) > 1:
        chex.assert_equal(initial_states.shape[0], len(Cs))
    else:
        raise ValueError("something is wrong with the dimensionalities.")

    return initial_states, Cs, mus, sigmas, gains


def ode(states, dt, Aa, mu, BbC, C1, C2, C3, vmax, v0, r):
    rows = jnp.zeros_like(states)
    rows = rows.at[:, 3].set(Aa * sigmoid(states[:, 1] - states[:, 2], vmax, v0, r))
    rows = rows.at[:, 4].set(Aa * (mu + C2 * sigmoid(C1 * states[:, 0], vmax, v0, r)))
    rows = rows.at[:, 5].set(BbC * sigmoid(C3 * states[:, 0], vmax, v0, r))
    ret = states + dt * rows
    return ret


def sde(states, dm, cms, noises):
    return mult_dm(dm, states) + mult_cm(cms, noises)


def mult_dm(mat, vecs):
    idx012345 = jnp.arange(6)
    idx345012 = jnp.roll(jnp.arange(6), 3)
    ret = vecs * jnp.diag(mat) + vecs[:, idx345012] * mat[idx012345, idx345012]
    return ret


def mult_cm(mats, vecs):
    def map(mat, vec):
        ret = vec * jnp.diag(mat)
        ret = ret.at[3].set(ret[3] + mat[3, 0] * vec[0])
        ret = ret.at[4].set(ret[4] + mat[4, 1] * vec[1])
        ret = ret.at[5].set(ret[5] + mat[5, 2] * vec[2])
        return ret

    ret = jax.vmap(map)(mats, vecs)
    return ret


def exp_mat(t, a, b):
    eat = jnp.exp(-a * t)
    eatt = jnp.exp(-a * t) * t
    ebt = jnp.exp(-b * t)
    ebtt = jnp.exp(-b * t) * t
    ret = jnp.diag(
        jnp.array(
            [
                eat + a * eatt,
                eat + a * eatt,
                ebt + b * ebtt,
                eat - a * eatt,
                eat - a * eatt,
                ebt - b * ebtt,
            ]
        )
    )

    ret = ret.at[0, 3].set(eatt)
    ret = ret.at[1, 4].set(eatt)
    ret = ret.at[2, 5].set(ebtt)

    ret = ret.at[3, 0].set(-(a**2) * eatt)
    ret = ret.at[4, 1].set(-(a**2) * eatt)
    ret = ret.at[5, 2].set(-(b**2) * ebtt)
    return ret


def cov_mats(t, sigma_4, sigmas, sigma_6, a, b):
    em2at = jnp.exp(-2 * a * t)
    em2bt = jnp.exp(-2 * b * t)
    e2at = jnp.exp(2 * a * t)
    e2bt = jnp.exp(2 * b * t)

    def cov(sigma):
        sigma = jnp.array([0.0, 0.0, 0.0, sigma_4, sigma, sigma_6])
        sigma = sigma**2
        ret = jnp.diag(
            jnp.array(
                [
                    em2at * (e2at - 1 - 2 * a * t * (1 + a * t)) * sigma[3] / (4 * a**3),
                    em2at * (e2at - 1 - 2 * a * t * (1 + a * t)) * sigma[4] / (4 * a**3),
                    em2bt * (e2bt - 1 - 2 * b * t * (1 + b * t)) * sigma[5] / (4 * b**3),
                    em2at * (e2at - 1 - 2 * a * t * (a * t - 1)) * sigma[3] / (4 * a),
                    em2at * (e2at - 1 - 2 * a * t * (a * t - 1)) * sigma[4] / (4 * a),
                    em2bt * (e2bt - 1 - 2 * b * t * (b * t - 1)) * sigma[5] / (4 * b),
                ]
            )
        )
        ret = ret.at[0, 3].set(em2at * t**2 * sigma[3] / 2)
        ret = ret.at[1, 4].set(em2at * t**2 * sigma[4] / 2)
        ret = ret.at[2, 5].set(em2bt * t**2 * sigma[5] / 2)
        ret = ret.at[3, 0].set(em2at * t**2 * sigma[3] / 2)
        ret = ret.at[4, 1].set(em2at * t**2 * sigma[4] / 2)
        ret = ret.at[5, 2].set(em2bt * t**2 * sigma[5] / 2)
        return ret

    ret = jax.vmap(cov)(sigmas)
    ret = jax.vmap(lambda x: cholesky(x))(ret)
    ret = jax.vmap(jnp.transpose)(ret)
    return ret


def sigmoid(x, vmax, v0, r):
    return vmax / (1 + jnp.exp(r * (v0 - x)))


# --- an SBI-style caller: simulate a fresh parameter batch each round (scaffolding) ---
n_rounds = 4  # scaffolding
for i in range(n_rounds):  # scaffolding
    k1, k2 = jr.split(jr.PRNGKey(i))  # scaffolding
    theta = jr.uniform(k1, (10, 4), minval=jnp.array([10.0, 50.0, 100.0, -20.0]), maxval=jnp.array([250.0, 500.0, 5000.0, 20.0]))  # scaffolding
    y = simulate(  # scaffolding
        k2,
        dt=1 / 128,
        t_end=1.0,
        initial_states=jnp.array([0.08, 18, 15, -0.5, 0.0, 0.0]),
        Cs=theta[:, 0],
        mus=theta[:, 1],
        sigmas=theta[:, 2],
        gains=theta[:, 3],
    )
_report({"jit(scan)", "jit(_step)"}, n_rounds)  # scaffolding
