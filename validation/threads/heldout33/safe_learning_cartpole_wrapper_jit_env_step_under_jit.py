# source: https://github.com/lasgroup/safe-learning/commit/1bffb9db2a98d9c8bc7098b2a242a4ffffc34cfc
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: The same jax.jit(self.env.step) inside the wrapper, stepped inside a jitted lax.scan unroll (the cfg.jit=True path), is inlined into the outer trace, so only the outer unroll compiles, once for four unrolls.

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


# the normal path (cfg.jit=True): the wrapper is stepped inside brax's jitted, scanned training/eval unroll
env = ConstraintWrapper(Cartpole(), 0.25)


@jax.jit
def generate_unroll(state, actions):  # scaffolding: stands in for brax's jitted unroll over env.step
    def f(state, action):
        nstate = env.step(state, action)
        return nstate, nstate.info["cost"]

    return jax.lax.scan(f, state, actions)


n_unrolls = 4
for i in range(n_unrolls):
    state = env.reset(jax.random.PRNGKey(i))
    state, costs = generate_unroll(state, jnp.ones((20, 1)) * 0.1 * i)
jax.block_until_ready(costs)
_report({"jit(step)", "jit(generate_unroll)"}, n_unrolls)
