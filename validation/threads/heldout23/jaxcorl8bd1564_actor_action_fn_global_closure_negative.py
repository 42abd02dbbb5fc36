# source: https://github.com/nissymori/JAX-CORL/commit/8bd1564c523e468359573d823ae65e06bc6ba0be
# expect: none
# runtime: COMPILES 1 CALLS 30
# why: actor_action_fn reads the module-level train_state only for its apply_fn and takes the params as an argument, so later evaluations use the updated params and it compiles once.

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


from functools import partial
from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import optax
import flax.linen as nn  # scaffolding
from flax.training.train_state import TrainState


def trange(n, **kwargs):  # scaffolding: tqdm stand-in
    return range(n)


class _Env:  # scaffolding: stand-in for a D4RL gym env (5-step episodes, 3-dim observations)
    def seed(self, s): pass
    action_space = observation_space = type("S", (), {"seed": lambda self, s: None})()
    def reset(self):
        self.t = 0
        return np.ones(3)
    def step(self, action):
        self.t += 1
        return np.ones(3) * self.t, float(np.sum(action)), self.t >= 5, {}
    def get_normalized_score(self, r):
        return np.asarray(r) / 10.0


class _Actor(nn.Module):  # scaffolding
    @nn.compact
    def __call__(self, obs):
        return nn.tanh(nn.Dense(2)(obs))


class ReBRACTrainState(NamedTuple):  # scaffolding: the repo's NamedTuple (called SACNState before the commit)
    actor: TrainState


def create_train_state():  # scaffolding
    actor = _Actor()
    return ReBRACTrainState(actor=TrainState.create(apply_fn=actor.apply, params=actor.init(jax.random.PRNGKey(0), jnp.ones(3)), tx=optax.adam(1e-3)))


class _Config:  # scaffolding
    eval_episodes = 2
    eval_seed = 0


config = _Config()  # scaffolding
env = _Env()  # scaffolding
obs_mean, obs_std = np.zeros(3), np.ones(3)  # scaffolding

gym = type('gym', (), {'Env': object})  # scaffolding


# algos/rebrac.py before the commit: evaluate and the jitted actor_action_fn of __main__
def evaluate(env: gym.Env, params, action_fn: Callable, num_episodes: int, seed: int) -> np.ndarray:
    env.seed(seed)
    env.action_space.seed(seed)
    env.observation_space.seed(seed)

    returns = []
    for _ in trange(num_episodes, desc="Eval", leave=False):
    # for _ in range(num_episodes):
        obs, done = env.reset(), False
        total_reward = 0.0
        while not done:
            action = np.asarray(jax.device_get(action_fn(params, obs)))
            obs, reward, done, _ = env.step(action)
            total_reward += reward
        returns.append(total_reward)

    return np.array(returns)


train_state = create_train_state()  # scaffolding


@jax.jit
def actor_action_fn(params, obs):
    return train_state.actor.apply_fn(params, obs)


for step in range(3):  # scaffolding: training cut to a params update, evaluation every step
    train_state = train_state._replace(actor=train_state.actor.replace(params=jax.tree.map(lambda p: p + 0.1, train_state.actor.params)))  # scaffolding
    eval_returns = evaluate(env, train_state.actor.params, actor_action_fn, config.eval_episodes,
                            seed=config.eval_seed)
    normalized_score = env.get_normalized_score(eval_returns) * 100.0
print(np.mean(normalized_score))  # scaffolding
_report({"jit(actor_action_fn)"}, 3 * 2 * 5)  # scaffolding
