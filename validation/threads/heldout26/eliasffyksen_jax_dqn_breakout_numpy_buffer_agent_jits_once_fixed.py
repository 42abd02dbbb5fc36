# source: https://github.com/eliasffyksen/jax-dqn-breakout/blob/efaea1db8dec68dae0a00a28fd485b4b9274a1b1/src/train.py
# expect: none
# runtime: COMPILES 2 CALLS 252
# why: the Agent jits policy.apply and the train step once in __init__ and passes the changing params, optimiser state and fixed-size replay batches as arguments, so each compiles once over the whole run.
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


# ---- src/agent.py ----
from functools import partial
from typing import Callable

import optax
import jax
import jax.numpy as jnp
import flax.linen as nn
import jaxopt


def make_train_fn(
    opt: optax.GradientTransformation,
    policy: nn.Module,
    gamma: float,
) -> Callable:
    def dqn_loss(
            policy_params: optax.Params,
            policy_target_params: optax.Params,
            states: jax.Array,
            actions: jax.Array,
            rewards: jax.Array,
            next_states: jax.Array,
            terminals: jax.Array,
    ) -> jax.Array:
        q_values = policy.apply(policy_params, states)
        q_values = jnp.take_along_axis(q_values, actions, axis=-1)[:, 0]
        q_target_values = policy.apply(policy_target_params, next_states)
        q_target_values = jnp.max(q_target_values, axis=-1, keepdims=True)
        q_target_values = rewards + (~terminals) * gamma * q_target_values
        loss = jaxopt.loss.huber_loss(q_values, q_target_values)

        return loss.mean()

    grad_fn = jax.grad(dqn_loss)

    def train_step(
            policy_params: optax.Params,
            opt_state: optax.OptState,
            policy_target_params: optax.Params,
            states: jax.Array,
            actions: jax.Array,
            rewards: jax.Array,
            next_states: jax.Array,
            terminals: jax.Array,
    ) -> tuple[optax.Params, optax.OptState]:
        print('tracing train step')
        grads = grad_fn(policy_params, policy_target_params,
                        states, actions, rewards, next_states, terminals)
        updates, opt_state = opt.update(grads, opt_state)
        policy_params = optax.apply_updates(policy_params, updates)

        return policy_params, opt_state

    return train_step

class Agent:
    policy_params: optax.Params
    policy_target_params: optax.Params
    opt: optax.GradientTransformation
    opt_state: optax.OptState

    def __init__(
        self,
        policy: nn.Module,
        optimiser: optax.GradientTransformation,
        state: jax.ShapeDtypeStruct,
        rng: jax.Array,
        gamma: float,
    ) -> None:
        self.policy = policy
        self.opt = optimiser

        self._setup_policy(state, rng)
        self._setup_optimiser()
        self._setup_train(gamma)
    
    def _setup_policy(self, state: jax.ShapeDtypeStruct, rng: jax.Array) -> None:
        dummy_data = jnp.zeros((1, *state.shape), dtype=state.dtype)
        self.policy_params = self.policy.init(rng, dummy_data)
        self._predict = jax.jit(self.policy.apply)

        self.update_target()

    def _setup_optimiser(self) -> None:
        self.opt_state = self.opt.init(self.policy_params)

    def _setup_train(self, gamma: float) -> None:
        self._train = jax.jit(
            make_train_fn(self.opt, self.policy, gamma),
            donate_argnames=("policy_params", "opt_state")
        )

    def update_target(self) -> None:
        self.policy_target_params = jax.tree.map(  # scaffolding: jax.tree_map was removed from jax
            lambda x: x.copy(),
            self.policy_params,
        )

    def predict(self, state: jax.Array) -> jax.Array:
        return self._predict(self.policy_params, state)

    def train(self, batch: dict[str, jax.Array]) -> None:
        self.policy_params, self.opt_state = self._train(
            self.policy_params,
            self.opt_state,
            self.policy_target_params,
            **batch,
        )


# ---- src/replay_buffer.py ----
from typing import Callable
from functools import partial

import numpy as np

class ReplayBuffer:
    capacity: int
    size: int
    index: int
    data: dict[str, np.ndarray]

    def __init__(
        self,
        capacity: int,
        **data: np.ndarray,
    ):
        self.data = {
            key: np.zeros((capacity, *shape_dtype.shape), dtype=shape_dtype.dtype)
            for key, shape_dtype in data.items()
        }
        self.capacity = capacity
        self.size = 0
        self.index = 0

    def push(self, **kwargs: np.ndarray):
        for key, value in kwargs.items():
            self.data[key][self.index] = value
        self.index = (self.index + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def batch(self, batch_size: int, rng: np.ndarray) -> dict[str, np.ndarray] | None:
        if self.size < batch_size:
            return None

        indices = np.random.randint(0, self.size, batch_size)

        return {
            key: self.data[key][indices]
            for key in self.data
        }


# ---- src/policy.py ----
import jax
import jax.numpy as jnp
import flax.linen as nn

class NatureCNN(nn.Module):
    features: int = 512

    @nn.compact
    def __call__(self, x):
        x = nn.Conv(features=32, kernel_size=(8, 8), strides=(4, 4))(x)
        x = nn.relu(x)
        x = nn.Conv(features=64, kernel_size=(4, 4), strides=(2, 2))(x)
        x = nn.relu(x)
        x = nn.Conv(features=64, kernel_size=(3, 3), strides=(1, 1))(x)
        x = nn.relu(x)
        x = x.reshape((x.shape[0], -1))
        x = nn.Dense(features=self.features)(x)
        x = nn.relu(x)
        x = nn.Dense(features=4)(x)

        return x
    


# ---- src/profiler.py ----
import time

class Profiler:
    times: dict[str, float]
    cur_stage: str
    start_time: float

    def __init__(self):
        self.times = {}
        self.cur_stage = None
    
    def enter(self, stage: str):
        t = time.time()

        if self.cur_stage is not None:
            self.stop(t)

        self.cur_stage = stage
        self.start_time = t
    
    def stop(self, t: float = None):
        if t is None:
            t = time.time()

        old_time = self.times[self.cur_stage] if self.cur_stage in self.times else 0
        delta_time = t - self.start_time
        new_time = old_time + delta_time
        self.times[self.cur_stage] = new_time
    
    def get(self) -> dict[str, float]:
        return self.times

    def clear(self) -> dict[str, float]:
        values = self.times
        self.times = {}
        return values


# ---- src/train.py ----
from dataclasses import dataclass
from functools import partial
import random
from pprint import pprint

import jax
import jax.numpy as jnp
import optax
# import gymnasium as gym  # scaffolding: Atari env replaced by a stand-in below
# from wdb import get_wdb  # scaffolding: wandb helper, replaced below

# from agent import Agent / replay_buffer / policy / profiler: inlined above  # scaffolding
# from wandb_wrapper, env.atari_wrappers, env.vec_env.*: replaced by a stand-in env  # scaffolding
import numpy as np  # scaffolding


def get_wdb(hyperparameters):  # scaffolding: no wandb
    return None  # scaffolding


class _StandInVecEnv:  # scaffolding: stands in for VecFrameStack(DummyVecEnv([AtariWrapper(Breakout)]), 4)
    def __init__(self):  # scaffolding
        self._rng = np.random.RandomState(0)  # scaffolding
        self._t = 0  # scaffolding

    def reset(self):  # scaffolding
        self._t = 0  # scaffolding
        return self._rng.randint(0, 256, size=(1, 84, 84, 4)).astype(np.uint8)  # scaffolding

    def step(self, actions):  # scaffolding
        self._t += 1  # scaffolding
        obs = self._rng.randint(0, 256, size=(1, 84, 84, 4)).astype(np.uint8)  # scaffolding
        done = np.array([self._t % 50 == 0])  # scaffolding
        return obs, np.array([float(self._rng.rand() < 0.1)], dtype=np.float32), done, [{}]  # scaffolding

@dataclass
class Hyperparameters:
    name: str = 'jax-dqn-breakout'
    gamma: float = 0.99
    grad_clip: float = 10.0
    buffer_size: int = 100_000
    batch_size: int = 32
    learning_rate: float = 1e-4
    update_target_every: int = 1_000
    rollout_freq: int = 1
    train_freq: int = 4
    seed: int = 42
    train_length: int = 5_000_000
    log_interval: int = 1000
    eps_min: float = 0.01
    eps_max: float = 1.0
    eps_decay_len: float = 1_000_000
    start_learning: int = 100_000
    frame_stack: int = 4

def convert_state(state: jax.Array) -> jax.Array:
    return state.astype(jnp.float32) / 255.0

def calculate_epsilon(step: int, hyperparameters: Hyperparameters) -> float:
    eps_diff = hyperparameters.eps_max - hyperparameters.eps_min
    eps_decay_steps = hyperparameters.eps_decay_len
    eps_slope = eps_diff / eps_decay_steps
    eps = max(hyperparameters.eps_min, hyperparameters.eps_max - eps_slope * step)
    return eps

hyperparameters = Hyperparameters()
hyperparameters = Hyperparameters(buffer_size=512, update_target_every=100, train_length=240, log_interval=1000,  # scaffolding: a short run
                                  eps_max=0.0, eps_min=0.0, start_learning=40)  # scaffolding: greedy after 40 steps so predict runs
wdb = get_wdb(hyperparameters)

rng = jax.random.PRNGKey(hyperparameters.seed)
rng, agent_rng = jax.random.split(rng)
policy = NatureCNN()
optimiser = optax.chain(
    optax.clip_by_global_norm(hyperparameters.grad_clip),
    optax.adam(hyperparameters.learning_rate),
)

# env = gym.make(  # scaffolding
#     "ALE/Breakout-v5",  # scaffolding
#     frameskip=1,  # scaffolding
#     repeat_action_probability=0.0,  # scaffolding
# )  # scaffolding
# if wdb is not None:  # scaffolding
#     env = WandbWrapper(env, wdb, 4000)  # scaffolding
# env = AtariWrapper(env)  # scaffolding
# env = DummyVecEnv([lambda: env])  # scaffolding
# env = VecFrameStack(env, hyperparameters.frame_stack)  # scaffolding
env = _StandInVecEnv()  # scaffolding
state = env.reset()
state = state[0]

agent = Agent(
    policy=policy,
    optimiser=optimiser,
    rng=agent_rng,
    state=state,
    gamma=hyperparameters.gamma,
)

replay_buffer = ReplayBuffer(
    capacity=hyperparameters.buffer_size,
    states=state,
    actions=jax.ShapeDtypeStruct((1,), jnp.int32),
    rewards=jax.ShapeDtypeStruct((1,), jnp.float32),
    next_states=state,
    terminals=jax.ShapeDtypeStruct((1,), jnp.bool_),
)

profiler = Profiler()

for step, rng in enumerate(jax.random.split(rng, hyperparameters.train_length)):

    if step % hyperparameters.rollout_freq == 0:
        profiler.enter('rollout.action_selection')

        eps = calculate_epsilon(step, hyperparameters)
        if random.uniform(0, 1) < eps or step < hyperparameters.start_learning:
            action = random.randint(0, 3)
        else:
            action = agent.predict(convert_state(jnp.array(state))[None])[0]
            action = action.argmax()

        profiler.enter('rollout.env_step')
        next_state, reward, terminal, _ = env.step([action])
        next_state = next_state[0]
        profiler.enter('rollout.save_to_buffer')
        replay_buffer.push(
            states=state,
            actions=action,
            rewards=reward,
            next_states=next_state,
            terminals=terminal,
        )
        state = next_state

        profiler.enter('rollout.reset')
        if terminal:
            state = env.reset()
            state = state[0]

    if step % hyperparameters.train_freq == 0:
        profiler.enter('train.sample')
        batch = replay_buffer.batch(hyperparameters.batch_size, rng)

        if batch is not None:
            batch = {k: jnp.array(v) for k, v in batch.items()}
            batch['states'] = convert_state(batch['states'])
            batch['next_states'] = convert_state(batch['next_states'])

            profiler.enter('train.do')
            agent.train(batch)

    if step % hyperparameters.update_target_every == 0:
        profiler.enter('update_target')

        agent.update_target()

    if step % hyperparameters.log_interval == 0:
        profiler.enter('log')

        profiling_times = profiler.get()
        time_sum = sum(profiling_times.values())

        data = {
            'profiling': profiling_times,
            'profile_time_sum': time_sum,
            'time_per_frame': time_sum / max(step, 1),
        }

        if wdb is not None:
            wdb.log(data, step=step)
        else:
            pprint({
                'step': step,
                'data': data,
            })

    profiler.enter('misc')


_report({"jit(apply)", "jit(train_step)"}, sum(1 for s in range(hyperparameters.train_length) if s >= hyperparameters.start_learning) + sum(1 for s in range(hyperparameters.train_length) if s % 4 == 0 and s >= 32))  # scaffolding: predict calls + train calls
