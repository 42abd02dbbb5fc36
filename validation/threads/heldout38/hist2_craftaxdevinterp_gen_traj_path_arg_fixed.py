# source: https://github.com/GarretteBaker/CraftaxDevinterp/commit/d77b814c3635f898bead0b8f4f54e7df18e55f8a
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: The fix restores the checkpoint outside jit and passes the parameter pytree, so the four checkpoints (same shapes) reuse one compile of generate_trajectory.

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
# craftax/inter_model_trajectories.py of GarretteBaker/CraftaxDevinterp at d77b814 (the fix; trajectory part, rendering cut)
import os
from tqdm import tqdm
import tempfile  # scaffolding
import jax
import jax.numpy as jnp
from typing import NamedTuple
import flax.linen as nn  # scaffolding


# --- scaffolding: stand-ins for craftax (env, wrappers, ActorCritic) and orbax (not installed) ---
class _Discrete(NamedTuple):
    n: int


class CraftaxSymbolicEnv:
    default_params = None

    def action_space(self, params):
        return _Discrete(17)

    def reset(self, key, params):
        return jnp.zeros(8), jnp.zeros(8)

    def step(self, key, state, action, params):
        state = state + jax.nn.one_hot(action % 8, 8) + 0.01 * jax.random.normal(key, (8,))
        return state, state, 0.0, False, {}


def LogWrapper(env):
    return env


def OptimisticResetVecEnvWrapper(env, num_envs, reset_ratio):
    return env


class _Pi(NamedTuple):
    logits: jnp.ndarray

    def sample(self, seed):
        return jax.random.categorical(seed, self.logits)


class ActorCritic(nn.Module):
    action_dim: int
    layer_width: int

    @nn.compact
    def __call__(self, x):
        h = nn.relu(nn.Dense(self.layer_width)(x))
        return _Pi(nn.Dense(self.action_dim)(h)), nn.Dense(1)(h)


_CKPT_ROOT = tempfile.mkdtemp()
_PARAMS = {}
for _no in range(0, 80, 20):
    os.makedirs(f"{_CKPT_ROOT}/intermediate/{_no}/ckpt", exist_ok=True)
    _PARAMS[f"{_CKPT_ROOT}/intermediate/{_no}/ckpt"] = ActorCritic(17, 512).init(jax.random.PRNGKey(_no), jnp.zeros(8))


class _Checkpointer:
    def restore(self, path):
        return _PARAMS[path]


class ocp:
    StandardCheckpointer = _Checkpointer
# --- end scaffolding ---


#%%
layer_size = 512
seed = 0
num_trajectories = 80  # scaffolding: 80 instead of 1525 (4 checkpoints)
rng = jax.random.PRNGKey(seed)
rng, _rng = jax.random.split(rng)


def generate_trajectory(network_params, rng, num_envs=1, num_steps=496):
    env = CraftaxSymbolicEnv()
    env_params = env.default_params
    env = LogWrapper(env)
    env = OptimisticResetVecEnvWrapper(
        env,
        num_envs=num_envs,
        reset_ratio=min(16, num_envs),
    )
    network = ActorCritic(env.action_space(env_params).n, layer_size)

    class Transition(NamedTuple):
        state: jnp.ndarray

    # COLLECT TRAJECTORIES
    def _env_step(runner_state, unused):
        (
            env_state,
            last_obs,
            rng,
        ) = runner_state

        # SELECT ACTION
        rng, _rng = jax.random.split(rng)
        pi, _ = network.apply(network_params, last_obs)
        action = pi.sample(seed=_rng)

        # STEP ENV
        rng, _rng = jax.random.split(rng)
        obsv, env_state, _, _, _ = env.step(
            _rng, env_state, action, env_params
        )

        transition = Transition(
            state = env_state,
        )
        runner_state = (
            env_state,
            obsv,
            rng,
        )
        return runner_state, transition
    rng, _rng = jax.random.split(rng)
    obsv, env_state = env.reset(_rng, env_params)

    rng, _rng = jax.random.split(rng)
    runner_state = (
        env_state,
        obsv,
        _rng,
    )

    runner_state, traj_batch = jax.lax.scan(
        _env_step, runner_state, None, num_steps
    )
    return traj_batch.state

jit_gen_traj = jax.jit(generate_trajectory)

#%%
n_traj = 0  # scaffolding
for trajectory_no in tqdm(range(0, num_trajectories, 20), desc="Checkpoint progress"):
    checkpointer = ocp.StandardCheckpointer()
    checkpoint_directory = f"{_CKPT_ROOT}/intermediate/{trajectory_no}"  # scaffolding: /workspace/CraftaxDevinterp -> temp dir
    folder_list = os.listdir(checkpoint_directory)
    network_params = checkpointer.restore(f"{checkpoint_directory}/{folder_list[0]}")

    trajectory = jit_gen_traj(network_params, _rng)
    n_traj += 1  # scaffolding
_report({"jit(generate_trajectory)"}, n_traj)  # scaffolding
