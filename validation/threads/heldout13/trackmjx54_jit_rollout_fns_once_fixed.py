# source: https://github.com/talmolab/track-mjx/pull/54
# expect: none
# runtime: COMPILES 3 CALLS 3
# why: After the PR reset, step and a params-taking logging policy are jitted once before training and passed into the logging callback, so later evaluations reuse the compiled functions.

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
from types import SimpleNamespace  # scaffolding

import jax
import jax.numpy as jp


# scaffolding: a toy brax-like tracking environment, the render wrapper, the policy factory and cfg
@jax.tree_util.register_dataclass
@functools.partial(__import__("dataclasses").dataclass)
class State:
    obs: jax.Array
    metrics: dict


class Env:
    _steps_for_cur_frame = 2

    def reset(self, rng):
        obs = jax.random.normal(rng, (4,))
        return State(obs=obs, metrics={"pos_reward": jp.zeros(())})

    def step(self, state, action):
        obs = state.obs + 0.1 * jp.pad(action, (0, 2))
        return State(obs=obs, metrics={"pos_reward": -jp.sum(obs**2)})


class RenderRolloutWrapperTracking:
    def __init__(self, env):
        self.env = env
        self._steps_for_cur_frame = env._steps_for_cur_frame

    def reset(self, rng):
        return self.env.reset(rng)

    def step(self, state, action):
        return self.env.step(state, action)


def make_policy(params, deterministic=False):
    def policy(observations, key_sample):
        return jp.tanh(observations @ params["w"]), {}
    return policy


def make_logging_policy(deterministic=False):
    def logging_policy(params, observations, key_sample):
        return jp.tanh(observations @ params["w"]), {}
    return logging_policy


cfg = {"reference_config": SimpleNamespace(clip_length=3), "env_config": {}, "walker_config": {}}
env = Env()


# track_mjx/agent/logging.py after PR #54 (docstring, reward plots, mujoco rendering and wandb trimmed)
def rollout_logging_fn(
    env,
    jit_reset,
    jit_step,
    cfg,
    model_path: str,
    current_step: int,  # all args above this one are passed in by functools.partial
    jit_logging_inference_fn,
    params,
    policy_params_fn_key,
):
    ref_trak_config = cfg["reference_config"]
    env_config = cfg["env_config"]

    _, reset_rng, act_rng = jax.random.split(policy_params_fn_key, 3)

    state = jit_reset(reset_rng)

    rollout = [state]
    for i in range(int(ref_trak_config.clip_length * env._steps_for_cur_frame)):
        _, act_rng = jax.random.split(act_rng)
        obs = state.obs
        ctrl, extras = jit_logging_inference_fn(params, obs, act_rng)
        state = jit_step(state, ctrl)
        rollout.append(state)

    pos_rewards = [state.metrics["pos_reward"] for state in rollout]
    return pos_rewards


# track_mjx/train.py after the PR: everything is built and jitted once before training
rollout_env = RenderRolloutWrapperTracking(env)
jit_reset = jax.jit(rollout_env.reset)
jit_step = jax.jit(rollout_env.step)
jit_logging_inference_fn = jax.jit(make_logging_policy(deterministic=True))
policy_params_fn = functools.partial(
    rollout_logging_fn, rollout_env, jit_reset, jit_step, cfg, "/tmp"
)


# scaffolding: three evaluations during training, with updated params each time
key = jax.random.PRNGKey(0)
calls = 0
for current_step in range(3):
    params = {"w": jax.random.normal(jax.random.fold_in(key, current_step), (4, 2))}
    policy_params_fn(current_step, jit_logging_inference_fn, params, jax.random.fold_in(key, 100 + current_step))
    calls += 1
_report({"jit(reset)", "jit(step)", "jit(logging_policy)"}, calls)
