# source: https://github.com/mlaux1/rl-blox/pull/124
# expect: bad-static-spec at line 120
# runtime: ERROR ValueError
# why: nnx.jit(td7_update_critic) lists static_argnames 'min_target_value' and 'max_target_value', which are not parameters of the function (they are q_min/q_max), so applying the decorator raises ValueError.

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


import dataclasses
from functools import partial

import jax.numpy as jnp
import jax.random
import optax
from flax import nnx


# --- rl_blox/blox/function_approximator/norm.py ---
def avg_l1_norm(x: jnp.ndarray, eps: float = 1e-8) -> jnp.ndarray:
    return x / jnp.maximum(jnp.mean(jnp.abs(x), axis=-1, keepdims=True), eps)


# --- rl_blox/blox/double_qnet.py ---
class ContinuousClippedDoubleQNet(nnx.Module):
    q1: nnx.Module
    q2: nnx.Module

    def __init__(self, q1: nnx.Module, q2: nnx.Module):
        self.q1 = q1
        self.q2 = q2

    def __call__(self, *args, **kwargs) -> jnp.ndarray:
        return jnp.minimum(self.q1(*args, **kwargs), self.q2(*args, **kwargs))


# --- rl_blox/algorithm/td7.py ---
class SALE(nnx.Module):
    _state_embedding: nnx.Module
    state_action_embedding: nnx.Module

    def __init__(
        self, state_embedding: nnx.Module, state_action_embedding: nnx.Module
    ):
        self._state_embedding = state_embedding
        self.state_action_embedding = state_action_embedding

    def __call__(
        self, state: jnp.ndarray, action: jnp.ndarray
    ) -> tuple[jnp.ndarray, jnp.ndarray]:
        zs = self.state_embedding(state)
        zs_action = jnp.concatenate((zs, action), axis=-1)
        zsa = self.state_action_embedding(zs_action)
        return zsa, zs

    def state_embedding(self, state: jnp.ndarray) -> jnp.ndarray:
        r""":math:`z^s = f(s)`."""
        return avg_l1_norm(self._state_embedding(state))


class CriticSALE(nnx.Module):
    q_net: nnx.Module
    q0: nnx.Linear

    def __init__(
        self,
        q_net: nnx.Module,
        n_state_features: int,
        n_action_features: int,
        hidden_nodes: int,
        rngs: nnx.Rngs,
    ):
        self.q_net = q_net
        self.q0 = nnx.Linear(
            n_state_features + n_action_features, hidden_nodes, rngs=rngs
        )

    def __call__(
        self, sa: jnp.ndarray, zsa: jnp.ndarray, zs: jnp.ndarray
    ) -> jnp.ndarray:
        """Q(s, a, zsa, zs)."""
        h = avg_l1_norm(self.q0(sa))
        embeddings = jnp.concatenate((zsa, zs), axis=-1)
        he = jnp.concatenate((h, embeddings), axis=-1)
        return self.q_net(he)


@dataclasses.dataclass
class ValueClippingState:
    min_value: float = 1e8
    max_value: float = -1e8
    min_target_value: float = 0.0
    max_target_value: float = 0.0


try:  # scaffolding: jax raises when the decorator is applied
    @partial(
        nnx.jit,
        static_argnames=[
            "gamma",
            "min_priority",
            "min_target_value",
            "max_target_value",
        ],
    )
    def td7_update_critic(
        fixed_embedding: SALE,
        fixed_embedding_target: SALE,
        critic: ContinuousClippedDoubleQNet,
        critic_target: ContinuousClippedDoubleQNet,
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
    ) -> tuple[float, jnp.ndarray, jnp.ndarray]:
        zsa, zs = fixed_embedding(observation, action)
        next_zsa, next_zs = fixed_embedding_target(next_observation, next_action)

        next_obs_act = jnp.concatenate((next_observation, next_action), axis=-1)
        q_next_target = critic_target(
            next_obs_act, zsa=next_zsa, zs=next_zs
        ).squeeze()
        q_next_target = jnp.clip(q_next_target, q_min, q_max)
        q_target = reward + (1 - terminated) * gamma * q_next_target

        def sum_of_qnet_losses(q: ContinuousClippedDoubleQNet):
            obs_act = jnp.concatenate((observation, action), axis=-1)
            q1_pred = q.q1(obs_act, zsa=zsa, zs=zs).squeeze()
            q2_pred = q.q2(obs_act, zsa=zsa, zs=zs).squeeze()
            max_abs_td_error = jnp.maximum(
                # TODO we compute these differences twice...
                jnp.abs(q1_pred - q_target),
                jnp.abs(q2_pred - q_target),
            )
            return (
                optax.huber_loss(
                    predictions=q1_pred, targets=q_target, delta=min_priority
                ).mean()
                + optax.huber_loss(
                    predictions=q2_pred, targets=q_target, delta=min_priority
                ).mean(),
                max_abs_td_error,
            )

        (q_loss_value, max_abs_td_error), grads = nnx.value_and_grad(
            sum_of_qnet_losses, has_aux=True
        )(critic)
        critic_optimizer.update(grads)

        return q_loss_value, max_abs_td_error, q_target
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
    raise SystemExit  # scaffolding


def _make(rngs, n_obs=3, n_act=2, zdim=4, hidden=8):  # scaffolding: small SALE / critic as in create_td7_state
    sale = SALE(nnx.Linear(n_obs, zdim, rngs=rngs), nnx.Linear(zdim + n_act, zdim, rngs=rngs))
    def q():
        return CriticSALE(nnx.Linear(hidden + 2 * zdim, 1, rngs=rngs), n_obs, n_act, hidden, rngs)
    return sale, ContinuousClippedDoubleQNet(q(), q())


rngs = nnx.Rngs(0)  # scaffolding
fixed_embedding, critic = _make(rngs)  # scaffolding
fixed_embedding_target, critic_target = _make(rngs)  # scaffolding
critic_optimizer = nnx.ModelAndOptimizer(critic, optax.adam(3e-4))  # scaffolding: flax 0.12 keeps update(grads) here
value_clipping_state = ValueClippingState()
gamma, lap_min_priority, target_delay = 0.99, 1.0, 2  # scaffolding: target_delay=250 in the repo
key = jax.random.PRNGKey(0)  # scaffolding
calls = 0  # scaffolding
for epoch in range(1, 7):  # scaffolding: the training loop of train_td7, cut down
    key, k1, k2 = jax.random.split(key, 3)  # scaffolding
    observations = jax.random.normal(k1, (16, 3))  # scaffolding: replay_buffer.sample_batch
    actions = jax.random.normal(k2, (16, 2))  # scaffolding
    next_observations, next_actions = observations + 0.1, actions  # scaffolding
    rewards, terminations = jnp.ones(16), jnp.zeros(16)  # scaffolding
    q_loss_value, max_abs_td_error, q_target = td7_update_critic(
        fixed_embedding,
        fixed_embedding_target,
        critic,
        critic_target,
        critic_optimizer,
        gamma,
        observations,
        actions,
        next_observations,
        next_actions,
        rewards,
        terminations,
        lap_min_priority,
        value_clipping_state.min_target_value,
        value_clipping_state.max_target_value,
    )
    calls += 1  # scaffolding
    value_clipping_state.min_value = min(
        value_clipping_state.min_value, float(q_target.min())
    )
    value_clipping_state.max_value = max(
        value_clipping_state.max_value, float(q_target.max())
    )
    if epoch % target_delay == 0:
        value_clipping_state.min_target_value = (
            value_clipping_state.min_value
        )
        value_clipping_state.max_target_value = (
            value_clipping_state.max_value
        )
_report({"jit(td7_update_critic)"}, calls)  # scaffolding
