# source: https://github.com/taodav/pobax/commit/d1f7848b66275e9ae15bfd1fb0ef7d789b182a9a
# expect: unhashable-static at line 131
# runtime: ERROR ValueError
# why: FlattenObservationWrapper.reset/step mark only self static, so env_params is traced inside them and is then passed to NavixGymnaxWrapper's jitted reset, whose static_argnums=(0, -1) must hash it: EnvParams holding a tracer cannot be hashed and jit raises ValueError.
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



# taken from https://github.com/luchris429/purejaxrl/blob/main/purejaxrl/wrappers.py
from typing import Optional, Tuple, Union

# from brax import envs  # scaffolding: brax is not installed and only BraxGymnaxWrapper (cut) uses it
# from brax.envs.wrappers.training import EpisodeWrapper, AutoResetWrapper  # scaffolding
import chex
from flax import struct
from functools import partial
# from gymnax.environments import environment, spaces  # scaffolding: gymnax is not installed; stand-ins below
import jax
import jax.numpy as jnp
import numpy as np
from types import SimpleNamespace  # scaffolding


@struct.dataclass
class _EnvParams:  # scaffolding: gymnax.environments.environment.EnvParams
    max_steps_in_episode: int = 1  # scaffolding


@struct.dataclass
class _EnvState:  # scaffolding: gymnax.environments.environment.EnvState
    time: int  # scaffolding


class _Box:  # scaffolding: gymnax.environments.spaces.Box
    def __init__(self, low, high, shape, dtype=jnp.float32):  # scaffolding
        self.low, self.high, self.shape, self.dtype = low, high, shape, dtype  # scaffolding


class _Discrete:  # scaffolding: gymnax.environments.spaces.Discrete
    def __init__(self, num_categories):  # scaffolding
        self.n = num_categories  # scaffolding


environment = SimpleNamespace(EnvParams=_EnvParams, EnvState=_EnvState, Environment=object)  # scaffolding
spaces = SimpleNamespace(Box=_Box, Discrete=_Discrete)  # scaffolding


@struct.dataclass
class _Timestep:  # scaffolding: navix.environments.Timestep, only the fields the wrapper reads
    observation: jax.Array  # scaffolding
    step_type: jax.Array  # scaffolding
    reward: jax.Array  # scaffolding
    info: dict  # scaffolding


class _NavixMaze:  # scaffolding: a navix environment ("Navix-DMLab-Maze-F-..."), a 4x4 grid walk
    max_steps = 100  # scaffolding

    def __init__(self):  # scaffolding
        self.observation_space = SimpleNamespace(minimum=0, maximum=1, shape=(4, 4, 2), dtype=jnp.int32)  # scaffolding

    def reset(self, key):  # scaffolding
        obs = jax.random.randint(key, (4, 4, 2), 0, 2)  # scaffolding
        return _Timestep(obs, jnp.asarray(0), jnp.asarray(0.0), {})  # scaffolding

    def step(self, timestep, action):  # scaffolding
        obs = jnp.roll(timestep.observation, action, axis=0)  # scaffolding
        return _Timestep(obs, jnp.asarray(0), jnp.asarray(1.0), {})  # scaffolding


nx = SimpleNamespace(environments=SimpleNamespace(Timestep=_Timestep))  # scaffolding: navix is not installed
NavixEnvironment = _NavixMaze  # scaffolding


# ---- pobax/envs/wrappers/gymnax.py ----
class GymnaxWrapper(object):
    """Base class for Gymnax wrappers."""

    def __init__(self, env):
        self._env = env
        if hasattr(env, '_unwrapped'):
            self._unwrapped = env._unwrapped
        else:
            self._unwrapped = env

    # provide proxy access to regular attributes of wrapped object
    def __getattr__(self, name):
        return getattr(self._env, name)


class FlattenObservationWrapper(GymnaxWrapper):
    """Flatten the observations of the environment."""

    def __init__(self, env: environment.Environment):
        super().__init__(env)

    def observation_space(self, params) -> spaces.Box:
        assert isinstance(
            self._env.observation_space(params), spaces.Box
        ), "Only Box spaces are supported for now."
        return spaces.Box(
            low=self._env.observation_space(params).low,
            high=self._env.observation_space(params).high,
            shape=(np.prod(self._env.observation_space(params).shape),),
            dtype=self._env.observation_space(params).dtype,
        )

    @partial(jax.jit, static_argnums=(0,))
    def reset(
            self, key: chex.PRNGKey, params: Optional[environment.EnvParams] = None
    ) -> Tuple[chex.Array, environment.EnvState]:
        obs, state = self._env.reset(key, params)
        obs = jnp.reshape(obs, (-1,))
        return obs, state

    @partial(jax.jit, static_argnums=(0,))
    def step(
            self,
            key: chex.PRNGKey,
            state: environment.EnvState,
            action: Union[int, float],
            params: Optional[environment.EnvParams] = None,
    ) -> Tuple[chex.Array, environment.EnvState, float, bool, dict]:
        obs, state, reward, done, info = self._env.step(key, state, action, params)
        obs = jnp.reshape(obs, (-1,))
        return obs, state, reward, done, info


@struct.dataclass
class LogEnvState:
    env_state: environment.EnvState
    episode_returns: float
    discounted_episode_returns: float
    episode_lengths: int
    returned_episode_returns: float
    returned_discounted_episode_returns: float
    returned_episode_lengths: int
    timestep: int


class LogWrapper(GymnaxWrapper):
    """Log the episode returns and lengths."""

    def __init__(self, env: environment.Environment, gamma: float = 0.99):
        super().__init__(env)
        self.gamma = gamma

    @partial(jax.jit, static_argnums=(0, -1))
    def reset(
            self, key: chex.PRNGKey, params: Optional[environment.EnvParams] = None
    ) -> Tuple[chex.Array, environment.EnvState]:
        obs, env_state = self._env.reset(key, params)
        state = LogEnvState(env_state, 0.0, 0.0, 0, 0.0, 0.0, 0, 0)
        return obs, state

    @partial(jax.jit, static_argnums=(0, -1))
    def step(
            self,
            key: chex.PRNGKey,
            state: environment.EnvState,
            action: Union[int, float],
            params: Optional[environment.EnvParams] = None,
    ) -> Tuple[chex.Array, environment.EnvState, float, bool, dict]:
        obs, env_state, reward, done, info = self._env.step(
            key, state.env_state, action, params
        )
        new_episode_return = state.episode_returns + reward
        new_discounted_episode_return = state.discounted_episode_returns + (self.gamma ** state.episode_lengths) * reward
        new_episode_length = state.episode_lengths + 1

        state = LogEnvState(
            env_state=env_state,
            episode_returns=new_episode_return * (1 - done),
            discounted_episode_returns=new_discounted_episode_return * (1 - done),
            episode_lengths=new_episode_length * (1 - done),
            returned_episode_returns=state.returned_episode_returns * (1 - done)
                                     + new_episode_return * done,
            returned_discounted_episode_returns=state.returned_discounted_episode_returns * (1 - done)
                                                + new_discounted_episode_return * done,
            returned_episode_lengths=state.returned_episode_lengths * (1 - done)
                                     + new_episode_length * done,
            timestep=state.timestep + 1,
        )
        info["returned_episode_returns"] = state.returned_episode_returns
        info["returned_discounted_episode_returns"] = state.returned_discounted_episode_returns
        info["returned_episode_lengths"] = state.returned_episode_lengths
        info["timestep"] = state.timestep
        info["returned_episode"] = done
        info["reward"] = reward
        return obs, state, reward, done, info


# ---- pobax/envs/wrappers/nx.py ----
@struct.dataclass
class NavixState:
    timestep: nx.environments.Timestep


class NavixGymnaxWrapper:
    def __init__(self, env: NavixEnvironment):
        self._env = env

    @property
    def default_params(self):
        return environment.EnvParams(max_steps_in_episode=self._env.max_steps)

    def observation_space(self, params):
        return spaces.Box(
            low=self._env.observation_space.minimum,
            high=self._env.observation_space.maximum,
            shape=(np.prod(self._env.observation_space.shape),),
            dtype=self._env.observation_space.dtype,
        )

    def action_space(self, params):
        # return spaces.Discrete(
        #     num_categories=self._env.action_space.maximum.item() + 1,
        # )
        return spaces.Discrete(3)

    @partial(jax.jit, static_argnums=(0, -1))
    def reset(
            self, key: chex.PRNGKey, params: Optional[environment.EnvParams] = None
    ) -> Tuple[chex.Array, NavixState]:
        timestep = self._env.reset(key)
        state = NavixState(timestep=timestep)

        return timestep.observation, state

    @partial(jax.jit, static_argnums=(0, -1))
    def step(
            self,
            key: chex.PRNGKey,
            state: NavixState,
            action: int,
            params: Optional[environment.EnvParams] = None,
    ) -> Tuple[chex.Array, NavixState, float, bool, dict]:
        timestep = self._env.step(state.timestep, action)
        state = NavixState(timestep=timestep)

        done = jnp.logical_or((timestep.step_type == 1), (timestep.step_type == 2))
        return timestep.observation, state, timestep.reward, done, timestep.info


# ---- pobax/envs/__init__.py, the 'Navix-DMLab-Maze-...-F-' branch of get_env ----
gamma = 0.99  # scaffolding
nx_env = _NavixMaze()  # scaffolding: nx.make(env_name)
env = NavixGymnaxWrapper(nx_env)
env_params = env.default_params
env = FlattenObservationWrapper(env)
env = LogWrapper(env, gamma=gamma)

# scaffolding: a short rollout with the wrapped env, as the training loop does (without VecEnv's vmap)
key = jax.random.PRNGKey(0)  # scaffolding
calls = 0  # scaffolding
try:  # scaffolding
    key, reset_key = jax.random.split(key)  # scaffolding
    obs, env_state = env.reset(reset_key, env_params)  # scaffolding
    calls += 1  # scaffolding
    for t in range(3):  # scaffolding
        key, step_key = jax.random.split(key)  # scaffolding
        obs, env_state, reward, done, info = env.step(step_key, env_state, t % 3, env_params)  # scaffolding
        calls += 1  # scaffolding
    _report({"jit(reset)", "jit(step)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
