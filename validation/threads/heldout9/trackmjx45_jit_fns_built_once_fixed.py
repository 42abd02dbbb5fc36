# source: https://github.com/talmolab/track-mjx/issues/45
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the fix (PR #54) builds the wrapper, jit_reset, jit_step and a params-taking jitted inference function once at the start of training and binds them into the callback with functools.partial; every evaluation reuses the same jitted functions, so reset compiles once.

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
import functools
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


def make_logging_inference_fn():  # scaffolding: stand-in for the params-taking PPO inference fn
    def logging_inference_fn(params, obs, key_sample):
        return jp.tanh(params @ obs), {}

    return logging_inference_fn


def rollout_logging_fn(
    env,
    jit_reset,
    jit_step,
    clip_length,
    current_step,  # all args above this one are passed in by functools.partial
    jit_logging_inference_fn,
    params,
    policy_params_fn_key,
):
    _, reset_rng, act_rng = jax.random.split(policy_params_fn_key, 3)
    state = jit_reset(reset_rng)

    rollout = [state]
    for i in range(int(clip_length * env._steps_for_cur_frame)):
        _, act_rng = jax.random.split(act_rng)
        obs = state.obs
        ctrl, extras = jit_logging_inference_fn(params, obs, act_rng)
        state = jit_step(state, ctrl)
        rollout.append(state)
    return [s.reward for s in rollout]


env = PipelineEnv()  # scaffolding
params = jp.eye(4)  # scaffolding
key = jax.random.PRNGKey(0)  # scaffolding

rollout_env = RenderRolloutWrapperTracking(env)
jit_reset = jax.jit(rollout_env.reset)
jit_step = jax.jit(rollout_env.step)
jit_logging_inference_fn = jax.jit(make_logging_inference_fn())
policy_params_fn = functools.partial(rollout_logging_fn, env, jit_reset, jit_step, 5)

for current_step in range(3):  # scaffolding: three evaluations during training
    key, policy_params_fn_key = jax.random.split(key)
    policy_params_fn(current_step, jit_logging_inference_fn, params, policy_params_fn_key)
_report({"jit(reset)"}, 3)  # scaffolding
