# source: https://github.com/otr-ebla/LegNav-Sim/blob/5ae1de520e0d38bc22871af2495950ea7c18aa10/src/jax_env/jax_eval_multi.py
# expect: jit-in-loop-or-body at line 132
# runtime: COMPILES 12 CALLS 36
# why: In the default 'random' evaluation mode every finished episode calls build_fast_reset, which builds new step/reset closures via make_stacked_env and wraps them in fresh jax.jit objects, so the env step and reset recompile after every episode even when the scenario repeats.

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
# src/jax_env/jax_eval_multi.py (main: build_fast_reset and the episode loop, pygame drawing cut) and src/jax_env/jax_wrappers.py (StackedEnvState, make_stacked_env) of otr-ebla/LegNav-Sim at 5ae1de5 (current code)
import random
import jax
import jax.numpy as jnp
from flax import struct

# --- scaffolding: stand-ins for jax_env / jax_env_multi (NUM_RAYS etc. shrunk) and for the policy ---
NUM_RAYS, STATE_VEC_SIZE = 16, 5  # scaffolding: 216 rays in the project


@struct.dataclass
class EnvState:  # scaffolding
    x: jnp.ndarray
    goal_x: jnp.ndarray
    max_v: jnp.ndarray
    t: jnp.ndarray


def reset_env(key, max_goal_dist=3.0, scenario_idx=-1, ghost_prob=1.0, **kw):  # scaffolding
    st = EnvState(x=jnp.float32(0.0), goal_x=max_goal_dist * jax.random.uniform(key) + scenario_idx, max_v=jnp.float32(1.5), t=jnp.int32(0))
    return jnp.zeros(POSE_SIZE + STATE_VEC_SIZE + NUM_RAYS) + st.goal_x, st


def step_env(key, st, action):  # scaffolding: an episode lasts 5 steps
    st = st.replace(x=st.x + action[0], t=st.t + 1)
    obs = jnp.zeros(POSE_SIZE + STATE_VEC_SIZE + NUM_RAYS) + st.goal_x - st.x
    info = {"goal_reached": jnp.abs(st.goal_x - st.x) < 0.2, "collision": jnp.array(False), "passive_col": jnp.array(False)}
    return obs, st, -jnp.abs(st.goal_x - st.x), st.t >= 5, info


def infer_fn(params, obs, max_v):  # scaffolding: the loaded PPO/SAC policy
    return jnp.array([0.3, 0.0])
# --- end scaffolding ---

POSE_SIZE = 3


@struct.dataclass
class StackedEnvState:
    env_state:   EnvState
    lidar_stack: jnp.ndarray   # (stack_dim, NUM_RAYS)
    pose_stack:  jnp.ndarray   # (stack_dim, POSE_SIZE)


def make_stacked_env(base_reset_fn, base_step_fn, stack_dim: int = 3,
                     num_rays: int = NUM_RAYS):

    def reset_stacked(key, max_goal_dist: float = 3.0, ghost_prob: float = 1.0, scenario_idx: int = -1, **kwargs):
        # Passes any extra dynamic args (like scenario_idx) gracefully down to the environment
        base_obs, base_state = base_reset_fn(key, max_goal_dist=max_goal_dist, scenario_idx=scenario_idx, ghost_prob=ghost_prob, **kwargs)
        pose      = base_obs[0:POSE_SIZE]
        state_vec = base_obs[POSE_SIZE : POSE_SIZE + STATE_VEC_SIZE]
        lidar     = base_obs[POSE_SIZE + STATE_VEC_SIZE:]

        lidar_stack = jnp.tile(lidar[None, :], (stack_dim, 1))
        pose_stack  = jnp.tile(pose[None,  :], (stack_dim, 1))

        stacked_state = StackedEnvState(
            env_state=base_state,
            lidar_stack=lidar_stack,
            pose_stack=pose_stack
        )
        flat_obs = jnp.concatenate([
            pose_stack.flatten(), state_vec, lidar_stack.flatten()
        ])
        return flat_obs, stacked_state

    def step_stacked(key, state: StackedEnvState, action):
        base_obs, new_base_state, reward, done, info = base_step_fn(
            key, state.env_state, action
        )

        new_pose      = base_obs[0:POSE_SIZE]
        new_state_vec = base_obs[POSE_SIZE : POSE_SIZE + STATE_VEC_SIZE]
        new_lidar     = base_obs[POSE_SIZE + STATE_VEC_SIZE:]

        new_lidar_stack = jnp.concatenate([state.lidar_stack[1:], new_lidar[None]], axis=0)
        new_pose_stack  = jnp.concatenate([state.pose_stack[1:],  new_pose[None]],  axis=0)

        new_stacked_state = StackedEnvState(
            env_state=new_base_state,
            lidar_stack=new_lidar_stack,
            pose_stack=new_pose_stack
        )
        flat_obs = jnp.concatenate([
            new_pose_stack.flatten(), new_state_vec, new_lidar_stack.flatten()
        ])
        return flat_obs, new_stacked_state, reward, done, info

    return reset_stacked, step_stacked


def main():
    MAX_EVAL_GOAL_DIST = 9.0   # corrisponde all'ultimo stage del curriculum
    params = None  # scaffolding: checkpoint loading cut
    calls = 0  # scaffolding

    def build_fast_reset(scen_idx, max_goal_dist=MAX_EVAL_GOAL_DIST):
        # Lambda invece di functools.partial: make_stacked_env passa max_goal_dist
        # come argomento posizionale, quindi non deve essere già nel partial.
        bound_reset = lambda key, max_goal_dist=3.0, scenario_idx=-1, **kw: reset_env(key, max_goal_dist, scenario_idx=scen_idx, **kw)
        rs, ss = make_stacked_env(bound_reset, step_env, stack_dim=3)
        jit_rs = jax.jit(lambda key: rs(key, max_goal_dist, ghost_prob=0.0))
        jit_ss = jax.jit(ss)
        return jit_rs, jit_ss

    rng = jax.random.PRNGKey(42)
    evaluation_mode  = "random"
    current_scenario = random.randint(0, 6)
    fast_reset, fast_step = build_fast_reset(current_scenario)

    rng, reset_rng = jax.random.split(rng)
    obs, stacked_state = fast_reset(reset_rng)
    calls += 1  # scaffolding

    ep=0; ep_steps=0; ep_reward=0.0; ep_hist=[]

    while True:
        # ── Inference (stateless) ─────────────────────────────────────────────
        env_action = infer_fn(params, obs, stacked_state.env_state.max_v)

        rng, step_rng = jax.random.split(rng)
        obs, stacked_state, reward, done, info = fast_step(step_rng, stacked_state, env_action)
        calls += 1  # scaffolding
        ep_reward += float(reward); ep_steps += 1

        if done:
            goal = bool(info["goal_reached"]); col = bool(info["collision"])
            pcol = bool(info["passive_col"]); tmo = not goal and not col
            active_col = col and not pcol
            ep_hist.append((ep_reward, float(goal), float(active_col), float(tmo), float(pcol)))

            if evaluation_mode == "random":
                current_scenario = random.randint(0, 6)
                fast_reset, fast_step = build_fast_reset(current_scenario)

            ep+=1; ep_reward=0.0; ep_steps=0

            if ep >= 6:  # scaffolding: 6 episodes instead of 300
                _report({"jit(step_stacked)", "jit(<lambda>)"}, calls)  # scaffolding
                return

            rng, reset_rng = jax.random.split(rng)
            obs, stacked_state = fast_reset(reset_rng)
            calls += 1  # scaffolding


random.seed(0)  # scaffolding
main()  # scaffolding
