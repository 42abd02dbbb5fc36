# source: https://github.com/vwxyzjn/cleanrl/pull/222
# expect: none
# runtime: COMPILES 1 CALLS 6
# why: select_action marks the exploration constants, action count, env count and the flax module static (all hashable and constant) while the step t stays a traced argument, so six steps with a changing global_step compile it once.
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
# vwxyzjn/cleanrl PR #222 (branch commit 6942c974, "jit action selection and linear_schedule", later reverted in the PR): cleanrl/dqn_jax.py
import functools
import flax
import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.training.train_state import TrainState


# ALGO LOGIC: initialize agent here:
class QNetwork(nn.Module):
    action_dim: int

    @nn.compact
    def __call__(self, x: jnp.ndarray):
        x = nn.Dense(120)(x)
        x = nn.relu(x)
        x = nn.Dense(84)(x)
        x = nn.relu(x)
        x = nn.Dense(self.action_dim)(x)
        return x


class TrainState(TrainState):
    target_params: flax.core.FrozenDict


@functools.partial(jax.jit, static_argnums=(1, 2, 3, 5, 6, 7))
def select_action(rng_seed, start_e, end_e, duration, t, num_actions, num_envs, network_def, online_params, obs):
    def linear_schedule(start_e: float, end_e: float, duration: int, t: int):
        slope = (end_e - start_e) / duration
        return jnp.maximum(slope * t + start_e, end_e)

    epsilon = linear_schedule(start_e, end_e, duration, t)
    rng, rng_1, rng_2 = jax.random.split(rng_seed, 3)
    return (
        rng,
        jnp.where(
            jax.random.uniform(rng_1) < epsilon,
            jax.random.randint(rng_2, (num_envs,), 0, num_actions),
            network_def.apply(online_params, obs).argmax(axis=-1),
        ),
        epsilon,
    )


if __name__ == "__main__":
    q_key = act_key = jax.random.PRNGKey(1)  # scaffolding
    obs = np.zeros((1, 4), np.float32)  # scaffolding: envs.reset() of CartPole, 1 env
    q_network = QNetwork(action_dim=2)  # scaffolding: envs.single_action_space.n
    q_state = TrainState.create(
        apply_fn=q_network.apply,
        params=q_network.init(q_key, obs),
        target_params=q_network.init(q_key, obs),
        tx=optax.adam(learning_rate=2.5e-4),  # scaffolding: args.learning_rate
    )
    rng = np.random.default_rng(0)  # scaffolding
    for global_step in range(6):  # scaffolding: args.total_timesteps
        # ALGO LOGIC: put action logic here
        act_key, actions, epsilon = select_action(
            act_key,
            1.0,  # scaffolding: args.start_e
            0.05,  # scaffolding: args.end_e
            0.5 * 500000,  # scaffolding: args.exploration_fraction * args.total_timesteps
            global_step,
            2,  # scaffolding: envs.single_action_space.n
            1,  # scaffolding: envs.num_envs
            q_network,
            q_state.params,
            obs,
        )
        actions = jax.device_get(actions)
        obs = rng.normal(size=(1, 4)).astype(np.float32)  # scaffolding: envs.step(actions)
    _report({"jit(select_action)"}, 6)  # scaffolding
