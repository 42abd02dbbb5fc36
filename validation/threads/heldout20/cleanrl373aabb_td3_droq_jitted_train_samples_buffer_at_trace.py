# source: https://github.com/vwxyzjn/cleanrl/commit/373aabb1a0ede55525f8f2a8001134e7477ed13e
# expect: stale-closure at line 280
# runtime: COMPILES 1 CALLS 3
# why: Commit 23e4d3b1 (reverted by this commit) moved the gradient-step loop into a jitted train(), so rb.sample() runs once at trace time and every later call trains on that same baked-in batch (1 compile, 3 calls, 1 sample).

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



import argparse  # scaffolding
from typing import Optional, Sequence

import flax
import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.training.train_state import TrainState


class _T:  # scaffolding: stands for the torch tensors stable-baselines3 returns
    def __init__(self, a):
        self.a = np.asarray(a, np.float32)

    def numpy(self):
        return self.a

    def flatten(self):
        return _T(self.a.reshape(-1))


class ReplayBuffer:  # scaffolding: stand-in for stable_baselines3.common.buffers.ReplayBuffer
    def __init__(self, *a, **k):
        self.data, self.n_sampled = [], 0

    def add(self, obs, next_obs, action, reward, done, infos):
        self.data.append((obs[0], next_obs[0], action[0], reward[0], done[0]))

    def sample(self, batch_size):
        self.n_sampled += 1
        idx = np.random.randint(0, len(self.data), batch_size)
        o, no, a, r, d = (np.stack(x) for x in zip(*[self.data[i] for i in idx]))
        return argparse.Namespace(observations=_T(o), next_observations=_T(no), actions=_T(a),
                                  rewards=_T(r[:, None]), dones=_T(d[:, None]))


class _Box:  # scaffolding: a Pendulum-like action space
    low, high, shape = np.array([-2.0], np.float32), np.array([2.0], np.float32), (1,)

    def sample(self):
        return np.random.uniform(-2, 2, (1,)).astype(np.float32)


args = argparse.Namespace(gamma=0.99, tau=0.005, learning_rate=3e-4, policy_noise=0.2, noise_clip=0.5,  # scaffolding
                          batch_size=32, gradient_steps=1, policy_frequency=2, dropout_rate=0.0,  # scaffolding
                          layer_norm=False, learning_starts=4, total_timesteps=8, seed=1)  # scaffolding


# cleanrl/td3_droq_continuous_action_jax.py at commit 23e4d3b1 ("Try to jit the for loop")
# ALGO LOGIC: initialize agent here:
class QNetwork(nn.Module):
    use_layer_norm: bool = False
    dropout_rate: Optional[float] = None

    @nn.compact
    def __call__(self, x: jnp.ndarray, a: jnp.ndarray, training: bool = False):
        x = jnp.concatenate([x, a], -1)
        x = nn.Dense(256)(x)
        if self.dropout_rate is not None and self.dropout_rate > 0:
            x = nn.Dropout(rate=self.dropout_rate)(x, deterministic=False)
        if self.use_layer_norm:
            x = nn.LayerNorm()(x)
        x = nn.relu(x)
        x = nn.Dense(256)(x)
        if self.dropout_rate is not None and self.dropout_rate > 0:
            x = nn.Dropout(rate=self.dropout_rate)(x, deterministic=False)
        if self.use_layer_norm:
            x = nn.LayerNorm()(x)
        x = nn.relu(x)
        x = nn.Dense(1)(x)
        return x


class Actor(nn.Module):
    action_dim: Sequence[int]
    action_scale: float
    action_bias: float

    @nn.compact
    def __call__(self, x):
        x = nn.Dense(256)(x)
        x = nn.relu(x)
        x = nn.Dense(256)(x)
        x = nn.relu(x)
        x = nn.Dense(self.action_dim)(x)
        x = nn.tanh(x)
        x = x * self.action_scale + self.action_bias
        return x


class RLTrainState(TrainState):
    target_params: flax.core.FrozenDict


def main():
    np.random.seed(args.seed)
    key = jax.random.PRNGKey(args.seed)
    key, actor_key, qf1_key, qf2_key = jax.random.split(key, 4)
    key, dropout_key1, dropout_key2 = jax.random.split(key, 3)

    envs = argparse.Namespace(action_space=_Box(), num_envs=1)  # scaffolding: DummyVecEnv(Pendulum)
    # Assume that all dimensions share the same bound
    min_action = float(envs.action_space.low[0])
    max_action = float(envs.action_space.high[0])
    rb = ReplayBuffer()  # scaffolding: ReplayBuffer(args.buffer_size, ...)

    # TRY NOT TO MODIFY: start the game
    obs = np.zeros((1, 3), np.float32)  # scaffolding: envs.reset()
    actor = Actor(
        action_dim=np.prod(envs.action_space.shape),
        action_scale=(max_action - min_action) / 2.0,
        action_bias=(max_action + min_action) / 2.0,
    )
    actor_state = RLTrainState.create(
        apply_fn=actor.apply,
        params=actor.init(actor_key, obs),
        target_params=actor.init(actor_key, obs),
        tx=optax.adam(learning_rate=args.learning_rate),
    )
    qf = QNetwork(dropout_rate=args.dropout_rate, use_layer_norm=args.layer_norm)
    qf1_state = RLTrainState.create(
        apply_fn=qf.apply,
        params=qf.init({"params": qf1_key, "dropout": dropout_key1}, obs, jnp.array([envs.action_space.sample()])),
        target_params=qf.init({"params": qf1_key, "dropout": dropout_key1}, obs, jnp.array([envs.action_space.sample()])),
        tx=optax.adam(learning_rate=args.learning_rate),
    )
    qf2_state = RLTrainState.create(
        apply_fn=qf.apply,
        params=qf.init({"params": qf2_key, "dropout": dropout_key2}, obs, jnp.array([envs.action_space.sample()])),
        target_params=qf.init({"params": qf2_key, "dropout": dropout_key2}, obs, jnp.array([envs.action_space.sample()])),
        tx=optax.adam(learning_rate=args.learning_rate),
    )
    actor.apply = jax.jit(actor.apply)
    qf.apply = jax.jit(qf.apply, static_argnames=("dropout_rate", "use_layer_norm"))

    @jax.jit
    def update_critic(
        actor_state: RLTrainState,
        qf1_state: RLTrainState,
        qf2_state: RLTrainState,
        observations: np.ndarray,
        actions: np.ndarray,
        next_observations: np.ndarray,
        rewards: np.ndarray,
        dones: np.ndarray,
        key: jnp.ndarray,
    ):
        # TODO Maybe pre-generate a lot of random keys
        # also check https://jax.readthedocs.io/en/latest/jax.random.html
        key, noise_key, dropout_key_1, dropout_key_2 = jax.random.split(key, 4)
        key, dropout_key_3, dropout_key_4 = jax.random.split(key, 3)

        clipped_noise = jnp.clip(
            (jax.random.normal(noise_key, actions[0].shape) * args.policy_noise),
            -args.noise_clip,
            args.noise_clip,
        )
        next_state_actions = jnp.clip(
            actor.apply(actor_state.target_params, next_observations) + clipped_noise,
            envs.action_space.low[0],
            envs.action_space.high[0],
        )
        qf1_next_target = qf.apply(
            qf1_state.target_params,
            next_observations,
            next_state_actions,
            True,
            rngs={"dropout": dropout_key_1},
        ).reshape(-1)
        qf2_next_target = qf.apply(
            qf2_state.target_params,
            next_observations,
            next_state_actions,
            True,
            rngs={"dropout": dropout_key_2},
        ).reshape(-1)
        min_qf_next_target = jnp.minimum(qf1_next_target, qf2_next_target)
        next_q_value = (
            rewards + (1 - dones) * args.gamma * (min_qf_next_target)
        ).reshape(-1)

        def mse_loss(params, noise_key):
            qf_a_values = qf.apply(
                params, observations, actions, True, rngs={"dropout": noise_key}
            ).squeeze()
            return ((qf_a_values - next_q_value) ** 2).mean(), qf_a_values.mean()

        (qf1_loss_value, qf1_a_values), grads1 = jax.value_and_grad(
            mse_loss, has_aux=True
        )(qf1_state.params, dropout_key_3)
        (qf2_loss_value, qf2_a_values), grads2 = jax.value_and_grad(
            mse_loss, has_aux=True
        )(qf2_state.params, dropout_key_4)
        qf1_state = qf1_state.apply_gradients(grads=grads1)
        qf2_state = qf2_state.apply_gradients(grads=grads2)

        return (
            (qf1_state, qf2_state),
            (qf1_loss_value, qf2_loss_value),
            (qf1_a_values, qf2_a_values),
            key,
        )

    @jax.jit
    def update_actor(
        actor_state: RLTrainState,
        qf1_state: RLTrainState,
        qf2_state: RLTrainState,
        observations: np.ndarray,
        key: jnp.ndarray,
    ):
        key, dropout_key = jax.random.split(key, 2)

        def actor_loss(params):
            return -qf.apply(
                qf1_state.params,
                observations,
                actor.apply(params, observations),
                True,
                rngs={"dropout": dropout_key},
            ).mean()

        actor_loss_value, grads = jax.value_and_grad(actor_loss)(actor_state.params)
        actor_state = actor_state.apply_gradients(grads=grads)
        actor_state = actor_state.replace(
            target_params=optax.incremental_update(
                actor_state.params, actor_state.target_params, args.tau
            )
        )
        return actor_state, (qf1_state, qf2_state), actor_loss_value, key

    @jax.jit
    def update_q_target_networks(qf1_state, qf2_state):
        qf1_state = qf1_state.replace(
            target_params=optax.incremental_update(
                qf1_state.params, qf1_state.target_params, args.tau
            )
        )
        qf2_state = qf2_state.replace(
            target_params=optax.incremental_update(
                qf2_state.params, qf2_state.target_params, args.tau
            )
        )
        return qf1_state, qf2_state

    @jax.jit
    def train(qf1_state, qf2_state, actor_state, key, n_updates):
        for _ in range(args.gradient_steps):
            n_updates += 1
            data = rb.sample(args.batch_size)

            (
                (qf1_state, qf2_state),
                (qf1_loss_value, qf2_loss_value),
                (qf1_a_values, qf2_a_values),
                key,
            ) = update_critic(
                actor_state,
                qf1_state,
                qf2_state,
                data.observations.numpy(),
                data.actions.numpy(),
                data.next_observations.numpy(),
                data.rewards.flatten().numpy(),
                data.dones.flatten().numpy(),
                key,
            )

            # TODO: check if we need to update actor target too
            qf1_state, qf2_state = update_q_target_networks(qf1_state, qf2_state)

        (
            actor_state,
            (qf1_state, qf2_state),
            actor_loss_value,
            key,
        ) = update_actor(
            actor_state,
            qf1_state,
            qf2_state,
            data.observations.numpy(),
            key,
        )
        return (
            n_updates,
            (qf1_state, qf2_state),
            actor_state,
            key,
            (qf1_loss_value, qf2_loss_value),
            actor_loss_value,
            (qf1_a_values, qf2_a_values),
        )

    n_updates = 0
    for global_step in range(args.total_timesteps):
        actions = np.array([envs.action_space.sample() for _ in range(envs.num_envs)])  # scaffolding
        next_obs, rewards, dones = np.random.normal(size=(1, 3)).astype(np.float32), np.ones(1), np.zeros(1)  # scaffolding: envs.step(actions)
        real_next_obs = next_obs.copy()
        rb.add(obs, real_next_obs, actions, rewards, dones, [{}])

        # TRY NOT TO MODIFY: CRUCIAL step easy to overlook
        obs = next_obs

        # ALGO LOGIC: training.
        if global_step > args.learning_starts:
            (
                n_updates,
                (qf1_state, qf2_state),
                actor_state,
                key,
                (qf1_loss_value, qf2_loss_value),
                actor_loss_value,
                (qf1_a_values, qf2_a_values),
            ) = train(qf1_state, qf2_state, actor_state, key, n_updates)
    print(f"train calls 3, rb.sample calls {rb.n_sampled}")  # scaffolding: the batch is drawn once, at trace time
    _report({"jit(train)"}, 3)  # scaffolding


main()  # scaffolding
