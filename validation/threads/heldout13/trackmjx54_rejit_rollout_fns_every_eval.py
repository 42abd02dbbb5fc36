# source: https://github.com/talmolab/track-mjx/pull/54
# expect: jit-in-loop-or-body at line 105
# runtime: COMPILES 9 CALLS 3
# why: setup_training_logging, called at every evaluation, wraps the env and jits reset, step and a policy closure over the current params anew, so each evaluation recompiles all three functions.

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


# track_mjx/agent/logging.py before PR #54 (docstring, reward plots, mujoco rendering and wandb trimmed)
def setup_training_logging(
    num_steps,
    make_policy,
    params,
    rollout_key,
    cfg,
    env,
    model_path,
):
    ref_trak_config = cfg["reference_config"]
    env_config = cfg["env_config"]
    walker_config = cfg["walker_config"]

    # Wrap the env in the brax autoreset and episode wrappers
    rollout_env = RenderRolloutWrapperTracking(env)

    # define the jit reset/step functions
    jit_reset = jax.jit(rollout_env.reset)
    jit_step = jax.jit(rollout_env.step)

    jit_inference_fn = jax.jit(make_policy(params, deterministic=True))
    rollout_key, reset_rng, act_rng = jax.random.split(rollout_key, 3)

    # do a rollout on the saved model
    state = jit_reset(reset_rng)

    rollout = [state]
    for i in range(int(ref_trak_config.clip_length * env._steps_for_cur_frame)):
        _, act_rng = jax.random.split(act_rng)
        obs = state.obs
        ctrl, extras = jit_inference_fn(obs, act_rng)
        state = jit_step(state, ctrl)
        rollout.append(state)

    pos_rewards = [state.metrics["pos_reward"] for state in rollout]
    return pos_rewards


# track_mjx/train.py: the callback the PPO trainer calls at every evaluation
def policy_params_fn(current_step, make_policy, params, policy_params_fn_key):
    return setup_training_logging(
        current_step, make_policy, params, policy_params_fn_key, cfg, env, "/tmp"
    )


# scaffolding: three evaluations during training, with updated params each time
key = jax.random.PRNGKey(0)
calls = 0
for current_step in range(3):
    params = {"w": jax.random.normal(jax.random.fold_in(key, current_step), (4, 2))}
    policy_params_fn(current_step, make_policy, params, jax.random.fold_in(key, 100 + current_step))
    calls += 1
_report({"jit(reset)", "jit(step)", "jit(policy)"}, calls)
