# source: https://github.com/yardenas/safe-sim2real/commit/10be5ca241677995d1c2ee86ab088547beb8ed34
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the code before the commit uses @jax.jit(static_argnames=...) as a decorator factory, which the commit replaced with functools.partial because the JAX of 2025 rejected it; on jax 0.10.2 it works: env, policy and steps are static and rollout compiles once for two calls.
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


# ss2r/rl/utils.py
import jax
# from brax.envs import Env, State  # scaffolding: brax is not installed; stand-ins below
# from brax.training.types import Policy  # scaffolding



# ---- scaffolding: brax stand-ins for the two imports above ----
import jax.numpy as jnp  # scaffolding
from flax import struct  # scaffolding


@struct.dataclass  # scaffolding
class State:  # scaffolding: brax.envs.State, the fields used here
    obs: jax.Array  # scaffolding
    reward: jax.Array  # scaffolding


class Env:  # scaffolding: a point-mass brax-like env (hashable by identity, as brax envs are)
    def reset(self, rng):  # scaffolding
        return State(obs=jax.random.normal(rng, (2,)), reward=jnp.zeros(()))  # scaffolding

    def step(self, state, action):  # scaffolding
        obs = state.obs + 0.1 * action  # scaffolding
        return State(obs=obs, reward=-jnp.sum(obs ** 2))  # scaffolding


Policy = object  # scaffolding: brax.training.types.Policy is a Callable alias


@jax.jit(static_argnames=("env", "policy", "steps"))
def rollout(
    env: Env,
    policy: Policy,
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


# ---- scaffolding: the call that ss2r/benchmark_suites/brax/__init__.py's render() makes ----
def policy(obs, key):  # scaffolding: an inference_fn(obs, key) -> (action, extras)
    return jnp.tanh(-obs) + 0.01 * jax.random.normal(key, obs.shape), {}  # scaffolding


env = Env()  # scaffolding
calls = 0  # scaffolding
try:  # scaffolding
    for seed in range(2):  # scaffolding: two renders of the same env and policy
        rng = jax.random.split(jax.random.PRNGKey(seed), 1)  # scaffolding
        state = env.reset(rng[0])  # scaffolding
        _, trajectory = rollout(env, policy, 5, rng[0], state)  # scaffolding: render()'s call
        calls += 1  # scaffolding
    print(trajectory.obs.shape)  # scaffolding
    _report({"jit(rollout)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
