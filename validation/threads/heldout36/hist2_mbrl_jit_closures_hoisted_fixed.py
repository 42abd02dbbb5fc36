# source: https://github.com/V1adych/mbrl-craftax/commit/be8cf605e1264921c0bded017069d3e90381f515
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: The commit defines @jax.jit closures _collect_rollouts and _update once before the loop (env and rollout_length captured), so the update step compiles once for 4 calls.

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

from types import SimpleNamespace
from typing import Any, NamedTuple
from collections.abc import Callable
import jax
from jax import numpy as jnp
from flax import struct
from flax.training import train_state
import optax


# --- scaffolding: stand-ins for craftax/gymnax, the replay buffer and the world-model losses ---
class Environment:  # a gymnax-style environment object (not a pytree)
    def step(self, key, state, action):
        state = state + action
        return state, state, jnp.float32(1.0), state > 3, {"r": jnp.float32(0.0)}


class Transition(NamedTuple):
    obs: jax.Array
    action: jax.Array
    reward: jax.Array
    term: jax.Array


class ReplayBuffer:
    def __init__(self, config):
        self.data = []

    def add(self, rollout):
        self.data.append(rollout)

    def can_sample(self, length):
        return len(self.data) > 0

    def sample(self, key, length, batch_size):
        return jax.tree.map(lambda x: x[:length, :batch_size], self.data[-1])
# --- end scaffolding ---


@struct.dataclass
class DreamerCarry:
    env_state: jax.Array
    last_obs: jax.Array


class DreamerState(train_state.TrainState):
    global_step: int
    slow_critic_params: Any
    ret_norm_params: Any

    @classmethod
    def create(cls, *, apply_fn: Callable | None = None, params: Any, tx: optax.GradientTransformation, **kwargs) -> "DreamerState":
        opt_state = tx.init(params)
        return cls(step=0, apply_fn=apply_fn, params=params, tx=tx, opt_state=opt_state, **kwargs)

    def apply_gradients(self, *, grads: Any, **kwargs) -> "DreamerState":
        updates, new_opt_state = self.tx.update(grads, self.opt_state, self.params)
        new_params = optax.apply_updates(self.params, updates)
        return self.replace(step=self.step + 1, params=new_params, opt_state=new_opt_state, **kwargs)


class DreamerV3:
    def __init__(self, config):
        self.config = config
        self.replay: ReplayBuffer = None

    def train(self, key, env):
        # scaffolding: model/optimizer init replaced by a tiny parameter vector
        params = {"w": jnp.zeros((4,))}
        ts = DreamerState.create(apply_fn=None, params=params, tx=optax.adam(1e-3), global_step=0, slow_critic_params=params, ret_norm_params=None)
        carry = DreamerCarry(env_state=jnp.zeros((self.config.num_worlds,)), last_obs=jnp.zeros((self.config.num_worlds,)))
        self.replay = ReplayBuffer(None)

        last_ckpt = -1
        last_log = -1
        accum_increment = self.config.train_ratio * self.config.rollout_length * self.config.num_worlds
        accum_decrement = self.config.batch_size * self.config.batch_length
        update_accum = -accum_decrement * self.config.train_ratio

        all_infos = []

        @jax.jit
        def _collect_rollouts(key: jax.Array, ts: DreamerState, carry: DreamerCarry):
            return self.collect_rollouts(key, ts, carry, env, self.config.rollout_length)

        @jax.jit
        def _update(key: jax.Array, ts: DreamerState, batch: Transition):
            return self.update(key, ts, batch)

        while ts.global_step < self.config.max_steps:
            key, rollout_key = jax.random.split(key)
            ts, carry, rollout, debug_infos = _collect_rollouts(rollout_key, ts, carry)
            self.replay.add(rollout)
            if self.config.log_tensorboard:
                all_infos.append(debug_infos)
            update_accum += accum_increment

            all_metrics = []
            while update_accum >= accum_decrement and self.replay.can_sample(self.config.batch_length + self.config.replay_length):
                key, sample_key, update_key = jax.random.split(key, 3)
                batch = self.replay.sample(sample_key, self.config.batch_length + self.config.replay_length, self.config.batch_size)
                ts, metrics = _update(update_key, ts, batch)
                update_accum -= accum_decrement
                if self.config.log_tensorboard:
                    all_metrics.append(metrics)
                self.n_updates += 1  # scaffolding: count calls
        return ts

    def collect_rollouts(self, key: jax.Array, ts: DreamerState, carry: DreamerCarry, env: Environment, length: int):
        def _collect_rollout_step(state: tuple[jax.Array, DreamerState, DreamerCarry], _):
            key, ts, carry = state
            obs = carry.last_obs
            key, act_key, step_key = jax.random.split(key, 3)
            action = jax.random.bernoulli(act_key, 0.5, (self.config.num_worlds,)).astype(jnp.float32)  # scaffolding: stands in for the world model + actor
            obs_new, env_state, reward, done, info = jax.vmap(env.step)(jax.random.split(step_key, self.config.num_worlds), carry.env_state, action)
            transition = Transition(obs=obs, action=action, reward=jnp.broadcast_to(reward, done.shape), term=done)
            ts = ts.replace(global_step=ts.global_step + self.config.num_worlds)
            debug_info = done
            carry_new = DreamerCarry(env_state=env_state, last_obs=obs_new)
            return (key, ts, carry_new), (transition, debug_info)

        (_, ts, carry), (transitions, debug_infos) = jax.lax.scan(_collect_rollout_step, (key, ts, carry), length=length)
        return ts, carry, transitions, debug_infos

    def update(self, key: jax.Array, ts: DreamerState, batch: Transition):
        def _loss_fn(params, batch):  # scaffolding: stands in for the world-model/actor/critic losses
            return jnp.mean((batch.obs[..., None] * params["w"] - batch.reward[..., None]) ** 2)

        loss, grads = jax.value_and_grad(_loss_fn)(ts.params, batch)
        ts = ts.apply_gradients(grads=grads)
        return ts, {"loss": loss}


config = SimpleNamespace(  # scaffolding: src/configs, cut down
    num_worlds=4, rollout_length=8, train_ratio=1, batch_size=4, batch_length=8, replay_length=0,
    max_steps=5 * 4 * 8, log_tensorboard=False, save_checkpoints=False,
)
agent = DreamerV3(config)
agent.n_updates = 0
try:  # scaffolding
    agent.train(jax.random.PRNGKey(0), Environment())
    _report({"jit(update)", "jit(_update)"}, agent.n_updates)  # compiles of the update step per update call
except TypeError as e:  # scaffolding
    print("ERROR", type(e).__name__)
