# source: https://github.com/filipivanovski42/JambNeuralNetwork/blob/08ed50f3135310015d47df34e102d620f76ea7b2/evaluate_agent_100k.py
# expect: none
# runtime: COMPILES 3 CALLS 66
# why: run_batch is jitted with the constant int obs_dim static and calls the jitted run_single_game under vmap with obs_dim by keyword; capture_game_log jits env.step and a predict lambda in its body but runs once, so each compiles once for all calls.

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
# evaluate_agent_100k.py of filipivanovski42/JambNeuralNetwork at 08ed50f (run_single_game/run_batch, the batch
# loop of main() and capture_game_log kept; the report writer and the WSL relay cut)
import os
import sys
import time
import types  # scaffolding
import numpy as np
import jax
import jax.numpy as jnp
import flax.linen as nn
from typing import NamedTuple  # scaffolding
from flax.linen.initializers import constant, orthogonal


# --- scaffolding: a small stand-in for jamb_jax (the dice game env) and for watch_agent_jax ---
class _State(NamedTuple):  # scaffolding
    board: jnp.ndarray  # scaffolding
    turn_number: jnp.ndarray  # scaffolding
    game_over: jnp.ndarray  # scaffolding


env = types.SimpleNamespace(TOTAL_ACTIONS=12, OBS_SIZE=16, NUM_KEEP_ACTIONS=2, NUM_SCORE_ACTIONS=8)  # scaffolding
env.reset = lambda key: (_State(jnp.full((2, 4), -1), jnp.array(0), jnp.array(False)), jnp.zeros(16))  # scaffolding
env.get_obs = lambda s: jnp.concatenate([s.board.reshape(-1).astype(jnp.float32), jnp.zeros(8)])  # scaffolding
env.get_action_mask = lambda s: jnp.concatenate([jnp.ones(2, bool), s.board.reshape(-1) < 0, jnp.zeros(2, bool)])  # scaffolding
env.calculate_total_score = lambda board: jnp.sum(jnp.maximum(board, 0))  # scaffolding


def _env_step(key, state, action):  # scaffolding
    cell = jnp.clip(action - 2, 0, 7)  # scaffolding
    val = jnp.where(action >= 2, jax.random.randint(key, (), 0, 30), -1)  # scaffolding
    board = state.board.reshape(-1).at[cell].set(jnp.where(action >= 2, val, state.board.reshape(-1)[cell])).reshape(2, 4)  # scaffolding
    done = jnp.all(board >= 0) | (state.turn_number >= 30)  # scaffolding
    new = _State(board, state.turn_number + 1, done)  # scaffolding
    return new, env.get_obs(new), 0.0, done, {}  # scaffolding


env.step = _env_step  # scaffolding
ROWS = ["1s", "2s"]  # scaffolding
COLS = ["Down", "Free", "Up", "Anno"]  # scaffolding


class ActorCritic(nn.Module):  # watch_agent_jax.ActorCritic, as written
    action_dim: int
    actor_layers: list
    critic_layers: list
    activation: str = "relu"

    @nn.compact
    def __call__(self, x):
        act_fn = nn.relu if self.activation == "relu" else nn.tanh
        actor = x
        for size in self.actor_layers:
            actor = nn.Dense(size, kernel_init=orthogonal(np.sqrt(2)),
                           bias_init=constant(0.0))(actor)
            actor = act_fn(actor)
        logits = nn.Dense(self.action_dim, kernel_init=orthogonal(0.01),
                         bias_init=constant(0.0))(actor)
        critic = x
        for size in self.critic_layers:
            critic = nn.Dense(size, kernel_init=orthogonal(np.sqrt(2)),
                            bias_init=constant(0.0))(critic)
            critic = act_fn(critic)
        value = nn.Dense(1, kernel_init=orthogonal(1.0),
                        bias_init=constant(0.0))(critic)
        return logits, jnp.squeeze(value, axis=-1)


def load_model(model_path):  # scaffolding: freshly initialised parameters instead of the .npz checkpoint
    network = ActorCritic(action_dim=env.TOTAL_ACTIONS, actor_layers=[512, 512, 256],  # scaffolding
                          critic_layers=[512, 512, 256], activation="relu")  # scaffolding
    return network, network.init(jax.random.PRNGKey(0), jnp.zeros(env.OBS_SIZE))  # scaffolding


sys.modules["watch_agent_jax"] = types.SimpleNamespace(  # scaffolding
    format_histogram=str, format_keep_pattern=str, render_board=lambda b: None)  # scaffolding
MODEL_PATH = "models/jamb_jax_v4/jamb_jax_v1_final.npz"
# --- end scaffolding ---

TOTAL_GAMES = 256  # scaffolding: 1_000_000 in the script
BATCH_SIZE = 64  # scaffolding: 5_000 in the script

# ─── Evaluation Logic ────────────────────────────────────────────────

def run_single_game_impl(key, model_params, obs_dim):
    """Run a single game to completion and return stats."""
    # We instantiate the network, but apply() will validate shapes
    network = ActorCritic(
        action_dim=env.TOTAL_ACTIONS,
        actor_layers=[512, 512, 256],
        critic_layers=[512, 512, 256],
        activation="relu",
    )

    def cond_fn(carry):
        state, _, _, _, done = carry
        return ~done

    def body_fn(carry):
        state, _, _, fill_turns, _ = carry
        
        # Get action
        obs_full = env.get_obs(state)
        # Adapt observation to model's expected size
        obs = obs_full[:obs_dim] 
        
        mask = env.get_action_mask(state)
        logits, _ = network.apply(model_params, obs)
        masked_logits = jnp.where(mask, logits, -1e9)
        action = jnp.argmax(masked_logits)
        
        # Step
        k1, k2 = jax.random.split(carry[2]) 
        next_state, _, _, done, _ = env.step(k1, state, action)
        
        # Track column fills
        cols_filled = jnp.all(next_state.board >= 0, axis=0) # (4,) bool
        current_turn = state.turn_number 
        
        new_fill_turns = jnp.where(
            (fill_turns == 100) & (cols_filled),
            current_turn,
            fill_turns
        )
        
        return next_state, 0.0, k2, new_fill_turns, done

    # Initial state
    k_reset, k_loop = jax.random.split(key)
    state, _ = env.reset(k_reset)
    initial_fills = jnp.full((4,), 100, dtype=jnp.int32)
    
    final_state, _, _, final_fills, _ = jax.lax.while_loop(
        cond_fn, body_fn, (state, 0.0, k_loop, initial_fills, False)
    )
    
    final_score = env.calculate_total_score(final_state.board)
    return final_state.board, final_score, final_fills

run_single_game = jax.jit(run_single_game_impl, static_argnums=(2,))

def run_batch_impl(keys, model_params, obs_dim):
    """Run a batch of games using provided keys."""
    # Use partial to fix obs_dim since it's a static integer, not a traced array
    from functools import partial
    fn = partial(run_single_game, obs_dim=obs_dim)
    return jax.vmap(fn, in_axes=(0, None))(keys, model_params)

run_batch = jax.jit(run_batch_impl, static_argnums=(2,))


_calls = 0  # scaffolding


def capture_game_log(model_path, seed, obs_dim):
    """Replays the game with the given seed and returns the log string."""
    global _calls  # scaffolding
    network, params = load_model(model_path)
    
    import io
    from contextlib import redirect_stdout
    f = io.StringIO()
    
    with redirect_stdout(f):
        print(f"--- Replaying Game with Seed {seed} ---")
        pk = jax.random.PRNGKey(seed)
        k_reset, k_game = jax.random.split(pk)
        state, _ = env.reset(k_reset)
        
        step_jit = jax.jit(env.step)
        # Sliced prediction
        predict_jit = jax.jit(lambda p, o, m: jnp.argmax(jnp.where(m, network.apply(p, o[:obs_dim])[0], -1e9)))
        
        rng = k_game
        from watch_agent_jax import format_histogram, format_keep_pattern, render_board
        
        while not state.game_over:
            obs = env.get_obs(state)
            mask = env.get_action_mask(state)
            action_idx = int(predict_jit(params, obs, mask))
            
            # (Formatting logic omitted for brevity, essentially same as original)
            if action_idx < env.NUM_KEEP_ACTIONS:
                print(f"KEEP: {action_idx}")  # scaffolding: KEEP_PATTERNS formatting cut
            elif action_idx < env.NUM_KEEP_ACTIONS + env.NUM_SCORE_ACTIONS:
                idx = action_idx - env.NUM_KEEP_ACTIONS
                r, c = idx // 4, idx % 4
                print(f"🎯 SCORE: {ROWS[r]} in {COLS[c]}")
            else:
                idx = action_idx - env.NUM_KEEP_ACTIONS - env.NUM_SCORE_ACTIONS
                print(f"📢 ANNOUNCE: {ROWS[idx]}")
                
            k_step, rng = jax.random.split(rng)
            state, _, _, _, _ = step_jit(k_step, state, action_idx)
            _calls += 2  # scaffolding
            
        render_board(state.board)
        print(f"🏁 FINAL SCORE: {env.calculate_total_score(state.board)}")

    return f.getvalue()

def main():
    global _calls  # scaffolding
    network, params = load_model(MODEL_PATH)
    params_dict = params  # scaffolding: the auto-detection block reduced to its first branch
    if 'params' in params_dict and 'Dense_0' in params_dict['params']:
        trained_obs_dim = params_dict['params']['Dense_0']['kernel'].shape[0]

    all_scores = []
    all_boards = []
    all_fills = []
    
    best_score = -1
    best_seed = 0
    master_key = jax.random.PRNGKey(42)
    
    t_start = time.time()
    
    # Pre-compile the runner with the specific obs_dim
    # We pass obs_dim as static argument to run_batch -> run_single_game
    
    for b in range(TOTAL_GAMES // BATCH_SIZE):
        k_batch, master_key = jax.random.split(master_key)
        batch_integers = np.random.randint(0, 2**30, size=BATCH_SIZE) + (b * BATCH_SIZE)
        batch_keys = jax.vmap(jax.random.PRNGKey)(jnp.array(batch_integers))
        
        # Run batch
        boards, scores, fill_turns = run_batch(batch_keys, params, trained_obs_dim)
        _calls += 1  # scaffolding
        
        # Move to CPU
        scores_np = np.array(scores)
        boards_np = np.array(boards)
        fills_np = np.array(fill_turns)
        
        all_scores.append(scores_np)
        all_boards.append(boards_np)
        all_fills.append(fills_np)
        
        b_max_idx = np.argmax(scores_np)
        b_max = scores_np[b_max_idx]
        
        if b_max > best_score:
            best_score = b_max
            best_seed = batch_integers[b_max_idx]
            print(f"   [{b+1}] New Record: {best_score} (Seed: {best_seed})")
        elif (b+1) % 5 == 0:
            print(f"   [{b+1}] Max: {b_max}")
                
    print("🎥 Capturing best game log...")
    log = capture_game_log(MODEL_PATH, int(best_seed), trained_obs_dim)
    # scaffolding: report generation and writing cut


np.random.seed(0)  # scaffolding
main()
_report({"jit(run_batch_impl)", "jit(run_single_game_impl)", "jit(_env_step)", "jit(<lambda>)"}, _calls)  # scaffolding
