# source: https://github.com/ffelten/CrazyRL/commit/31319a9a6af39c4052958127a211e5136aa25a08
# expect: jit-in-loop-or-body at line 67
# runtime: COMPILES 4 CALLS 4
# why: _calculate_gae is decorated with jax.jit inside _update_step, so each update creates a new jitted function and compiles it again.

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


from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np


class Transition(NamedTuple):
    terminated: jnp.ndarray
    joint_actions: jnp.ndarray  # shape is (num_agents, action_dim)
    value: jnp.ndarray
    reward: jnp.ndarray
    log_prob: jnp.ndarray
    obs: jnp.ndarray  # shape is (num_agents, obs_dim)
    global_obs: jnp.ndarray  # shape is (global_obs_dim)
    info: jnp.ndarray


class _Args:  # scaffolding
    gamma = 0.99
    gae_lambda = 0.95
    num_steps = 16


def _collect(key):  # scaffolding: stand-in for the numpy env rollout stored in the buffer
    r = np.random.default_rng(key)
    n = _Args.num_steps
    return Transition(terminated=jnp.asarray(r.random(n) < 0.1, jnp.float32), joint_actions=jnp.zeros((n, 2, 3)),
                      value=jnp.asarray(r.random(n), jnp.float32), reward=jnp.asarray(r.random(n), jnp.float32),
                      log_prob=jnp.zeros((n, 2)), obs=jnp.zeros((n, 2, 6)), global_obs=jnp.zeros((n, 12)),
                      info=jnp.zeros((n,)))


# learning/cpu_env/mappo_cpu_env.py before the commit: train(), the advantage part of _update_step
def train(args, num_updates):
    def _update_step(update):
        traj_batch = _collect(update)  # scaffolding: rollout and buffer.to_transition()
        last_val = jnp.asarray(0.5, jnp.float32)  # scaffolding: critic.apply(...) on the last global obs

        @jax.jit
        def _calculate_gae(traj_batch, last_val):
            def _get_advantages(gae_and_next_value, transition):
                gae, next_value = gae_and_next_value
                done, value, reward = (
                    transition.terminated,
                    transition.value,
                    transition.reward,
                )
                delta = reward + args.gamma * next_value * (1 - done) - value
                gae = delta + args.gamma * args.gae_lambda * (1 - done) * gae
                return (gae, value), gae

            _, advantages = jax.lax.scan(
                _get_advantages,
                (jnp.zeros_like(last_val), last_val),
                traj_batch,
                reverse=True,
                unroll=16,
            )
            return advantages, advantages + traj_batch.value

        advantages, targets = _calculate_gae(traj_batch, last_val)
        return targets.mean()  # scaffolding: the network update is cut

    for update in range(num_updates):  # scaffolding: the repo's training loop, cut down
        out = _update_step(update)
    return out


print(float(train(_Args(), 4)))  # scaffolding
_report({"jit(_calculate_gae)"}, 4)  # scaffolding
