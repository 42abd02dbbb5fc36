# source: https://github.com/lasgroup/safe-learning/commit/1f7b162b6d09625bca2da34298f16527a42dc57d
# expect: jit-in-loop-or-body at line 110
# runtime: COMPILES 4 CALLS 4
# why: sample_trajectory wraps the freshly parsed policy closure in jax.jit for every trial, so each hardware trial pays a new trace and compile of the policy.

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
import time
from collections import namedtuple
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from flax import struct

Transition = namedtuple(  # scaffolding: brax.training.types.Transition (brax is not installed here)
    "Transition", ["observation", "action", "reward", "discount", "next_observation", "extras"]
)


@struct.dataclass
class State:  # scaffolding: brax envs.State
    obs: Any
    reward: Any
    done: Any
    info: dict


class _StandInCar:  # scaffolding: stands in for the real RC car (rccar.RCCar talking to hardware)
    def reset(self, rng):
        return State(obs=jnp.zeros(6), reward=jnp.array(0.0), done=False, info={"cost": 0.0})

    def step(self, state, action):
        obs = state.obs + 0.01 * jnp.concatenate([action, action, action])
        return State(obs=obs, reward=-jnp.sum(obs**2), done=False, info={"cost": 0.0})


def make_policy(params, deterministic=False):  # scaffolding: brax-style make_policy closing over params
    def policy(obs, key):
        h = jnp.tanh(obs @ params["w1"])
        return jnp.tanh(h @ params["w2"]), {}

    return policy


# rccar_experiments/utils.py
def collect_trajectory(env, policy, rng: jax.Array, episode_length: int):
    state = env.reset(rng)
    transitions: list[Transition] = []
    while not state.done and len(transitions) < episode_length:
        rng, key = jax.random.split(rng)
        start = time.time()
        action, policy_extras = policy(state.obs, key)
        obs = state.obs
        state = env.step(state, action)
        next_obs = state.obs
        transition = Transition(
            obs,
            action,
            state.reward,
            1 - state.done,
            next_obs,
            {
                "policy_extras": policy_extras,
                "state_extras": {
                    "cost": state.info["cost"],
                    "truncation": state.info.get("truncation", False),
                },
            },
        )
        end = time.time()
        transition.extras["state_extras"]["time"] = end - start
        transitions.append(transition)
    return None, transitions  # (episode metrics trimmed)


# rccar_experiments/experiment_driver.py
class ExperimentDriver:
    def __init__(self, cfg, hardware_handle, rollout_policy_fn, env):  # (session and transitions server trimmed)
        self.key = jax.random.PRNGKey(cfg["seed"])
        self.episode_length = cfg["episode_length"]
        self.hardware_handle = hardware_handle
        self.env = env
        self.rollout_policy_fn = rollout_policy_fn

    def sample_trajectory(self, policy):
        self.key, key = jax.random.split(self.key)
        policy = jax.jit(policy)
        # (with hardware.start(self.hardware_handle): dropped, no car here)
        _, trajectory = collect_trajectory(
            self.env, policy, key, self.episode_length
        )
        return trajectory  # (summarize_trial trimmed)


# rccar_experiments/transitions_server.py: every trial parses freshly sent params into a policy
driver = ExperimentDriver({"seed": 0, "episode_length": 5}, None, make_policy, _StandInCar())
param_rng = np.random.default_rng(0)  # scaffolding: stand-in for pickle.loads(policy_bytes)
n_trials = 4
for trial in range(n_trials):
    policy_params = {"w1": jnp.asarray(param_rng.normal(size=(6, 8)), jnp.float32),
                     "w2": jnp.asarray(param_rng.normal(size=(8, 2)), jnp.float32)}
    policy_fn = driver.rollout_policy_fn(policy_params, True)  # parse_policy
    trajectory = driver.sample_trajectory(policy_fn)
_report({"jit(policy)"}, n_trials)
