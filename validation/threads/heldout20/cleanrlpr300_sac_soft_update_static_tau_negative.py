# source: https://github.com/vwxyzjn/cleanrl/pull/300
# expect: none
# runtime: COMPILES 2 CALLS 40
# why: soft_update marks the constant float tau static and sample_action marks the flax Actor module static; both are hashable and never change, so each compiles once over 20 steps.
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
# vwxyzjn/cleanrl PR #300 (SAC jax): networks, sample_action and soft_update as in the PR's review thread
from functools import partial  # scaffolding
from typing import Sequence  # scaffolding

import flax
import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.training.train_state import TrainState

jax.random.KeyArray = jax.Array  # scaffolding: jax.random.KeyArray was removed from jax; the annotations below use it


class Critic(nn.Module):
    n_units: int = 256

    @nn.compact
    def __call__(self, x: jnp.ndarray, action: jnp.ndarray) -> jnp.ndarray:
        x = jnp.concatenate([x, action], -1)
        x = nn.Dense(self.n_units)(x)
        x = nn.relu(x)
        x = nn.Dense(self.n_units)(x)
        x = nn.relu(x)
        x = nn.Dense(1)(x)
        return x


class VectorCritic(nn.Module):
    n_units: int = 256
    n_critics: int = 2

    @nn.compact
    def __call__(self, obs: jnp.ndarray, action: jnp.ndarray) -> jnp.ndarray:
        vmap_critic = nn.vmap(
            Critic,
            variable_axes={"params": 0},  # parameters not shared between the critics
            split_rngs={"params": True},  # different initializations
            in_axes=None,
            out_axes=0,
            axis_size=self.n_critics,
        )
        q_values = vmap_critic(
            n_units=self.n_units,
        )(obs, action)
        return q_values


class Actor(nn.Module):
    action_dim: Sequence[int]
    n_units: int = 256
    log_std_min: float = -20
    log_std_max: float = 2

    @nn.compact
    def __call__(self, x: jnp.ndarray):
        x = nn.Dense(self.n_units)(x)
        x = nn.relu(x)
        x = nn.Dense(self.n_units)(x)
        x = nn.relu(x)
        mean = nn.Dense(self.action_dim)(x)
        log_std = nn.Dense(self.action_dim)(x)
        log_std = jnp.clip(log_std, self.log_std_min, self.log_std_max)
        return mean, log_std


class RLTrainState(TrainState):
    target_params: flax.core.FrozenDict


@partial(jax.jit, static_argnames="actor")
def sample_action(
    actor: Actor,
    actor_state: TrainState,
    observations: jnp.ndarray,
    key: jax.random.KeyArray,
) -> jnp.array:
    key, subkey = jax.random.split(key, 2)
    mean, log_std = actor.apply(actor_state.params, observations)
    action_std = jnp.exp(log_std)
    gaussian_action = mean + action_std * jax.random.normal(subkey, shape=mean.shape)
    action = jnp.tanh(gaussian_action)
    return action, key


@partial(jax.jit, static_argnames=["tau"])
def soft_update(tau: float, qf_state: RLTrainState) -> RLTrainState:
    qf_state = qf_state.replace(target_params=optax.incremental_update(qf_state.params, qf_state.target_params, tau))
    return qf_state


# scaffolding: the script's setup with a 3-d observation / 1-d action space instead of gym, and a 20-step loop
tau = 0.005  # scaffolding: args.tau
key = jax.random.PRNGKey(1)
key, actor_key, qf_key = jax.random.split(key, 3)
obs = jnp.zeros((1, 3))  # scaffolding
action = jnp.zeros((1, 1))  # scaffolding
actor = Actor(action_dim=1)
actor_state = TrainState.create(
    apply_fn=actor.apply,
    params=actor.init(actor_key, obs),
    tx=optax.adam(learning_rate=3e-4),
)
qf = VectorCritic(n_critics=2)
qf_state = RLTrainState.create(
    apply_fn=qf.apply,
    params=qf.init({"params": qf_key}, obs, action),
    target_params=qf.init({"params": qf_key}, obs, action),
    tx=optax.adam(learning_rate=1e-3),
)
rng = np.random.default_rng(0)  # scaffolding
for global_step in range(20):  # scaffolding
    obs = jnp.asarray(rng.normal(size=(1, 3)), dtype=jnp.float32)  # scaffolding: envs.step observation
    actions, key = sample_action(actor, actor_state, obs, key)
    qf_state = soft_update(tau, qf_state)
_report({"jit(sample_action)", "jit(soft_update)"}, 40)  # scaffolding
