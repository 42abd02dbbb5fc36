# source: https://github.com/talmolab/track-mjx/commit/e64db3ca9a2cd69bf21cf08642081abbcbe5703d
# expect: jit-in-loop-or-body at line 109
# runtime: COMPILES 6 CALLS 18
# why: generate_rollout wraps the environment anew and builds jax.jit(rollout_env.reset) and jax.jit(rollout_env.step) on every call, so each clip rolled out compiles reset and step again.
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


import numpy as np
import jax
from typing import Dict, List, Callable, Tuple
from types import SimpleNamespace  # scaffolding
from flax import struct  # scaffolding
from jax import numpy as jnp

DictConfig = dict  # scaffolding: omegaconf.DictConfig


@struct.dataclass
class PipelineState:  # scaffolding: mjx pipeline state stand-in
    xpos: jax.Array  # scaffolding
    qpos: jax.Array  # scaffolding


@struct.dataclass
class State:  # scaffolding: brax State stand-in
    obs: jax.Array  # scaffolding
    metrics: dict  # scaffolding
    info: dict  # scaffolding
    pipeline_state: PipelineState  # scaffolding


_REWARDS = ["pos_reward", "endeff_reward", "quat_reward", "angvel_reward", "bodypos_reward", "joint_reward"]  # scaffolding


class Env:  # scaffolding: a tiny tracking env (brax.envs.base.Env) with 4 reference clips
    _steps_for_cur_frame = 2  # scaffolding
    walker = SimpleNamespace(_torso_idx=1)  # scaffolding

    def reset(self, rng, clip_idx=None):  # scaffolding
        qpos = jax.random.normal(rng, (5,)) + clip_idx  # scaffolding
        info = {"summed_pos_distance": jnp.float32(0.0), "joint_distance": jnp.float32(0.0), "clip_idx": clip_idx}  # scaffolding
        return State(qpos[:3], {k: jnp.float32(0.0) for k in _REWARDS}, info, PipelineState(jnp.ones((3, 3)), qpos))  # scaffolding

    def step(self, state, ctrl):  # scaffolding
        qpos = state.pipeline_state.qpos + 0.1 * jnp.pad(ctrl, (0, 2))  # scaffolding
        metrics = {k: -jnp.sum(qpos ** 2) for k in _REWARDS}  # scaffolding
        return state.replace(obs=qpos[:3], metrics=metrics, pipeline_state=PipelineState(state.pipeline_state.xpos, qpos))  # scaffolding


class custom_wrappers:  # scaffolding: track_mjx.environment.custom_wrappers
    class RenderRolloutWrapperTracking:  # scaffolding
        def __init__(self, env):  # scaffolding
            self.env = env  # scaffolding

        def reset(self, rng, clip_idx=None):  # scaffolding
            return self.env.reset(rng, clip_idx=clip_idx)  # scaffolding

        def step(self, state, action):  # scaffolding
            return self.env.step(state, action)  # scaffolding

        def _get_reference_clip(self, info):  # scaffolding
            return SimpleNamespace(position=np.zeros((3, 3)), quaternion=np.zeros((3, 4)), joints=np.zeros((3, 2)))  # scaffolding


def inference_fn(obs, key):  # scaffolding: the restored deterministic policy
    ctrl = jnp.tanh(obs)  # scaffolding
    return ctrl, {"activations": {"layer_0": obs * 2.0}}  # scaffolding


def generate_rollout(environment: Env, cfg_dict: Dict | DictConfig, inference_fn: Callable, clip_idx: int | None = None) -> Dict:
    """
    Generate a rollout for a given clip id, with the loaded checkpoint

    Args:
        environment (Env): The environment to generate the rollout for
        clip_id (int): The clip id to generate the rollout for, if None, will generate a random clip

    returns:
        ctrls (List): The controls for the rollout
        extrases (List): The extra outputs from the policy for the rollout
        rewards (Dict): The rewards for the rollout
    """
    ref_trak_config = cfg_dict["reference_config"]
    # Wrap the env in the brax autoreset and episode wrappers
    rollout_env = custom_wrappers.RenderRolloutWrapperTracking(environment)
    
    jit_inference_fn = jax.jit(inference_fn)

    # define the jit reset/step functions
    jit_reset = jax.jit(rollout_env.reset)
    jit_step = jax.jit(rollout_env.step)

    rollout_key = jax.random.PRNGKey(42)
    rollout_key, reset_rng, act_rng = jax.random.split(rollout_key, 3)
    # do a rollout on the saved model
    state = jit_reset(reset_rng, clip_idx=clip_idx)

    rollout_states = [state]
    ctrls, activations, rewards = [], [], {}
    for i in range(
        int(ref_trak_config.clip_length * environment._steps_for_cur_frame) - 1
    ):  # why is this? what's the observation for the last few step?
        _, act_rng = jax.random.split(act_rng)
        obs = state.obs
        ctrl, extras = jit_inference_fn(obs, act_rng)
        state = jit_step(state, ctrl)
        rollout_states.append(state)
        ctrls.append(ctrl)
        activations.append(extras["activations"])

    # might include those reward term in the visual rendering
    pos_rewards = [state.metrics["pos_reward"] for state in rollout_states]
    endeff_rewards = [state.metrics["endeff_reward"] for state in rollout_states]
    quat_rewards = [state.metrics["quat_reward"] for state in rollout_states]
    angvel_rewards = [state.metrics["angvel_reward"] for state in rollout_states]
    bodypos_rewards = [state.metrics["bodypos_reward"] for state in rollout_states]
    joint_rewards = [state.metrics["joint_reward"] for state in rollout_states]
    summed_pos_distances = [state.info["summed_pos_distance"] for state in rollout_states]
    joint_distances = [state.info["joint_distance"] for state in rollout_states]
    torso_heights = [state.pipeline_state.xpos[environment.walker._torso_idx][2] for state in rollout_states]
    rewards = {
        "pos_rewards": pos_rewards,
        "endeff_rewards": endeff_rewards,
        "quat_rewards": quat_rewards,
        "angvel_rewards": angvel_rewards,
        "bodypos_rewards": bodypos_rewards,
        "joint_rewards": joint_rewards,
        "summed_pos_distances": summed_pos_distances,
        "joint_distances": joint_distances,
        "torso_heights": torso_heights,
    }
    # get qposes for both rollout and reference
    ref_traj = rollout_env._get_reference_clip(rollout_states[0].info)
    qposes_ref = np.repeat(
        np.hstack([ref_traj.position, ref_traj.quaternion, ref_traj.joints]),
        environment._steps_for_cur_frame,
        axis=0,
    )
    qposes_rollout = np.array([state.pipeline_state.qpos for state in rollout_states])
    # processed_states = [process_state_to_save(state) for state in rollout_states]
    observations = [state.obs for state in rollout_states]
    output = {
        "rewards": rewards,
        "observations": observations,
        # "states": processed_states,
        "ctrl": ctrls,
        "activations": activations,
        "qposes_ref": qposes_ref,
        "qposes_rollout": qposes_rollout,
        "info": [state.info for state in rollout_states],
    }

    output = jax.tree.map(lambda x: np.array(x), output)
    return output


environment = Env()  # scaffolding
cfg_dict = {"reference_config": SimpleNamespace(clip_length=3)}  # scaffolding
for clip_idx in range(3):  # scaffolding: roll out three clips, as the analysis notebooks do
    output = generate_rollout(environment, cfg_dict, inference_fn, clip_idx=clip_idx)  # scaffolding
_report({"jit(reset)", "jit(step)"}, 18)  # scaffolding: 3 resets + 15 steps
