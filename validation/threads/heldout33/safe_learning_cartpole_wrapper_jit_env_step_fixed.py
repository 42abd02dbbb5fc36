# source: https://github.com/lasgroup/safe-learning/commit/1bffb9db2a98d9c8bc7098b2a242a4ffffc34cfc
# expect: none
# runtime: COMPILES 0 CALLS 5
# why: 1bffb9db calls self.env.step directly, so nothing is compiled per step.

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
from typing import Any

import jax
import jax.numpy as jnp
from flax import struct


@struct.dataclass
class State:  # scaffolding: brax.envs.base.State (brax is not installed here)
    pipeline_state: Any
    obs: Any
    reward: Any
    done: Any
    metrics: dict = struct.field(default_factory=dict)
    info: dict = struct.field(default_factory=dict)


class Env:  # scaffolding: brax Env
    pass


class Wrapper(Env):  # scaffolding: brax.envs.Wrapper
    def __init__(self, env):
        self.env = env


class Cartpole(Env):  # scaffolding: stands in for the brax Cartpole PipelineEnv (physics replaced by a toy update)
    def reset(self, rng: jax.Array) -> State:
        q = jnp.zeros(2).at[0].set(jax.random.uniform(rng, shape=(), minval=-1.0, maxval=1.0))
        return State(q, q, jnp.array(0.0), jnp.array(0.0))

    def step(self, state: State, action: jax.Array) -> State:
        q = state.pipeline_state + 0.05 * jnp.concatenate([action, -action])
        return state.replace(pipeline_state=q, obs=q, reward=jnp.cos(q[1]))

    def cart_position(self, pipeline_state):
        return pipeline_state[0]


class ConstraintWrapper(Wrapper):
    def __init__(self, env: Env, slider_position_bound: float):
        assert isinstance(env, Cartpole)
        super().__init__(env)
        self.slider_position_bound = slider_position_bound

    def reset(self, rng: jax.Array) -> State:
        state = self.env.reset(rng)
        state.info["cost"] = jnp.zeros_like(state.reward)
        return state

    def step(self, state: State, action: jax.Array) -> State:
        nstate = self.env.step(state, action)
        slider_pos = self.env.cart_position(nstate.pipeline_state)
        cost = (jnp.abs(slider_pos) >= self.slider_position_bound).astype(jnp.float32)
        nstate.info["cost"] = cost
        return nstate


# train_brax.py runs everything under `with jax.disable_jit(not cfg.jit):`; with cfg.jit=False (debug runs)
# the environment is stepped eagerly
env = ConstraintWrapper(Cartpole(), 0.25)
n_steps = 5  # scaffolding: a short debug episode
with jax.disable_jit(True):  # scaffolding: cfg.jit = False
    state = env.reset(jax.random.PRNGKey(0))
    for t in range(n_steps):
        state = env.step(state, jnp.ones(1))
_report({"jit(step)"}, n_steps)
