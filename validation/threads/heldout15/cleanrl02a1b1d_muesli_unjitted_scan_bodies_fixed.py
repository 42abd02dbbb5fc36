# source: https://github.com/vwxyzjn/cleanrl/commit/02a1b1d0b1bb36b2f2c8c7d97d1ff8736a5f2663
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The commit removes the @jax.jit decorators from the scan bodies; only the outer loss is jitted and it compiles once for 3 calls, the same as before the commit.

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
import argparse  # scaffolding

import jax
import jax.numpy as jnp

args = argparse.Namespace(gamma=0.995, retrace_lambda=0.95)  # scaffolding: parse_args() defaults


# cleanrl/muesli_atari_envpool_async_jax_scan_impalanet_machado.py (after the commit)
def compute_retrace_return_one_step(retrace_return, x):
    reward, q_prior, next_q_prior, log_delta_coeff, should_discard = x
    delta = jnp.exp(log_delta_coeff) * (reward + args.gamma * next_q_prior * should_discard - q_prior)
    retrace_return = jnp.where(should_discard, retrace_return, retrace_return + args.gamma * delta)
    return retrace_return, jnp.array(0)

def compute_retrace_return(carry, x):
    """Compute the Retrace-corrected return G^v(s, a).

    All xs should have the shape (batch_size, window_width).

    Returns:
        retrace_return: The Retrace estimate of the return, bootstrapped with q_prior. (batch_size)
    """
    reward, q_prior, logprob_diff, should_discard = x
    # The Retrace estimator uses the coefficients c_s = lambda * min(1, pi(a_s|x_s)/mu(a_s|x_s)).
    logprob_diff = jnp.cumsum(jnp.log(args.retrace_lambda) * jnp.clip(logprob_diff.at[:, 0].set(0), max=0), axis=-1)  # scaffolding: a_max= renamed max= in current jax
    batch_size = reward.shape[0]
    q_prior = q_prior.swapaxes(0, 1)
    retrace_return, _ = jax.lax.scan(
        compute_retrace_return_one_step,
        jnp.zeros(batch_size),
        (
            reward.swapaxes(0, 1)[:-1],
            q_prior[:-1],
            q_prior[1:],
            logprob_diff.swapaxes(0, 1)[:-1],
            should_discard.swapaxes(0, 1)[1:],
        ),
        reverse=True,
    )
    retrace_return = retrace_return + q_prior[0]
    return carry, retrace_return

@jax.jit
def muesli_loss(reward_seq, q_prior_seq, logprob_diff_seq, is_from_diff_traj):  # scaffolding: the retrace part of muesli_loss
    # Calculate Retrace estimates G^v(s,a)
    _, retrace_return = jax.lax.scan(
        compute_retrace_return,
        (),
        (
            reward_seq.swapaxes(0, 1),
            q_prior_seq.swapaxes(0, 1),
            logprob_diff_seq.swapaxes(0, 1),
            is_from_diff_traj.swapaxes(0, 1),
        ),
    )
    return retrace_return.mean()


# scaffolding: three updates on fresh (batch=4, seq=5, window=6) data
key = jax.random.PRNGKey(0)
calls = 0
for update in range(3):
    key, k1, k2, k3, k4 = jax.random.split(key, 5)
    reward_seq = jax.random.normal(k1, (4, 5, 6))
    q_prior_seq = jax.random.normal(k2, (4, 5, 6))
    logprob_diff_seq = jax.random.normal(k3, (4, 5, 6))
    is_from_diff_traj = jax.random.bernoulli(k4, 0.1, (4, 5, 6))
    loss = muesli_loss(reward_seq, q_prior_seq, logprob_diff_seq, is_from_diff_traj)
    calls += 1
_report({"jit(muesli_loss)", "jit(compute_retrace_return)", "jit(compute_retrace_return_one_step)"}, calls)
