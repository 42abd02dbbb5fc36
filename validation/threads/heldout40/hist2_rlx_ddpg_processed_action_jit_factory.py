# source: https://github.com/nico-bohlinger/RL-X/blob/39a1b90c984a73b0bec598b01531213d1b79d3a6/rl_x/algorithms/ddpg/flax/policy.py
# expect: none
# runtime: COMPILES 2 CALLS 50
# why: get_processed_action_function returns jax.jit of a freshly defined closure, and train() defines a @jax.jit get_action in its body, but both factories run once per agent/training run, so every acting step reuses the same two compiled functions.

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
# rl_x/algorithms/ddpg/flax/policy.py (whole) and the acting part of rl_x/algorithms/ddpg/flax/ddpg.py (DDPG.__init__ / train) of nico-bohlinger/RL-X at 39a1b90
from typing import Sequence
import numpy as np
import jax
import jax.numpy as jnp
import flax.linen as nn

# --- scaffolding: rl_x enums and a toy vector env (gymnasium-like, 2 envs, 3-dim actions in [-2, 2]) ---
import enum, types  # scaffolding
class ActionSpaceType(enum.Enum):  # scaffolding
    CONTINUOUS = 0
class ObservationSpaceType(enum.Enum):  # scaffolding
    FLAT_VALUES = 0
# --- end scaffolding ---


def get_policy(config, env):
    action_space_type = env.general_properties.action_space_type
    observation_space_type = env.general_properties.observation_space_type

    if action_space_type == ActionSpaceType.CONTINUOUS and observation_space_type == ObservationSpaceType.FLAT_VALUES:
        return (Policy(env.single_action_space.shape, config.algorithm.nr_hidden_units),
                get_processed_action_function(jnp.array(env.single_action_space.low), jnp.array(env.single_action_space.high)))



class Policy(nn.Module):
    as_shape: Sequence[int]
    nr_hidden_units: int

    @nn.compact
    def __call__(self, x):
        x = nn.Dense(self.nr_hidden_units)(x)
        x = nn.relu(x)
        x = nn.Dense(self.nr_hidden_units)(x)
        x = nn.relu(x)
        x = nn.Dense(np.prod(self.as_shape).item())(x)
        x = nn.tanh(x)

        return x


def get_processed_action_function(env_as_low, env_as_high):
    def get_clipped_and_scaled_action(action, env_as_low=env_as_low, env_as_high=env_as_high):
        clipped_action = jnp.clip(action, -1, 1)
        return env_as_low + (0.5 * (clipped_action + 1.0) * (env_as_high - env_as_low))
    return jax.jit(get_clipped_and_scaled_action)


class _Box:  # scaffolding
    def __init__(self, low, high, shape):
        self.low, self.high, self.shape = low, high, shape
    def sample(self):
        return np.random.uniform(self.low, self.high).astype(np.float32)


class _ToyVecEnv:  # scaffolding
    def __init__(self):
        self.single_action_space = _Box(np.full(3, -2.0, np.float32), np.full(3, 2.0, np.float32), (3,))
        self.general_properties = types.SimpleNamespace(action_space_type=ActionSpaceType.CONTINUOUS, observation_space_type=ObservationSpaceType.FLAT_VALUES)
    def reset(self):
        return np.zeros((2, 5), np.float32), {}
    def step(self, action):
        return np.random.randn(2, 5).astype(np.float32), np.zeros(2), np.zeros(2, bool), np.zeros(2, bool), {}


from typing import NamedTuple  # scaffolding
class _PolicyState(NamedTuple):  # scaffolding
    params: dict


class DDPG:  # scaffolding: only the acting path of the original class
    def __init__(self, config, env):
        self.env = env
        self.nr_envs = 2  # scaffolding
        self.epsilon = 0.1  # scaffolding
        self.learning_starts = 10  # scaffolding
        self.total_timesteps = 60  # scaffolding
        self.seed = 0  # scaffolding
        self.rng = np.random.default_rng(self.seed)
        self.key = jax.random.PRNGKey(self.seed)
        self.key, policy_key, critic_key = jax.random.split(self.key, 3)

        self.env_as_low = env.single_action_space.low
        self.env_as_high = env.single_action_space.high

        self.policy, self.get_processed_action = get_policy(config, env)

        self.policy.apply = jax.jit(self.policy.apply)

        self.policy_state = _PolicyState(params=self.policy.init(policy_key, np.zeros((1, 5), np.float32)))  # scaffolding: RLTrainState cut

    def train(self):
        @jax.jit
        def get_action(policy_state, state: np.ndarray, key: jax.random.PRNGKey):
            key, subkey = jax.random.split(key)
            mean_action = self.policy.apply(policy_state.params, state)
            action = mean_action + self.epsilon * jax.random.normal(subkey, mean_action.shape)
            action = jnp.clip(action, -1.0, 1.0)
            return action, key

        state, _ = self.env.reset()
        global_step = 0
        calls = 0  # scaffolding
        while global_step < self.total_timesteps:
            # Acting
            if global_step < self.learning_starts:
                processed_action = np.array([self.env.single_action_space.sample() for _ in range(self.nr_envs)])
                action = (processed_action - self.env_as_low) / (self.env_as_high - self.env_as_low) * 2.0 - 1.0
            else:
                action, self.key = get_action(self.policy_state, state, self.key)
                processed_action = self.get_processed_action(action)
                calls += 2  # scaffolding

            next_state, reward, terminated, truncated, info = self.env.step(jax.device_get(processed_action))
            state = next_state
            global_step += self.nr_envs
        return calls  # scaffolding


config = types.SimpleNamespace(algorithm=types.SimpleNamespace(nr_hidden_units=32))  # scaffolding
agent = DDPG(config, _ToyVecEnv())  # scaffolding
_report({"jit(get_action)", "jit(get_clipped_and_scaled_action)"}, agent.train())  # scaffolding
