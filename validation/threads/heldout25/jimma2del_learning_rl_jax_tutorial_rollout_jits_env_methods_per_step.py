# source: https://github.com/jimma2-del/learning-rl-jax/blob/637bcf36db3ada2587dcba813f71e5b0ca52c776/examples/tutorial/tutorial.ipynb
# expect: jit-in-loop-or-body at line 88
# runtime: COMPILES 21 CALLS 21
# why: the rollout loop calls jax.jit(env.get_obs)(...) and jax.jit(env.step)(...) on every step; each wraps a fresh bound method, so both compile again on every iteration (21 compiles for 21 calls).
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


# cell 27
#@title Main Imports
import jax
import jax.numpy as jnp

# from core.envs.gymnax import GymnaxWrapper  # scaffolding: gymnax is not installed; a stand-in wrapper is below
# import gymnax  # scaffolding


class _Space:  # scaffolding: stand-in for core.envs.base.Space (discrete actions 0..1)
    def __init__(self, low, high):  # scaffolding
        self.low, self.high = low, high  # scaffolding
    def sample(self, key):  # scaffolding
        return jax.random.randint(key, (), self.low, self.high + 1)  # scaffolding
    def __repr__(self):  # scaffolding
        return f"Space(low={self.low}, high={self.high})"  # scaffolding


class GymnaxWrapper:  # scaffolding: stand-in with the repo wrapper's API (reset/get_obs/step as bound methods), CartPole-like, 10-step episodes
    def __init__(self, gymnax_env, gymnax_params):  # scaffolding
        self.observation_space = _Space(-jnp.inf, jnp.inf)  # scaffolding
        self.action_space = _Space(0, 1)  # scaffolding
    def reset(self, key):  # scaffolding
        return {"x": jax.random.uniform(key, (4,), minval=-0.05, maxval=0.05), "t": jnp.int32(0)}, {}  # scaffolding
    def get_obs(self, key, state):  # scaffolding
        return state["x"]  # scaffolding
    def step(self, key, state, action):  # scaffolding
        x = state["x"] + 0.02 * (2 * action - 1)  # scaffolding
        t = state["t"] + 1  # scaffolding
        return {"x": x, "t": t}, jnp.float32(1.0), jnp.abs(x[2]) > 0.2, t >= 10, {}  # scaffolding


class gymnax:  # scaffolding
    make = staticmethod(lambda name: (None, None))  # scaffolding


# cell 29
#@title Make gymnax environment and wrap
gymnax_env, gymnax_env_params = gymnax.make("CartPole-v1")
env = GymnaxWrapper(gymnax_env, gymnax_env_params)
# cell 31
print("Observation Space:", env.observation_space)
print("Action Space:", env.action_space)
# cell 33
key = jax.random.key(0)

key, reset_key = jax.random.split(key, 2)
state, info = jax.jit(env.reset)(reset_key)

states = [ state ]
rewards = [ 0 ]

terminated = False
truncated = False

while not (terminated or truncated):
    key, obs_key, act_key, step_key = jax.random.split(key, 4)

    # the 'state' is different from the 'observation'
    # agents typically use the 'observation' rather than the underlying state
    # here, we don't do anything with the observation other than just printing it out
    obs = jax.jit(env.get_obs)(obs_key, state)

    # Sample a random action
    action = env.action_space.sample(act_key)

    state, reward, terminated, truncated, info = jax.jit(env.step)(step_key, state, action)
    states.append(state)
    rewards.append(reward)

    print(f"Obs: {obs}; Action: {action}; Reward: {reward};")

print(f"Total Steps: {len(rewards) - 1}; Total Return: {sum(rewards)};")
_report({"jit(reset)", "jit(get_obs)", "jit(step)"}, 1 + 2 * (len(rewards) - 1))  # scaffolding
