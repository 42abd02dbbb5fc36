# source: https://github.com/talmolab/track-mjx/commit/e64db3ca9a2cd69bf21cf08642081abbcbe5703d
# expect: none
# runtime: COMPILES 2 CALLS 18
# why: the commit builds the wrapper and the jitted reset/step/inference functions once in create_rollout_generator and returns a generate_rollout closure that reuses them for every clip.
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


def create_rollout_generator(
    environment: Env, inference_fn: Callable
) -> Callable[[Dict | DictConfig, int | None], Dict]:
    """
    Creates a rollout generator with JIT-compiled functions.

    Args:
        environment (Env): The environment to generate rollouts for.
        inference_fn (Callable): The inference function to compute controls.

    Returns:
        Callable: A generate_rollout function that can be called with configuration.
    """
    # Wrap the environment
    rollout_env = custom_wrappers.RenderRolloutWrapperTracking(environment)

    # JIT-compile the necessary functions
    jit_inference_fn = jax.jit(inference_fn)
    jit_reset = jax.jit(rollout_env.reset)
    jit_step = jax.jit(rollout_env.step)

    def generate_rollout(cfg_dict: Dict, clip_idx: int | None = None) -> Dict:
        """
        Generates a rollout using pre-compiled JIT functions.

        Args:
            cfg_dict (Dict): Configuration dictionary.
            clip_idx (Optional[int]): Specific clip ID to generate the rollout for.

        Returns:
            Dict: A dictionary containing rollout data.
        """
        ref_trak_config = cfg_dict["reference_config"]

        # Initialize PRNG keys
        rollout_key = jax.random.PRNGKey(42)
        rollout_key, reset_rng, act_rng = jax.random.split(rollout_key, 3)

        # Reset the environment
        state = jit_reset(reset_rng, clip_idx=clip_idx)

        rollout_states = [state]
        ctrls, activations = [], []

        num_steps = int(ref_trak_config.clip_length * environment._steps_for_cur_frame) - 1

        for _ in range(num_steps):
            rollout_key, act_rng = jax.random.split(act_rng)
            obs = state.obs
            ctrl, extras = jit_inference_fn(obs, act_rng)
            state = jit_step(state, ctrl)

            rollout_states.append(state)
            ctrls.append(ctrl)
            activations.append(extras["activations"])

        # Collect rewards and other metrics
        rewards = {
            "pos_rewards": [s.metrics["pos_reward"] for s in rollout_states],
            "endeff_rewards": [s.metrics["endeff_reward"] for s in rollout_states],
            "quat_rewards": [s.metrics["quat_reward"] for s in rollout_states],
            "angvel_rewards": [s.metrics["angvel_reward"] for s in rollout_states],
            "bodypos_rewards": [s.metrics["bodypos_reward"] for s in rollout_states],
            "joint_rewards": [s.metrics["joint_reward"] for s in rollout_states],
            "summed_pos_distances": [s.info["summed_pos_distance"] for s in rollout_states],
            "joint_distances": [s.info["joint_distance"] for s in rollout_states],
            "torso_heights": [s.pipeline_state.xpos[environment.walker._torso_idx][2] for s in rollout_states],
        }

        # Reference and rollout qposes
        ref_traj = rollout_env._get_reference_clip(rollout_states[0].info)
        qposes_ref = np.repeat(
            np.hstack([ref_traj.position, ref_traj.quaternion, ref_traj.joints]),
            environment._steps_for_cur_frame,
            axis=0,
        )
        qposes_rollout = np.array([s.pipeline_state.qpos for s in rollout_states])

        # Observations and additional info
        observations = [s.obs for s in rollout_states]
        info = [s.info for s in rollout_states]

        # Prepare the output dictionary
        output = {
            "rewards": rewards,
            "observations": observations,
            "ctrl": ctrls,
            "activations": activations,
            "qposes_ref": qposes_ref,
            "qposes_rollout": qposes_rollout,
            "info": info,
        }

        # Convert all lists to NumPy arrays
        output = jax.tree.map(lambda x: np.array(x), output)  # scaffolding: jax.tree_map was removed from jax
        return output

    return generate_rollout


environment = Env()  # scaffolding
cfg_dict = {"reference_config": SimpleNamespace(clip_length=3)}  # scaffolding
generate_rollout = create_rollout_generator(environment, inference_fn)  # scaffolding
for clip_idx in range(3):  # scaffolding: roll out three clips, as the analysis notebooks do
    output = generate_rollout(cfg_dict, clip_idx=clip_idx)  # scaffolding
_report({"jit(reset)", "jit(step)"}, 18)  # scaffolding: 3 resets + 15 steps
