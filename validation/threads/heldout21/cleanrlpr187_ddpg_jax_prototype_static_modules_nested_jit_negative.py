# source: https://github.com/vwxyzjn/cleanrl/pull/187
# expect: none
# runtime: COMPILES 2 CALLS 9
# why: forward and forward2 are jitted once at module level with the flax modules and optax optimizers as hashable static arguments, and the @jax.jit mse_loss nested inside forward is traced as part of it, so 9 training-step calls compile each function once (the nested jit compiles nothing on its own).
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
# vwxyzjn/cleanrl PR #187 (branch commit 754a0b12, "Commit changes - successful prototype"): cleanrl/ddpg_continuous_action_jax.py
import functools
from typing import Sequence
import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax

jax.tree_map = jax.tree.map  # scaffolding: removed in jax 0.6

# ALGO LOGIC: initialize agent here:
class QNetwork(nn.Module):
    obs_dim: Sequence[int]
    action_dim: Sequence[int]
    @nn.compact
    def __call__(self, x: jnp.ndarray, a: jnp.ndarray):
        x = jnp.concatenate([x, a], -1)
        x = nn.Dense(256)(x)
        x = nn.relu(x)
        x = nn.Dense(256)(x)
        x = nn.relu(x)
        x = nn.Dense(1)(x)
        return x


class Actor(nn.Module):
    action_dim: Sequence[int]

    @nn.compact
    def __call__(self, x):
        x = nn.Dense(256)(x)
        x = nn.relu(x)
        x = nn.Dense(256)(x)
        x = nn.relu(x)
        x = nn.Dense(self.action_dim)(x)
        x = nn.tanh(x)
        return x


@functools.partial(jax.jit, static_argnames=('actor', 'qf1', 'qf1', 'qf1_optimizer', 'actor_optimizer'))
def forward(
    actor,
    actor_parameters,
    actor_target_parameters,
    qf1,
    qf1_parameters,
    qf1_target_parameters,
    observations,
    actions,
    next_observations,
    rewards,
    dones,
    gamma,
    tau,
    qf1_optimizer,
    qf1_optimizer_state,
    actor_optimizer,
    actor_optimizer_state,
):
    next_state_actions = (actor.apply(actor_target_parameters, next_observations)).clip(-1, 1)
    qf1_next_target = qf1.apply(qf1_target_parameters, next_observations, next_state_actions).reshape(-1)
    next_q_value = (rewards + (1 - dones) * gamma * (qf1_next_target)).reshape(-1)

    # def mse_loss(qf1_parameters, observations, actions, next_q_value):
    #     return ((qf1.apply(qf1_parameters, observations, actions) - next_q_value) ** 2).mean()

    @jax.jit
    def mse_loss(qf1_parameters, observations, actions, next_q_value):
        # Define the squared loss for a single pair (x,y)
        def squared_error(x, a, y):
            pred = qf1.apply(qf1_parameters, x, a)
            return jnp.inner(y-pred, y-pred) / 2.0
        # Vectorize the previous to compute the average of the loss on all samples.
        return jnp.mean(jax.vmap(squared_error)(observations,actions, next_q_value), axis=0)

    qf1_loss_value, grads = jax.value_and_grad(mse_loss)(qf1_parameters, observations, actions, next_q_value)
    updates, qf1_optimizer_state = qf1_optimizer.update(grads, qf1_optimizer_state)
    qf1_parameters = optax.apply_updates(qf1_parameters, updates)

    return qf1_loss_value, 0, qf1_parameters, qf1_target_parameters, qf1_optimizer_state, actor_parameters, actor_target_parameters, actor_optimizer_state


@functools.partial(jax.jit, static_argnames=('actor', 'qf1', 'qf1', 'qf1_optimizer', 'actor_optimizer'))
def forward2(
    actor,
    actor_parameters,
    actor_target_parameters,
    qf1,
    qf1_parameters,
    qf1_target_parameters,
    observations,
    actions,
    next_observations,
    rewards,
    dones,
    gamma,
    tau,
    qf1_optimizer,
    qf1_optimizer_state,
    actor_optimizer,
    actor_optimizer_state,
):
    def actor_loss(actor_parameters, qf1_parameters, observations):
        return -qf1.apply(qf1_parameters, observations, actor.apply(actor_parameters, observations)).mean()

    actor_loss_value, grads = jax.value_and_grad(actor_loss)(actor_parameters, qf1_parameters, observations)
    updates, actor_optimizer_state = actor_optimizer.update(grads, actor_optimizer_state)
    actor_parameters = optax.apply_updates(actor_parameters, updates)

    actor_target_parameters = update_target(actor_parameters, actor_target_parameters, tau)
    qf1_target_parameters = update_target(qf1_parameters, qf1_target_parameters, tau)

    return 0, actor_loss_value, qf1_parameters, qf1_target_parameters, qf1_optimizer_state, actor_parameters, actor_target_parameters, actor_optimizer_state


def update_target(src, dst, tau):
    return jax.tree_map(
        lambda p, tp: p * tau + tp * (1 - tau), src, dst
    )


if __name__ == "__main__":
    jaxRNG = jax.random.PRNGKey(0)  # scaffolding
    obs = np.zeros((1, 3), np.float32)  # scaffolding: envs.reset() of a Pendulum-like env
    actor = Actor(action_dim=1)  # scaffolding: np.prod(envs.single_action_space.shape)
    actor_parameters = actor.init(jaxRNG, obs)
    actor_target_parameters = actor.init(jaxRNG, obs)
    actor.apply = jax.jit(actor.apply)
    qf1 = QNetwork(obs_dim=3, action_dim=1)  # scaffolding: shapes from the env spaces
    qf1_parameters = qf1.init(jaxRNG, obs, np.zeros((1, 1), np.float32))  # scaffolding: envs.action_space.sample()
    qf1_target_parameters = qf1.init(jaxRNG, obs, np.zeros((1, 1), np.float32))  # scaffolding
    qf1.apply = jax.jit(qf1.apply)
    actor_target_parameters = update_target(actor_parameters, actor_target_parameters, 1.0)
    qf1_target_parameters = update_target(qf1_parameters, qf1_target_parameters, 1.0)
    actor_optimizer = optax.adam(learning_rate=3e-4)  # scaffolding: args.learning_rate
    actor_optimizer_state = actor_optimizer.init(actor_parameters)
    qf1_optimizer = optax.adam(learning_rate=3e-4)  # scaffolding: args.learning_rate
    qf1_optimizer_state = qf1_optimizer.init(qf1_parameters)
    rng = np.random.default_rng(0)  # scaffolding
    calls = 0  # scaffolding
    for global_step in range(6):  # scaffolding: training steps after learning_starts, batch of 8
        observations, actions, next_observations = rng.normal(size=(8, 3)).astype(np.float32), rng.normal(size=(8, 1)).astype(np.float32), rng.normal(size=(8, 3)).astype(np.float32)  # scaffolding: rb.sample(...) .numpy()
        rewards, dones = rng.normal(size=8).astype(np.float32), np.zeros(8, np.float32)  # scaffolding
        qf1_loss_value, _, qf1_parameters, qf1_target_parameters, qf1_optimizer_state, actor_parameters, actor_target_parameters, actor_optimizer_state = forward(
            actor,
            actor_parameters,
            actor_target_parameters,
            qf1,
            qf1_parameters,
            qf1_target_parameters,
            observations,
            actions,
            next_observations,
            rewards,
            dones,
            0.99,
            0.005,
            qf1_optimizer,
            qf1_optimizer_state,
            actor_optimizer,
            actor_optimizer_state,
        )
        calls += 1  # scaffolding
        if global_step % 2 == 0:  # scaffolding: args.policy_frequency
            _, actor_loss_value, qf1_parameters, qf1_target_parameters, qf1_optimizer_state, actor_parameters, actor_target_parameters, actor_optimizer_state = forward2(
                actor,
                actor_parameters,
                actor_target_parameters,
                qf1,
                qf1_parameters,
                qf1_target_parameters,
                observations,
                actions,
                next_observations,
                rewards,
                dones,
                0.99,
                0.005,
                qf1_optimizer,
                qf1_optimizer_state,
                actor_optimizer,
                actor_optimizer_state,
            )
            calls += 1  # scaffolding
    _report({"jit(forward)", "jit(forward2)", "jit(mse_loss)"}, calls)  # scaffolding
