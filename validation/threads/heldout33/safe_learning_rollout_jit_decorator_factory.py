# source: https://github.com/lasgroup/safe-learning/commit/c6e2e7d24348a708e102322aec3eade15d3d5efb
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: rollout is decorated with @jax.jit(static_argnames=(...)) without functools.partial (the repo 'fixed' this in 10be5ca2), but jax 0.10.2 accepts jit as a decorator factory, and the same env and policy objects give one compile for repeated renders.

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
class State:  # scaffolding: brax envs.State (brax is not installed here)
    obs: Any
    reward: Any
    done: Any


class _PointEnv:  # scaffolding: stands in for a brax Env (hashable, used as a static argument)
    def reset(self, rng):
        return State(obs=jnp.ones((rng.shape[0], 3)), reward=jnp.zeros(rng.shape[0]), done=jnp.zeros(rng.shape[0]))

    def step(self, state, action):
        obs = state.obs + 0.1 * action
        return State(obs=obs, reward=-jnp.sum(obs**2, -1), done=state.done)


# ss2r/rl/utils.py at c6e2e7d2 ("jit rollout fun")
@jax.jit(static_argnames=("env", "policy", "steps"))
def rollout(
    env,
    policy,
    steps: int,
    rng: jax.Array,
    state: State,
) -> tuple[State, State]:
    def f(carry, _):
        state, current_key = carry
        current_key, next_key = jax.random.split(current_key)
        action, _ = policy(state.obs, current_key)
        nstate = env.step(
            state,
            action,
        )
        return (nstate, next_key), nstate

    (final_state, _), data = jax.lax.scan(f, (state, rng), (), length=steps)
    return final_state, data


def inference_fn(obs, key):  # scaffolding: a deterministic policy, built once after training
    return -obs, {}


# ss2r/benchmark_suites/brax/__init__.py render(), called for each rendered evaluation (video part trimmed)
def render(env, policy, steps, rng, camera=None):
    state = env.reset(rng)
    _, trajectory = rollout(env, policy, steps, rng[0], state)
    return trajectory


env = _PointEnv()
n_renders = 3
for i in range(n_renders):
    rng = jax.random.split(jax.random.PRNGKey(i), 2)
    trajectory = render(env, inference_fn, 50, rng)
jax.block_until_ready(trajectory.obs)
_report({"jit(rollout)"}, n_renders)
