# source: https://github.com/talmolab/track-mjx/issues/45
# expect: jit-in-loop-or-body at line 76
# runtime: COMPILES 3 CALLS 3
# why: setup_training_logging (the policy_params_fn callback run at every evaluation) wraps the env in a fresh RenderRolloutWrapperTracking and calls jax.jit on its reset and step bound methods and on a new make_policy closure inside its body; every evaluation hands jit new function objects, so reset, step and the inference function are recompiled at every evaluation.

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
from typing import NamedTuple

import jax
from jax import numpy as jp


class State(NamedTuple):  # scaffolding: stand-in for brax.envs.base.State
    pipeline_state: jp.ndarray
    obs: jp.ndarray
    reward: jp.ndarray


class PipelineEnv:  # scaffolding: stand-in for the tracking env
    _steps_for_cur_frame = 2

    def reset(self, rng):
        q = jax.random.normal(rng, (4,))
        return State(q, q * 2.0, jp.zeros(()))

    def step(self, state, action):
        q = state.pipeline_state + 0.1 * action
        return State(q, q * 2.0, -jp.sum(q**2))


class RenderRolloutWrapperTracking:  # scaffolding: stand-in for custom_wrappers.RenderRolloutWrapperTracking
    def __init__(self, env):
        self.env = env

    def reset(self, rng):
        return self.env.reset(rng)

    def step(self, state, action):
        return self.env.step(state, action)


def make_policy(params, deterministic=False):  # scaffolding: stand-in for the PPO make_inference_fn
    def policy(obs, key_sample):
        return jp.tanh(params @ obs), {}

    return policy


def setup_training_logging(num_steps, make_policy, params, rollout_key, clip_length, env):
    # Wrap the env in the brax autoreset and episode wrappers
    rollout_env = RenderRolloutWrapperTracking(env)

    # define the jit reset/step functions
    jit_reset = jax.jit(rollout_env.reset)
    jit_step = jax.jit(rollout_env.step)

    jit_inference_fn = jax.jit(make_policy(params, deterministic=True))
    rollout_key, reset_rng, act_rng = jax.random.split(rollout_key, 3)

    state = jit_reset(reset_rng)

    rollout = [state]
    for i in range(int(clip_length * env._steps_for_cur_frame)):
        _, act_rng = jax.random.split(act_rng)
        obs = state.obs
        ctrl, extras = jit_inference_fn(obs, act_rng)
        state = jit_step(state, ctrl)
        rollout.append(state)
    return [s.reward for s in rollout]


env = PipelineEnv()  # scaffolding
params = jp.eye(4)  # scaffolding
key = jax.random.PRNGKey(0)  # scaffolding


def policy_params_fn(current_step, make_policy, params, policy_params_fn_key):
    return setup_training_logging(current_step, make_policy, params, policy_params_fn_key, 5, env)


for current_step in range(3):  # scaffolding: three evaluations during training
    key, policy_params_fn_key = jax.random.split(key)
    policy_params_fn(current_step, make_policy, params, policy_params_fn_key)
_report({"jit(reset)"}, 3)  # scaffolding
