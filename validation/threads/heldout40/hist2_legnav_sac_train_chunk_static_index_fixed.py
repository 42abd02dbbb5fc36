# source: https://github.com/otr-ebla/LegNav-Sim/commit/73b4306850747f2aaf5466987e7774acd3ec9531
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: The fix makes index 13 (vmap_step, the same function object on every call) static; the two training chunks share one compile of train_chunk.

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
# src/jax_env/SACjax.py of otr-ebla/LegNav-Sim at 73b4306 (module docstring, GPU check, networks, SAC loss, checkpointing and logging cut)
import functools
import jax
import jax.numpy as jnp
import optax
import flax.linen as nn

# ── Constants ─────────────────────────────────────────────────────────────────
OBS_SIZE       = 342        # 9 (pose) + 9 (state_vec) + 324 (lidar)
ACTION_DIM     = 2
N_ENVS         = 8  # scaffolding: 8 instead of 256        # FIX 1: reduced from 2048; large N_ENVS drowns the buffer
                             #        faster than G updates can replay — overwrite before reuse.
BUFFER_CAP     = 4096  # scaffolding: instead of 2_000_000 # 2M — with N_ENVS=256: ~7800 steps to fill → plenty of mixing
BATCH_SIZE     = 16  # scaffolding: 16 instead of 512        # FIX 1: kept proportional to N_ENVS; smaller is fine for SAC
G_UPDATES      = 2  # scaffolding: 2 instead of 20         # FIX 1: gradient updates per collect step (replay ratio = G/1 ≫ 1)
                             #        SAC's sample efficiency comes from here — not from more envs.
WARMUP_STEPS   = 32  # scaffolding: 32 instead of 10_000
GAMMA          = 0.99
TAU            = 0.005
LR             = 3e-4
TARGET_ENTROPY = -2.0       # FIX 2: correct value is -|A| = -dim(action_space) = -2.0
                             #        -1.0 was LESS exploratory (demanded less entropy),
                             #        causing premature alpha decay and policy collapse.
TOTAL_UPDATES  = 200_000
LOG_EVERY      = 3  # scaffolding: 3 instead of 50         # chunks; each chunk = N_ENVS*LOG_EVERY env steps collected
SAVE_EVERY     = 5000
MAX_GRAD_NORM  = 10.0

# pose_stack indices 0-8; state_vec[2] = max_v/2 at flat index 9+2 = 11
MAX_V_OBS_IDX  = 11
LOG_STD_EPS    = 1e-6

# ── Perception normalization ───────────────────────────────────────────────────
# LiDAR rays are in meters. Normalize to [0,1] before the first Conv to prevent
# the CNN from wasting early training steps rescaling weights for meter-scale inputs.
# VERIFY this matches the MAX_RANGE constant in jax_env.py before running.
LIDAR_MAX_RANGE = 10.0   # metres — set to your env's actual max sensor range

# ── Actor-encoder gradient coupling ───────────────────────────────────────────
# Scale factor applied to actor gradients flowing back into LidarCNN.
# 0.0 = full stop_gradient (old behaviour, critic-only encoder)
# 0.1 = soft coupling — actor can shape perception without destabilising critic
# 1.0 = full coupling (aggressive, not recommended without careful LR tuning)
ACTOR_ENC_GRAD_SCALE = 0.1

CKPT_DIR  = "checkpoints_sac"
CKPT_PATH = f"{CKPT_DIR}/sac_best.msgpack"


# --- scaffolding: stand-ins for the environment (jax_env_multi / jax_wrappers) and the networks ---
def init_env_state(rng_key, max_goal_dist: float = 3.0, scenario_idx: int = -1):  # scaffolding: same shape as the original
    def step_auto(key, state, action, max_goal_dist, scenario_idx):  # scaffolding: toy autoreset step
        state = state + 0.1 * jnp.concatenate([action, jnp.zeros(OBS_SIZE - ACTION_DIM)])
        obs = state.at[MAX_V_OBS_IDX].set(0.75)
        reward = -jnp.sum(state[:2] ** 2)
        done = jax.random.uniform(key) < 0.05
        info = {"timeout": jnp.array(False), "goal_reached": done, "collision": jnp.array(False), "passive_col": jnp.array(False)}
        return obs, jnp.where(done, 0.0, state), reward, done, info
    vmap_step = jax.vmap(step_auto, in_axes=(0, 0, 0, None, None))
    env_state = jnp.zeros((N_ENVS, OBS_SIZE))
    return env_state.at[:, MAX_V_OBS_IDX].set(0.75), env_state, vmap_step


class LidarCNN(nn.Module):  # scaffolding: Dense instead of the Conv stack
    @nn.compact
    def __call__(self, obs):
        return nn.relu(nn.Dense(16)(obs[..., 18:])), obs[..., :9], obs[..., 9:18]


class ActorHead(nn.Module):  # scaffolding
    action_dim: int = ACTION_DIM

    @nn.compact
    def __call__(self, cnn_feat, pose_stack, state_vec):
        feat = nn.relu(nn.Dense(16)(jnp.concatenate([cnn_feat, pose_stack, state_vec], axis=-1)))
        return nn.Dense(self.action_dim, name="mean")(feat), nn.Dense(self.action_dim, name="log_std")(feat)


lidar_cnn    = LidarCNN()  # scaffolding
actor_head   = ActorHead()  # scaffolding
# --- end scaffolding ---

# ── Optimisers ────────────────────────────────────────────────────────────────
# Param groups:
#   lcp / lcos   — shared LidarCNN params + opt state (updated via critic loss only)
#   ahp / ahos   — actor head params + opt state
#   q1p / q1os   — Q1 CriticBranch params + opt state
#   q2p / q2os   — Q2 CriticBranch params + opt state  (separate → decorrelated)
lidar_cnn_opt   = optax.chain(optax.clip_by_global_norm(MAX_GRAD_NORM), optax.adam(LR, eps=1e-5))
head_actor_opt  = optax.chain(optax.clip_by_global_norm(MAX_GRAD_NORM), optax.adam(LR, eps=1e-5))
head_q1_opt     = optax.chain(optax.clip_by_global_norm(MAX_GRAD_NORM), optax.adam(LR, eps=1e-5))
head_q2_opt     = optax.chain(optax.clip_by_global_norm(MAX_GRAD_NORM), optax.adam(LR, eps=1e-5))
alpha_opt       = optax.chain(optax.clip_by_global_norm(MAX_GRAD_NORM), optax.adam(LR, eps=1e-5))


# ── Action squashing + exact log-prob ─────────────────────────────────────────

def _tanh_log_prob_correction(tanh_u, max_v):
    corr_v = (
        jnp.log(max_v * 0.5 + LOG_STD_EPS)
        + jnp.log(1.0 - tanh_u[..., 0] ** 2 + LOG_STD_EPS)
    )
    corr_w = jnp.log(1.0 - tanh_u[..., 1] ** 2 + LOG_STD_EPS)
    return -(corr_v + corr_w)


def sample_action_sac_batched(rng_key, mean, log_std, max_v):
    """Fully batched reparameterised sample.
    mean, log_std : (N, 2)   max_v : (N,)
    Returns: env_action (N, 2), log_pi (N,)
    """
    std   = jnp.exp(log_std)
    noise = jax.random.normal(rng_key, shape=mean.shape)
    u     = mean + noise * std
    lp_gauss = jnp.sum(-0.5 * (noise**2 + jnp.log(2.0 * jnp.pi)) - log_std, axis=-1)
    tanh_u = jnp.tanh(u)
    a_v = (tanh_u[:, 0] + 1.0) * 0.5 * max_v
    a_w = tanh_u[:, 1]
    return jnp.stack([a_v, a_w], axis=-1), lp_gauss + _tanh_log_prob_correction(tanh_u, max_v)


def extract_max_v(obs):
    """Decode max_v from observation vector. Call ONCE per step."""
    return obs[..., MAX_V_OBS_IDX] * 2.0


# ── Replay buffer (on-GPU circular) ───────────────────────────────────────────
# VRAM budget: obs/next_obs stored as float16 to halve memory.
#   2M * 342 * 2B * 2 arrays = 2.74 GB (vs 5.47 GB with float32).
# buf_sample casts back to float32 before returning — encoder sees full precision.
# Field 'terminal' = done & ~timeout — only true environmental endings stored.
def make_buffer(capacity):
    return {
        "obs":      jnp.zeros((capacity, OBS_SIZE),   jnp.float16),
        "action":   jnp.zeros((capacity, ACTION_DIM), jnp.float32),
        "reward":   jnp.zeros((capacity,),             jnp.float32),
        "next_obs": jnp.zeros((capacity, OBS_SIZE),   jnp.float16),
        "terminal": jnp.zeros((capacity,),             jnp.float32),
        "max_v":    jnp.zeros((capacity,),             jnp.float32),
        "ptr":      jnp.int32(0),
        "size":     jnp.int32(0),
    }


@jax.jit
def buf_add(buf, obs, action, reward, next_obs, terminal, max_v):
    cap  = buf["obs"].shape[0]
    N    = obs.shape[0]
    idxs = (buf["ptr"] + jnp.arange(N)) % cap
    return {
        "obs":      buf["obs"].at[idxs].set(obs.astype(jnp.float16)),
        "action":   buf["action"].at[idxs].set(action),
        "reward":   buf["reward"].at[idxs].set(reward),
        "next_obs": buf["next_obs"].at[idxs].set(next_obs.astype(jnp.float16)),
        "terminal": buf["terminal"].at[idxs].set(terminal),
        "max_v":    buf["max_v"].at[idxs].set(max_v),
        "ptr":      jnp.int32((buf["ptr"] + N) % cap),
        "size":     jnp.minimum(jnp.int32(buf["size"] + N), jnp.int32(cap)),
    }


@jax.jit(static_argnames=["batch_size"])
def buf_sample(buf, rng_key, batch_size: int):
    idxs = jax.random.randint(rng_key, (batch_size,), 0, buf["size"])
    return (buf["obs"][idxs].astype(jnp.float32),
            buf["action"][idxs],
            buf["reward"][idxs],
            buf["next_obs"][idxs].astype(jnp.float32),
            buf["terminal"][idxs],
            buf["max_v"][idxs])


# --- scaffolding: sac_update (critic/actor/alpha losses) cut; same signature, returns its inputs ---
@jax.jit
def sac_update(lcp, lcos, tlcp, ahp, ahos, q1p, q1os, q2p, q2os,
               tq1p, tq2p, la, alo,
               obs, action, reward, next_obs, terminal, max_v_obs, max_v_next, rng_key):  # scaffolding
    metrics = {"critic_loss": jnp.mean(reward), "actor_loss": jnp.mean(obs), "alpha": jnp.exp(la)}  # scaffolding
    return (lcp, lcos, tlcp, ahp, ahos, q1p, q1os, q2p, q2os, tq1p, tq2p, la, alo, metrics)  # scaffolding
# --- end scaffolding ---


@functools.partial(jax.jit, static_argnums=(5,))
def collect_step(lcp, ahp, env_state, env_obs, rng_key, vmap_step, max_goal_dist, scenario_idx):
    """Compute max_v ONCE, sample action via shared CNN + actor head, step env."""
    max_v = extract_max_v(env_obs)
    k_act, k_step = jax.random.split(rng_key)
    cnn_feat, pose_stack, state_vec = lidar_cnn.apply({"params": lcp}, env_obs)
    mean, log_std = actor_head.apply({"params": ahp}, cnn_feat, pose_stack, state_vec)
    env_action, _ = sample_action_sac_batched(k_act, mean, log_std, max_v)
    step_keys = jax.random.split(k_step, N_ENVS)
    new_obs, new_state, reward, done, info = vmap_step(
        step_keys, env_state, env_action, max_goal_dist, scenario_idx
    )
    return new_obs, new_state, env_obs, env_action, reward, done, info, max_v


# ── Fused GPU train chunk ─────────────────────────────────────────────────────
@functools.partial(jax.jit, static_argnums=(13,))
def train_chunk(lcp, lcos, tlcp, ahp, ahos,
                q1p, q1os, q2p, q2os, tq1p, tq2p,
                la, alo, vmap_step,
                buf, es, eo, key,
                max_goal_dist, scenario_idx):

    def _loop_body(carry, _):
        (lcp, lcos, tlcp, ahp, ahos,
         q1p, q1os, q2p, q2os, tq1p, tq2p,
         la, alo, buf, es, eo, key) = carry
        key, k_col, k_upd_base = jax.random.split(key, 3)

        # ── Collect ONE step across all envs ──────────────────────────────────
        new_eo, new_es, obs_b, env_a, rew, done, info, max_v_cur = collect_step(
            lcp, ahp, es, eo, k_col, vmap_step, max_goal_dist, scenario_idx
        )

        # Store terminal (not done) — timeouts are NOT absorbing states
        terminal = done & ~info["timeout"]
        new_buf = buf_add(buf, obs_b, env_a, rew, new_eo,
                          terminal.astype(jnp.float32), max_v_cur)

        # ── G gradient updates per collect step (replay ratio = G) ────────────
        def _update_step(update_carry, upd_idx):
            (lcp_, lcos_, tlcp_, ahp_, ahos_,
             q1p_, q1os_, q2p_, q2os_, tq1p_, tq2p_, la_, alo_) = update_carry
            k_samp = jax.random.fold_in(k_upd_base, upd_idx * 2)
            k_upd  = jax.random.fold_in(k_upd_base, upd_idx * 2 + 1)
            b_obs, b_act, b_rew, b_next, b_terminal, b_max_v = buf_sample(
                new_buf, k_samp, BATCH_SIZE
            )
            b_max_v_next = extract_max_v(b_next)
            (new_lcp_, new_lcos_, new_tlcp_, new_ahp_, new_ahos_,
             new_q1p_, new_q1os_, new_q2p_, new_q2os_,
             new_tq1p_, new_tq2p_, new_la_, new_alo_, metrics_) = sac_update(
                lcp_, lcos_, tlcp_, ahp_, ahos_,
                q1p_, q1os_, q2p_, q2os_, tq1p_, tq2p_, la_, alo_,
                b_obs, b_act, b_rew, b_next, b_terminal, b_max_v, b_max_v_next, k_upd
            )
            return (new_lcp_, new_lcos_, new_tlcp_, new_ahp_, new_ahos_,
                    new_q1p_, new_q1os_, new_q2p_, new_q2os_,
                    new_tq1p_, new_tq2p_, new_la_, new_alo_), metrics_

        update_carry_init = (lcp, lcos, tlcp, ahp, ahos,
                             q1p, q1os, q2p, q2os, tq1p, tq2p, la, alo)
        (new_lcp, new_lcos, new_tlcp, new_ahp, new_ahos,
         new_q1p, new_q1os, new_q2p, new_q2os,
         new_tq1p, new_tq2p, new_la, new_alo), all_update_metrics = jax.lax.scan(
            _update_step, update_carry_init, jnp.arange(G_UPDATES)
        )
        metrics = jax.tree_util.tree_map(lambda x: x[-1], all_update_metrics)

        step_data = (rew, done, info["goal_reached"], info["collision"], info["passive_col"])
        new_carry = (new_lcp, new_lcos, new_tlcp, new_ahp, new_ahos,
                     new_q1p, new_q1os, new_q2p, new_q2os, new_tq1p, new_tq2p,
                     new_la, new_alo, new_buf, new_es, new_eo, key)
        return new_carry, (step_data, metrics)

    carry = (lcp, lcos, tlcp, ahp, ahos,
             q1p, q1os, q2p, q2os, tq1p, tq2p,
             la, alo, buf, es, eo, key)
    new_carry, (all_step_data, all_metrics) = jax.lax.scan(
        _loop_body, carry, None, length=LOG_EVERY
    )
    return new_carry, all_step_data, all_metrics


# ── Main ──────────────────────────────────────────────────────────────────────
if True:  # scaffolding: was if __name__ == "__main__"


    master_key = jax.random.PRNGKey(7)
    master_key, k_init, k_env, k_warmup = jax.random.split(master_key, 4)
    train_rng  = jax.random.PRNGKey(42)

    dummy_obs      = jnp.zeros((2, OBS_SIZE),   dtype=jnp.float32)
    dummy_act      = jnp.zeros((2, ACTION_DIM), dtype=jnp.float32)

    k_lc, k_ah, k_q1, k_q2 = jax.random.split(k_init, 4)

    # Init shared LidarCNN
    lcp  = lidar_cnn.init(k_lc, dummy_obs)["params"]
    tlcp = jax.tree_util.tree_map(jnp.array, lcp)   # target CNN (EMA copy)

    # Init actor — needs a forward pass through lidar_cnn to get feature shapes
    dummy_cnn_feat, dummy_pose, dummy_sv = lidar_cnn.apply({"params": lcp}, dummy_obs)
    ahp  = actor_head.init(k_ah, dummy_cnn_feat, dummy_pose, dummy_sv)["params"]

    q1p = q2p = tq1p = tq2p = {"w": jnp.zeros((4,))}  # scaffolding: Q branches cut

    lcos = lidar_cnn_opt.init(lcp)
    ahos = head_actor_opt.init(ahp)
    q1os = head_q1_opt.init(q1p)
    q2os = head_q2_opt.init(q2p)
    # Alpha init: after /10 env scaling, rewards are O(10), Q-values O(100).
    # alpha=1.0 gives entropy term ~1.0*log_pi ~ -2.0, i.e. ~2% of Q — sane ratio.
    la   = jnp.array(0.0, dtype=jnp.float32)  # log(1.0) = 0.0 → alpha = 1.0
    alo  = alpha_opt.init(la)

    env_obs, env_state, vmap_step = init_env_state(k_env)

    replay_buf  = make_buffer(BUFFER_CAP)
    total_steps = 0
    n_updates   = 0
    best_suc    = 49.5
    best_ret    = -1e9

    # ── Warmup: fill buffer with random actions ───────────────────────────────
    for _ in range((WARMUP_STEPS // N_ENVS) + 1):
        k_warmup, k_act, k_step = jax.random.split(k_warmup, 3)
        obs_before = env_obs
        max_v      = extract_max_v(env_obs)
        rand_v     = jax.random.uniform(k_act, (N_ENVS,)) * max_v
        rand_w     = jax.random.uniform(k_act, (N_ENVS,), minval=-1.0, maxval=1.0)
        env_action = jnp.stack([rand_v, rand_w], axis=-1)
        step_keys  = jax.random.split(k_step, N_ENVS)
        new_obs, env_state, reward, done, info = jax.jit(vmap_step)(
            step_keys, env_state, env_action, 3.0, -1
        )
        terminal   = done & ~info["timeout"]
        replay_buf = buf_add(replay_buf, obs_before, env_action, reward,
                             new_obs, terminal.astype(jnp.float32), max_v)
        env_obs     = new_obs
        total_steps += N_ENVS

    # ── Training chunks (the while-loop of the original, two chunks) ──
    calls = 0  # scaffolding
    try:  # scaffolding
        for chunk in range(2):  # scaffolding: two chunks
            new_carry, all_step_data, all_metrics = train_chunk(
                lcp, lcos, tlcp, ahp, ahos,
                q1p, q1os, q2p, q2os, tq1p, tq2p,
                la, alo, vmap_step,
                replay_buf, env_state, env_obs, train_rng,
                3.0, -1
            )
            (lcp, lcos, tlcp, ahp, ahos,
             q1p, q1os, q2p, q2os, tq1p, tq2p,
             la, alo, replay_buf, env_state, env_obs, train_rng) = new_carry
            calls += 1  # scaffolding
        _report({"jit(train_chunk)"}, calls)  # scaffolding
    except Exception as e:  # scaffolding
        print(f"ERROR {type(e).__name__}")  # scaffolding
