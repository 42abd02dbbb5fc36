# source: https://github.com/mlaux1/rl-blox/pull/157
# expect: changing-static at line 81
# runtime: COMPILES 4 CALLS 4
# why: td7_update_critic lists q_min and q_max in static_argnames, but they are the running value-clipping bounds (ValueClippingState.min/max_target_value), new Python floats after every target update; each new value is a new static key, so the critic update recompiles on every target update (the PR's 'memory leak').

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
from functools import partial

import jax
import jax.numpy as jnp
import optax
from flax import nnx


class ValueClippingState:
    min_value: float = 1e8
    max_value: float = -1e8
    min_target_value: float = 0.0
    max_target_value: float = 0.0

    def update_range(self, q_target: jnp.ndarray):
        self.min_value = min(self.min_value, float(q_target.min()))
        self.max_value = max(self.max_value, float(q_target.max()))

    def update_target_range(self):
        self.min_target_value = self.min_value
        self.max_target_value = self.max_value


class SALE(nnx.Module):  # scaffolding: stand-in for rl_blox's state-action embedding
    def __init__(self, rngs):
        self.lin = nnx.Linear(3, 2, rngs=rngs)

    def __call__(self, observation, action):
        zsa = self.lin(jnp.concatenate((observation[:, :2], action), axis=-1))
        return zsa, zsa


class Critic(nnx.Module):  # scaffolding: stand-in for ContinuousClippedDoubleQNet with SALE inputs
    def __init__(self, rngs):
        self.q1 = nnx.Linear(5, 1, rngs=rngs)

    def __call__(self, obs_act, zsa, zs):
        return self.q1(jnp.concatenate((obs_act[:, :3], zsa), axis=-1))


def _sum_of_qnet_losses(observation, action, zsa, zs, q_target, min_priority, q):  # scaffolding: single-Q version
    obs_act = jnp.concatenate((observation, action), axis=-1)
    q1_pred = q(obs_act, zsa=zsa, zs=zs).squeeze()
    max_abs_td_error = jnp.abs(q1_pred - q_target)
    return optax.huber_loss(predictions=q1_pred, targets=q_target, delta=min_priority).mean(), max_abs_td_error


@partial(
    nnx.jit,
    static_argnames=[
        "gamma",
        "min_priority",
        "q_min",
        "q_max",
    ],
)
def td7_update_critic(
    fixed_embedding,
    fixed_embedding_target,
    critic,
    critic_target,
    critic_optimizer: nnx.Optimizer,
    gamma: float,
    observation: jnp.ndarray,
    action: jnp.ndarray,
    next_observation: jnp.ndarray,
    next_action: jnp.ndarray,
    reward: jnp.ndarray,
    terminated: jnp.ndarray,
    min_priority: float,
    q_min: float,
    q_max: float,
):
    zsa, zs = fixed_embedding(observation, action)
    next_zsa, next_zs = fixed_embedding_target(next_observation, next_action)

    next_obs_act = jnp.concatenate((next_observation, next_action), axis=-1)
    q_next_target = critic_target(
        next_obs_act, zsa=next_zsa, zs=next_zs
    ).squeeze()
    q_next_target = jnp.clip(q_next_target, q_min, q_max)
    q_target = reward + (1 - terminated) * gamma * q_next_target

    (q_loss_value, max_abs_td_error), grads = nnx.value_and_grad(
        _sum_of_qnet_losses, has_aux=True, argnums=6
    )(observation, action, zsa, zs, q_target, min_priority, critic)
    critic_optimizer.update(critic, grads)

    return q_loss_value, max_abs_td_error, q_target


rngs = nnx.Rngs(0)  # scaffolding
embedding, embedding_target = SALE(rngs), SALE(rngs)  # scaffolding
critic, critic_target = Critic(rngs), Critic(rngs)  # scaffolding
critic_optimizer = nnx.Optimizer(critic, optax.adam(1e-3), wrt=nnx.Param)  # scaffolding
value_clipping_state = ValueClippingState()
gamma, lap_min_priority, target_delay = 0.99, 1.0, 1  # scaffolding: target_delay 250 -> 1
key = jax.random.PRNGKey(0)  # scaffolding
for epoch in range(4):  # scaffolding: 4 training epochs
    key, k1, k2 = jax.random.split(key, 3)  # scaffolding
    observations = jax.random.normal(k1, (8, 4))  # scaffolding: replay_buffer.sample_batch
    actions = jax.random.normal(k2, (8, 1))  # scaffolding
    rewards, terminations = jnp.ones(8), jnp.zeros(8)  # scaffolding
    q_loss_value, max_abs_td_error, q_target = td7_update_critic(
        embedding,
        embedding_target,
        critic,
        critic_target,
        critic_optimizer,
        gamma,
        observations,
        actions,
        observations,
        actions,
        rewards,
        terminations,
        lap_min_priority,
        value_clipping_state.min_target_value,
        value_clipping_state.max_target_value,
    )
    value_clipping_state.update_range(q_target)
    if epoch % target_delay == 0:
        value_clipping_state.update_target_range()
_report({"jit(td7_update_critic)"}, 4)  # scaffolding
