# source: https://github.com/lasgroup/safe-learning/commit/1bffb9db2a98d9c8bc7098b2a242a4ffffc34cfc
# expect: jit-in-loop-or-body at line 81
# runtime: COMPILES 5 CALLS 5
# why: ConstraintWrapper.step builds jax.jit(self.env.step) on every step; in the eager (cfg.jit=False, jax.disable_jit) debug path each bound-method wrapper misses the cache and recompiles every environment step.

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
        with jax.disable_jit(False):
            nstate = jax.jit(self.env.step)(state, action)
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
