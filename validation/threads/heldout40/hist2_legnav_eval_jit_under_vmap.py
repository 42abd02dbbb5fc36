# source: https://github.com/otr-ebla/LegNav-Sim/commit/b0edd2caa587b80ba6da9cda4dc45e479e318115
# expect: none
# runtime: COMPILES 2 CALLS 4
# why: The jitted evaluate_chunk is called under two vmaps inside the jitted evaluate_chunk_grid with a batched scenario index; the commit's note that this freezes scen_idx at 0 is wrong: the inner jit is traced once with a batched tracer, every scenario gives its own result, and each static net_type compiles once.

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
# src/jax_env/benchmark_eval.py of otr-ebla/LegNav-Sim at b0edd2c^ (config, env wrappers, evaluate_chunk, evaluate_chunk_grid and the compile/evaluate part of main; module docstring, plotting and tables cut)
import os
import time
import functools
import jax
import jax.numpy as jnp

# --- scaffolding: stand-ins for jax_env / jax_env_multi / jax_wrappers / jax_network / SACnetwork ---
import flax.linen as nn  # scaffolding
from flax import struct  # scaffolding
ROOM_W, ROOM_H, ROBOT_RADIUS, PEOPLE_RADIUS, DT, MAX_STEPS = 12.0, 12.0, 0.2, 0.2, 0.15, 20  # scaffolding: MAX_STEPS cut


@struct.dataclass
class EnvState:  # scaffolding
    x: jnp.ndarray
    y: jnp.ndarray
    goal_x: jnp.ndarray
    goal_y: jnp.ndarray
    v: jnp.ndarray
    w: jnp.ndarray
    max_v: jnp.ndarray


@struct.dataclass
class StackedEnvState:  # scaffolding
    env_state: EnvState
    lidar_stack: jnp.ndarray
    pose_stack: jnp.ndarray


def _obs(st):  # scaffolding: pose(3) + state_vec(9) + lidar(108)
    d = jnp.sqrt((st.goal_x - st.x) ** 2 + (st.goal_y - st.y) ** 2)
    return jnp.concatenate([jnp.stack([st.x, st.y, 0.0]), jnp.zeros(9).at[3].set(d / 10.0), jnp.full(108, d)])


def reset_env(key, min_dist, scen_idx):  # scaffolding: the goal distance grows with the scenario index
    gx = min_dist + 1.0 * scen_idx + jax.random.uniform(key)
    st = EnvState(x=0.0, y=0.0, goal_x=gx, goal_y=0.0, v=0.0, w=0.0, max_v=1.0)
    return _obs(st), st


def step_env(key, st, action):  # scaffolding: drive towards +x at speed v
    x = st.x + action[0] * DT * 4.0
    st = st.replace(x=x, v=action[0], w=action[1])
    goal = jnp.abs(st.goal_x - x) < 0.5
    info = {"closest_human": jnp.array(5.0), "goal_reached": goal, "collision": jnp.array(False), "passive_col": jnp.array(False)}
    return _obs(st), st, 0.0, goal, info


class EndToEndActorCritic(nn.Module):  # scaffolding
    action_dim: int = 2
    @nn.compact
    def __call__(self, x):
        m = nn.Dense(self.action_dim, kernel_init=nn.initializers.zeros, bias_init=nn.initializers.constant(5.0))(x)
        return m, m, m[..., 0]


class SACActorNetwork(nn.Module):  # scaffolding
    action_dim: int = 2
    @nn.compact
    def __call__(self, x):
        m = nn.Dense(self.action_dim, kernel_init=nn.initializers.zeros, bias_init=nn.initializers.constant(5.0))(x)
        return m, m


def _params_to_gpu(params):  # scaffolding: device_put in the original
    return jax.device_put(params)
# --- end scaffolding ---

# ── Config ────────────────────────────────────────────────────────────────────
OBS_SIZE    = 342
ACTION_DIM  = 2

# OPT 1: 4096 parallel envs saturates GPU SMs; tune to 2048 if OOM
N_ENVS      = 16  # scaffolding: 16 instead of 4096

MAX_V_TESTS = jnp.array([1.0, 1.5, 2.0])   # kept as jnp for vmap
SCENARIOS   = jnp.arange(7, dtype=jnp.int32)

N_SCENARIOS = 7
N_SPEEDS    = 3

# ── Network singletons ────────────────────────────────────────────────────────
_ppo_net = EndToEndActorCritic(action_dim=ACTION_DIM)
_sac_net = SACActorNetwork(action_dim=ACTION_DIM)


# ── Action squashing ──────────────────────────────────────────────────────────
def _squash_ppo(mean, max_v):
    v = jax.nn.sigmoid(mean[..., 0]) * max_v
    w = jnp.tanh(mean[..., 1])
    return jnp.stack([v, w], axis=-1)

def _squash_sac(mean, max_v):
    t = jnp.tanh(mean)
    v = (t[..., 0] + 1.0) * 0.5 * max_v
    w = t[..., 1]
    return jnp.stack([v, w], axis=-1)


# ── Environment wrappers ──────────────────────────────────────────────────────
@jax.jit
def dynamic_reset_stacked(key, min_dist, scen_idx, target_max_v):
    """
    Reset one env, override max_v, build stacked obs (342,).
    get_obs single-frame layout: pose(3) + state_vec(9) + lidar(108) = 120.
    """
    base_obs, base_state = reset_env(key, min_dist, scen_idx)

    pose      = base_obs[0:3]   # (3,)
    state_vec = base_obs[3:12]  # (9,)
    lidar     = base_obs[12:]   # (108,)

    base_state = base_state.replace(max_v=target_max_v)

    new_state_vec = jnp.array([
        0.0,
        0.0,
        (target_max_v - 0.2) / 1.8,
        state_vec[3],   # goal_dist_norm
        state_vec[4],   # goal_align_norm
        state_vec[5], state_vec[6], state_vec[7], state_vec[8],  # rear_prox x4
    ])

    lidar_stack = jnp.tile(lidar[None, :], (3, 1))  # (3, 108)
    pose_stack  = jnp.tile(pose[None,  :], (3, 1))  # (3, 3)

    stacked_state = StackedEnvState(
        env_state=base_state,
        lidar_stack=lidar_stack,
        pose_stack=pose_stack,
    )
    flat_obs = jnp.concatenate([
        pose_stack.flatten(), new_state_vec, lidar_stack.flatten()
    ])
    return flat_obs, stacked_state


@jax.jit
def step_stacked_headless(key, state: StackedEnvState, action):
    """Single headless step; slices single-frame obs (120,) correctly."""
    base_obs, new_base_state, reward, done, info = step_env(key, state.env_state, action)

    new_pose      = base_obs[0:3]
    new_state_vec = base_obs[3:12]
    new_lidar     = base_obs[12:]

    new_lidar_stack = jnp.concatenate([state.lidar_stack[1:], new_lidar[None]], axis=0)
    new_pose_stack  = jnp.concatenate([state.pose_stack[1:],  new_pose[None]],  axis=0)

    new_stacked_state = StackedEnvState(
        env_state=new_base_state,
        lidar_stack=new_lidar_stack,
        pose_stack=new_pose_stack,
    )
    flat_obs = jnp.concatenate([
        new_pose_stack.flatten(), new_state_vec, new_lidar_stack.flatten()
    ])
    return flat_obs, new_stacked_state, reward, done, info


# ── Core evaluation kernel ────────────────────────────────────────────────────
@functools.partial(jax.jit, static_argnums=(1,))
def evaluate_chunk(params, net_type: str, scen_idx, target_max_v, rng_key):
    """
    Runs N_ENVS full episodes for a single (policy, scenario, max_v).
    This is vmapped over (scenario, max_v) in evaluate_chunk_grid below.
    """
    reset_keys = jax.random.split(rng_key, N_ENVS)

    obs, state = jax.vmap(dynamic_reset_stacked, in_axes=(0, None, None, None))(
        reset_keys, 3.0, scen_idx, target_max_v
    )

    init_dist = jnp.sqrt(
        (state.env_state.goal_x - state.env_state.x)**2 +
        (state.env_state.goal_y - state.env_state.y)**2
    )

    carry = (
        state, obs,
        jnp.zeros(N_ENVS),           # v_prev
        jnp.zeros(N_ENVS),           # av_prev
        jnp.zeros(N_ENVS),           # w_prev
        jnp.zeros(N_ENVS),           # aw_prev
        jnp.zeros(N_ENVS),           # path_len
        jnp.full(N_ENVS, 100.0),     # min_human_dist
        jnp.ones(N_ENVS, dtype=jnp.bool_),  # active
    )

    def _step(carry, step_idx):
        state, obs, v_p, av_p, w_p, aw_p, pl, mhd, active = carry

        # OPT 7: fold_in avoids a full split allocation — just XORs counter
        k_step = jax.random.fold_in(rng_key, step_idx)

        if net_type == "PPO":
            mean, _, _ = _ppo_net.apply({"params": params}, obs)
            action = jax.vmap(_squash_ppo)(mean, state.env_state.max_v)
        else:
            mean, _ = _sac_net.apply({"params": params}, obs)
            action = jax.vmap(_squash_sac)(mean, state.env_state.max_v)

        step_keys = jax.random.split(k_step, N_ENVS)
        next_obs, next_state, _, done, info = jax.vmap(step_stacked_headless)(
            step_keys, state, action
        )

        v  = next_state.env_state.v
        w  = next_state.env_state.w
        av = (v - v_p) / DT
        aw = (w - w_p) / DT
        jerk_v = jnp.where(active, jnp.abs((av - av_p) / DT), 0.0)
        jerk_w = jnp.where(active, jnp.abs((aw - aw_p) / DT), 0.0)

        pl  = pl  + jnp.where(active, v * DT, 0.0)
        ch  = info["closest_human"] - ROBOT_RADIUS - PEOPLE_RADIUS
        mhd = jnp.where(active, jnp.minimum(mhd, ch), mhd)

        g  = info["goal_reached"]
        c  = info["collision"]
        pc = info["passive_col"]

        step_data   = (active, done, g, c, pc, jerk_v, jerk_w)
        next_active = active & ~done
        return (next_state, next_obs, v, av, w, aw, pl, mhd, next_active), step_data

    # Scan over step indices so fold_in can use them (OPT 7)
    final_carry, step_data = jax.lax.scan(
        _step, carry, jnp.arange(MAX_STEPS, dtype=jnp.uint32)
    )
    _, _, _, _, _, _, final_pl, final_mhd, _ = final_carry
    active_mask, dones, goals, cols, pcols, jerks_v, jerks_w = step_data

    ep_lens = active_mask.sum(axis=0)
    ep_goal = goals.any(axis=0)
    ep_col  = cols.any(axis=0)
    ep_pcol = pcols.any(axis=0)

    act_col  = ep_col  & ~ep_pcol & ~ep_goal
    pass_col = ep_pcol & ~ep_goal
    tmo      = ~ep_goal & ~ep_col & ~ep_pcol

    avg_jerk = (jerks_v.sum(axis=0) + jerks_w.sum(axis=0)) / jnp.maximum(ep_lens, 1)
    spl      = ep_goal * (init_dist / jnp.maximum(final_pl, init_dist))
    time_g   = jnp.where(ep_goal, ep_lens * DT, jnp.nan)

    return {
        "success":  ep_goal.astype(jnp.float32),
        "act_col":  act_col.astype(jnp.float32),
        "pass_col": pass_col.astype(jnp.float32),
        "timeout":  tmo.astype(jnp.float32),
        "spl":      spl,
        "jerk":     avg_jerk,
        "min_dist": final_mhd,
        "time":     time_g,
    }


@functools.partial(jax.jit, static_argnums=(1,))
def evaluate_chunk_grid(params, net_type: str, rng_key):
    """
    OPT 2: Evaluate ALL 7 scenarios × 3 speeds in a single JIT call.

    Instead of 21 sequential Python for-loop iterations (each paying
    kernel-launch + Python overhead), we build a (N_SCENARIOS, N_SPEEDS)
    grid of random keys and vmap evaluate_chunk over both axes.
    This keeps everything on-device; the GPU sees one big batched kernel
    rather than 21 small sequential ones.

    Output shapes: each metric is (N_SCENARIOS, N_SPEEDS, N_ENVS).
    """
    # Build a (N_SCENARIOS, N_SPEEDS) grid of independent RNG keys
    keys_flat  = jax.random.split(rng_key, N_SCENARIOS * N_SPEEDS)
    keys_grid  = keys_flat.reshape(N_SCENARIOS, N_SPEEDS, 2)

    # vmap over scenarios (axis 0) and speeds (axis 1)
    def _eval_one(scen_idx, speed_keys):
        """Evaluate one scenario across all speeds."""
        def _eval_speed(max_v, key):
            return evaluate_chunk(params, net_type, scen_idx, max_v, key)
        return jax.vmap(_eval_speed)(MAX_V_TESTS, speed_keys)

    return jax.vmap(_eval_one)(SCENARIOS, keys_grid)
    # Returns dict of (N_SCENARIOS, N_SPEEDS, N_ENVS) arrays


# --- main(), compile and evaluation part (scaffolding: prints of timing and the result table cut) ---
rng = jax.random.PRNGKey(42)
dummy_obs = jnp.zeros((1, OBS_SIZE))
ppo_dummy = _params_to_gpu(_ppo_net.init(rng, dummy_obs)["params"])
sac_dummy = _params_to_gpu(_sac_net.init(rng, dummy_obs)["params"])

calls = 0  # scaffolding
rng, k1, k2 = jax.random.split(rng, 3)
# OPT 5: block_until_ready ensures true end-to-end compilation before timing
jax.block_until_ready(evaluate_chunk_grid(ppo_dummy, "PPO", k1))
jax.block_until_ready(evaluate_chunk_grid(sac_dummy, "SAC", k2))
calls += 2  # scaffolding

policies = {"PPO": ("PPO", ppo_dummy), "SAC": ("SAC", sac_dummy)}  # scaffolding: checkpoints replaced by the dummy params
for p_name, (net_type, params) in policies.items():
    rng, sub_rng = jax.random.split(rng)
    grid = evaluate_chunk_grid(params, net_type, sub_rng)
    grid = jax.device_get(jax.block_until_ready(grid))
    calls += 1  # scaffolding
    print(p_name, "success by scenario:", grid["success"].mean(axis=(1, 2)).round(2).tolist())  # scaffolding: scenarios differ, so scen_idx is not frozen
_report({"jit(evaluate_chunk_grid)", "jit(evaluate_chunk)"}, calls)  # scaffolding
