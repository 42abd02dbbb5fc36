# source: https://github.com/probml/JSL/blob/935fceea46a5b8c6982d222ec34be36fa2daea1d/jsl/demos/fixed_lag_smoother.ipynb
# expect: shape-churn at line 104
# runtime: COMPILES 11 CALLS 11
# why: get_fls_result_iterative feeds each call's grown alpha/obs_seq window back into the jitted fixed_lag_smoother_iterative, so the window grows by one row per observation until win_len and every call sees new shapes and recompiles.

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


import jax.numpy as jnp  # scaffolding
# cell 3 (jsl.hmm.hmm_lib import replaced by its HMMJax definition)  # scaffolding
import flax  # scaffolding


@flax.struct.dataclass  # scaffolding: HMMJax as defined in jsl/hmm/hmm_lib.py
class HMMJax:
    trans_mat: jnp.array  # A : ((n_actions,) n_states, n_states)
    obs_mat: jnp.array  # B : (n_states, n_obs)
    init_dist: jnp.array  # pi : (n_states)


# cell 4
from functools import partial

import jax.numpy as jnp
from jax import vmap
from jax import jit
from jax.random import PRNGKey, split, choice, uniform
# cell 6
def normalize(u, axis=0, eps=1e-15):
    u = jnp.where(u == 0, 0, jnp.where(u < eps, eps, u))
    c = u.sum(axis=axis, keepdims=True)
    c = jnp.where(c == 0, 1, c)
    return u / c, c

# cell 7
# Naive (un-vectorized) version
@partial(jit, static_argnums=(1))
def fixed_lag_smoother_iterative(params, win_len, alpha_win, obs_seq_win, obs, act=None):
    if len(alpha_win.shape) < 2:
        alpha_win = jnp.expand_dims(alpha_win, axis=0)
    curr_len = alpha_win.shape[0]
    win_len = min(win_len, curr_len+1)
    assert win_len >= 2, "Must keep a window of length at least 2."

    trans_mat, obs_mat = params.trans_mat, params.obs_mat
    n_states, n_obs = obs_mat.shape
    
    # If trans_mat is independent of action, adjust shape
    if len(trans_mat.shape) < 3:
        trans_mat = jnp.expand_dims(trans_mat, axis=0)
        act = None
    if act is None:
        act = jnp.zeros(shape=(curr_len+1,), dtype=jnp.int8)

    # Shift window forward by 1
    if curr_len == win_len:
        alpha_win = alpha_win[1:]
        obs_seq_win = obs_seq_win[1:]
    new_alpha, _ = normalize(
        obs_mat[:, obs] * (alpha_win[-1][:, None] * trans_mat[act[-1]]).sum(axis=0)
    )
    alpha_win = jnp.concatenate((alpha_win, new_alpha[None, :]), axis=0)
    obs_seq_win = jnp.append(obs_seq_win, obs)

    # Smooth backwards inside the window
    beta_win = jnp.ones(shape=(win_len, n_states))
    gamma_win = jnp.array(alpha_win)
    for t in range(win_len-2, -1, -1):
        new_beta, _ = normalize(
            (beta_win[t+1,:] * obs_mat[:, obs_seq_win[t+1]] *
             trans_mat[act[t]]).sum(axis=1)
        )
        beta_win = beta_win.at[t, :].set(new_beta)

        new_gamma, _ = normalize(alpha_win[t, :]*beta_win[t, :])
        gamma_win = gamma_win.at[t, :].set(new_gamma)
    return alpha_win, obs_seq_win, beta_win, gamma_win
# cell 9
def get_fls_result_iterative(params, data, win_len, act=None):
    assert data.size > 2, "Complete observation set must be of size at least 2"
    prior, obs_mat = params.init_dist, params.obs_mat
    alpha, _ = normalize(prior * obs_mat[:, data[0]])
    obs_seq = jnp.array([data[0]])
    for obs in data[1:]:
        alpha, obs_seq, beta, gamma = fixed_lag_smoother_iterative(params, win_len, alpha, obs_seq, obs)
    return alpha, beta, gamma

# cell 10
num_states = 3
num_obs = 5
key = PRNGKey(0)

# Generate transition matrix
trans_mat = uniform(key, shape=(num_states, num_states))
trans_mat, _ = normalize(trans_mat, axis=1)
key, _ = split(key)

# Generate observation likelihood matrix
obs_mat = uniform(key, shape=(num_states, num_obs))
obs_mat, _ = normalize(obs_mat, axis=1)
key, _ = split(key)

# Generate uniform random prior
prior, _ = normalize(jnp.ones(num_states))

# Generate HMM
hmm = HMMJax(trans_mat=trans_mat, obs_mat=obs_mat, init_dist=prior)
# cell 11
num_timesteps = 12  # scaffolding: 20 in the notebook

# Generate random data
data = choice(key, num_obs, shape=(num_timesteps,))
# cell 12 (the hmm_forwards_backwards_jax reference and the vectorized call are cut)
*_, gamma_it = get_fls_result_iterative(hmm, data, win_len=data.size)
_report({"jit(fixed_lag_smoother_iterative)"}, num_timesteps - 1)  # scaffolding
