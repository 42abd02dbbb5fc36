# source: https://github.com/oliverdiamond/purejaxrl/blob/6d00e463a2c3d4ed0b11499ba481b1c6a7c412b5/src/dqn.py
# expect: jit-in-loop-or-body at line 111
# runtime: COMPILES 4 CALLS 4
# why: _plot_feature_heatmaps_grid wraps a fresh lambda in jax.jit inside the loop over key combinations, so the network's feature method is traced and compiled again for every combination although the observation batch has the same shape each time.

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
import jax
import jax.numpy as jnp
import numpy as np
import flax.linen as nn


class QNetwork(nn.Module):  # scaffolding: stand-in for the repo's DQN network with a features method
    def setup(self):
        self.feat = nn.Dense(8)
        self.head = nn.Dense(4)

    def __call__(self, x):
        return self.head(self.features(x))

    def features(self, x):
        return nn.relu(self.feat(x))


class _Env:  # scaffolding: stand-in for the two-key gridworld (5x5, one obstacle)
    H = 5
    W = 5
    goal_loc = np.array([4, 4])
    fixed_key_loc = np.array([0, 4])
    fixed_key_loc2 = np.array([4, 0])
    use_fixed_key_loc = True

    def __init__(self):
        self._obstacles_map = np.zeros((5, 5)); self._obstacles_map[2, 2] = 1.0
        self._penalty_map = np.zeros((5, 5))


def _get_all_observations_vectorized(basic_env, env_params, has_key=None, has_key2=None):  # scaffolding: condensed stand-in
    locations = [(r, c) for r in range(basic_env.H) for c in range(basic_env.W)
                 if basic_env._obstacles_map[r, c] != 1.0 and not np.array_equal([r, c], basic_env.goal_loc)]
    valid_mask = np.zeros((basic_env.H, basic_env.W), dtype=bool)
    obs = np.zeros((len(locations), basic_env.H * basic_env.W + 2), dtype=np.float32)
    for n, (r, c) in enumerate(locations):
        valid_mask[r, c] = True
        obs[n, r * basic_env.W + c] = 1.0
        obs[n, -2:] = [bool(has_key), bool(has_key2)]
    return jnp.asarray(obs), locations, valid_mask


# src/dqn.py
def _plot_feature_heatmaps_grid(network_params, config, save_dir, method_name, title, filename, network, basic_env, env_params, key_combinations, two_keys=False):
    """
    Optimized heatmap plotter with colored key squares and matching colored titles.
    """
    H = basic_env.H
    W = basic_env.W
    
    # --- 1. OPTIMIZATION: Pre-calculate static map features ---
    obstacle_locs = []
    penalty_locs = []
    
    # Get key locations if they exist
    key_loc = None
    key_loc2 = None
    if hasattr(basic_env, 'fixed_key_loc'):
        key_loc = (int(basic_env.fixed_key_loc[0]), int(basic_env.fixed_key_loc[1]))
    if hasattr(basic_env, 'fixed_key_loc2'):
        key_loc2 = (int(basic_env.fixed_key_loc2[0]), int(basic_env.fixed_key_loc2[1]))
    
    for r in range(H):
        for c in range(W):
            if basic_env._obstacles_map[r, c] == 1.0:
                obstacle_locs.append((r, c))
            elif basic_env._penalty_map[r, c] != 0.0 and not np.array_equal([r,c], basic_env.goal_loc):
                penalty_locs.append((r, c))

    # --- 2. VECTORIZED INFERENCE FOR ALL KEY COMBINATIONS ---
    print(f"Generating features for {len(key_combinations)} key combinations...")
    all_feature_grids = []
    valid_mask = None
    
    for has_key, has_key2 in key_combinations:
        obs_batch, locations, valid_mask = _get_all_observations_vectorized(basic_env, env_params, has_key, has_key2)
        
        if len(locations) == 0:
            return
        
        # JIT the network application for maximum speed
        apply_fn = jax.jit(lambda params, obs: network.apply(
            params, obs, method=getattr(network, method_name)
        ))
        
        # One single call to the GPU for all grid cells
        features_all = apply_fn(network_params, obs_batch)
        features_all = np.asarray(features_all)
        
        # Fill the 3D grid (H, W, Features)
        feature_dim = features_all.shape[-1]
        feature_grid = np.full((H, W, feature_dim), np.nan, dtype=np.float32)
        
        # Map linear batch results back to (H, W) grid
        for idx, (row, col) in enumerate(locations):
            feature_grid[row, col, :] = features_all[idx]
        
        all_feature_grids.append(feature_grid)
    return all_feature_grids  # scaffolding: the matplotlib plotting that follows is cut


network = QNetwork()  # scaffolding
basic_env = _Env()  # scaffolding
network_params = network.init(jax.random.PRNGKey(0), jnp.zeros((1, 27)))  # scaffolding
key_combinations = [(False, False), (True, False), (False, True), (True, True)]  # as in the two-key branch of the caller
grids = _plot_feature_heatmaps_grid(network_params, {}, "/tmp", "features", "t", "f", network, basic_env, None, key_combinations, two_keys=True)
_report({"jit(<lambda>)"}, len(key_combinations))  # scaffolding
