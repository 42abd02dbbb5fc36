# source: https://github.com/Maharishiva/LiT-agent/commit/5014783eb2b035a7ee0dfb71c89736144a55b60e
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: after the commit LogWrapper.reset/step use @partial(jax.jit, static_argnums=0), so the wrapper is a static (hashed by identity) argument; the nested wrapper jits are inlined into the jitted train(), which compiles once for 2 calls.
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




# ---- wrappers.py ----
import jax
import jax.numpy as jnp
import chex
import numpy as np
from flax import struct
from functools import partial
from typing import Optional, Tuple, Union, Any
jax.tree_map = jax.tree_util.tree_map  # scaffolding: jax.tree_map (used in 2025) was removed from jax

#Taken from https://github.com/MichaelTMatthews/Craftax_Baselines/blob/main/wrappers.py

class GymnaxWrapper(object):
    """Base class for Gymnax wrappers."""

    def __init__(self, env):
        self._env = env

    # provide proxy access to regular attributes of wrapped object
    def __getattr__(self, name):
        return getattr(self._env, name)


class BatchEnvWrapper(GymnaxWrapper):
    """Batches reset and step functions"""

    def __init__(self, env, num_envs: int):
        super().__init__(env)

        self.num_envs = num_envs

        self.reset_fn = jax.vmap(self._env.reset, in_axes=(0, None))
        self.step_fn = jax.vmap(self._env.step, in_axes=(0, 0, 0, None))

    @partial(jax.jit, static_argnums=(0, 2))
    def reset(self, rng, params=None):
        rng, _rng = jax.random.split(rng)
        rngs = jax.random.split(_rng, self.num_envs)
        obs, env_state = self.reset_fn(rngs, params)
        return obs, env_state

    @partial(jax.jit, static_argnums=(0, 4))
    def step(self, rng, state, action, params=None):
        rng, _rng = jax.random.split(rng)
        rngs = jax.random.split(_rng, self.num_envs)
        obs, state, reward, done, info = self.step_fn(rngs, state, action, params)

        return obs, state, reward, done, info


class AutoResetEnvWrapper(GymnaxWrapper):
    """Provides standard auto-reset functionality, providing the same behaviour as Gymnax-default."""

    def __init__(self, env):
        super().__init__(env)

    @partial(jax.jit, static_argnums=(0, 2))
    def reset(self, key, params=None):
        return self._env.reset(key, params)

    @partial(jax.jit, static_argnums=(0, 4))
    def step(self, rng, state, action, params=None):

        rng, _rng = jax.random.split(rng)
        obs_st, state_st, reward, done, info = self._env.step(
            _rng, state, action, params
        )

        rng, _rng = jax.random.split(rng)
        obs_re, state_re = self._env.reset(_rng, params)

        # Auto-reset environment based on termination
        def auto_reset(done, state_re, state_st, obs_re, obs_st):
            state = jax.tree_map(
                lambda x, y: jax.lax.select(done, x, y), state_re, state_st
            )
            obs = jax.lax.select(done, obs_re, obs_st)

            return obs, state

        obs, state = auto_reset(done, state_re, state_st, obs_re, obs_st)

        return obs, state, reward, done, info


class OptimisticResetVecEnvWrapper(GymnaxWrapper):
    """
    Provides efficient 'optimistic' resets.
    The wrapper also necessarily handles the batching of environment steps and resetting.
    reset_ratio: the number of environment workers per environment reset.  Higher means more efficient but a higher
    chance of duplicate resets.
    """

    def __init__(self, env, num_envs: int, reset_ratio: int):
        super().__init__(env)

        self.num_envs = num_envs
        self.reset_ratio = reset_ratio
        assert (
            num_envs % reset_ratio == 0
        ), "Reset ratio must perfectly divide num envs."
        self.num_resets = self.num_envs // reset_ratio

        self.reset_fn = jax.vmap(self._env.reset, in_axes=(0, None))
        self.step_fn = jax.vmap(self._env.step, in_axes=(0, 0, 0, None))

    @partial(jax.jit, static_argnums=(0, 2))
    def reset(self, rng, params=None):
        rng, _rng = jax.random.split(rng)
        rngs = jax.random.split(_rng, self.num_envs)
        obs, env_state = self.reset_fn(rngs, params)
        return obs, env_state

    @partial(jax.jit, static_argnums=(0, 4))
    def step(self, rng, state, action, params=None):

        rng, _rng = jax.random.split(rng)
        rngs = jax.random.split(_rng, self.num_envs)
        obs_st, state_st, reward, done, info = self.step_fn(rngs, state, action, params)

        rng, _rng = jax.random.split(rng)
        rngs = jax.random.split(_rng, self.num_resets)
        obs_re, state_re = self.reset_fn(rngs, params)

        rng, _rng = jax.random.split(rng)
        reset_indexes = jnp.arange(self.num_resets).repeat(self.reset_ratio)

        being_reset = jax.random.choice(
            _rng,
            jnp.arange(self.num_envs),
            shape=(self.num_resets,),
            p=done,
            replace=False,
        )
        reset_indexes = reset_indexes.at[being_reset].set(jnp.arange(self.num_resets))

        obs_re = obs_re[reset_indexes]
        state_re = jax.tree_map(lambda x: x[reset_indexes], state_re)

        # Auto-reset environment based on termination
        def auto_reset(done, state_re, state_st, obs_re, obs_st):
            state = jax.tree_map(
                lambda x, y: jax.lax.select(done, x, y), state_re, state_st
            )
            obs = jax.lax.select(done, obs_re, obs_st)

            return state, obs

        state, obs = jax.vmap(auto_reset)(done, state_re, state_st, obs_re, obs_st)

        return obs, state, reward, done, info


@struct.dataclass
class ThinkingEnvState:
    env_state: Any
    thinking_count: int
    last_obs: Any
    last_info: Any

class ThinkingWrapper(GymnaxWrapper):
    def __init__(self, env, env_action_dim: int, think_reward: float = -0.005):
        super().__init__(env)
        self.env_action_dim = int(env_action_dim)
        self.think_reward = float(think_reward)

    @partial(jax.jit, static_argnums=(0, 2))
    def reset(self, key, params=None):
        obs, inner_state = self._env.reset(key, params)

        info_template = {
            "returned_episode_returns": jnp.array(0.0,  jnp.float32),
            "returned_episode_lengths": jnp.array(0,    jnp.int32),
            "timestep":                jnp.array(0,    jnp.int32),
            "returned_episode":        jnp.array(False),
            "thinking_action":         jnp.array(False),
            "thinking_count":          jnp.array(0,    jnp.int32),
        }
        state = ThinkingEnvState(inner_state, 0, obs, info_template)
        return obs, state

    @partial(jax.jit, static_argnums=(0, 4))
    def step(self, key, state: ThinkingEnvState, action, params=None):
        is_think = action >= self.env_action_dim
        operand = (key, state, action, params)
        def _think(op):
            key, st, act, prm = op
            info = dict(st.last_info) 
            info["thinking_action"] = True
            info["thinking_count"]  = st.thinking_count + 1
            reward = jnp.asarray(self.think_reward, jnp.float32)
            done   = jnp.array(False)
            new_state = ThinkingEnvState(
                st.env_state, st.thinking_count + 1, st.last_obs, info
            )
            return st.last_obs, new_state, reward, done, info


        def _act(op):
            key, st, act, prm = op
            obs, inner_state, reward, done, info_inner = self._env.step(
                key, st.env_state, act, prm
            )

            info = dict(st.last_info)
            info["returned_episode_returns"]  = info_inner["returned_episode_returns"]
            info["returned_episode_lengths"]  = info_inner["returned_episode_lengths"]
            info["returned_episode"]          = info_inner["returned_episode"]
            info["timestep"]                  = info_inner["timestep"]
            info["thinking_action"]           = False
            info["thinking_count"]            = st.thinking_count

            new_state = ThinkingEnvState(
                inner_state, st.thinking_count, obs, info
            )
            return obs, new_state, reward, done, info

        return jax.lax.cond(is_think, _think, _act, operand)
    
@struct.dataclass
class LogEnvState:
    env_state: Any
    episode_returns: float
    episode_lengths: int
    returned_episode_returns: float
    returned_episode_lengths: int
    timestep: int


class LogWrapper(GymnaxWrapper):
    """Log the episode returns and lengths."""

    def __init__(self, env):
        super().__init__(env)

    @partial(jax.jit, static_argnums=0)
    def reset(self, key: chex.PRNGKey, params=None):
        obs, env_state = self._env.reset(key, params)
        state = LogEnvState(env_state, 0.0, 0, 0.0, 0, 0)
        return obs, state

    @partial(jax.jit, static_argnums=0)
    def step(
        self,
        key: chex.PRNGKey,
        state,
        action: Union[int, float],
        params=None,
    ):
        obs, env_state, reward, done, info = self._env.step(
            key, state.env_state, action, params
        )
        new_episode_return = state.episode_returns + reward
        new_episode_length = state.episode_lengths + 1
        state = LogEnvState(
            env_state=env_state,
            episode_returns=new_episode_return * (1 - done),
            episode_lengths=new_episode_length * (1 - done),
            returned_episode_returns=state.returned_episode_returns * (1 - done)
            + new_episode_return * done,
            returned_episode_lengths=state.returned_episode_lengths * (1 - done)
            + new_episode_length * done,
            timestep=state.timestep + 1,
        )
        info["returned_episode_returns"] = state.returned_episode_returns
        info["returned_episode_lengths"] = state.returned_episode_lengths
        info["timestep"] = state.timestep
        info["returned_episode"] = done
        return obs, state, reward, done, info


# ---- scaffolding: a small gymnax-style environment standing in for gymnax.make(config["ENV_NAME"]) ----
@struct.dataclass
class _EnvParams:  # scaffolding: gymnax EnvParams (python scalars, hashable)
    max_steps_in_episode: int = 5  # scaffolding
    step_size: float = 0.1  # scaffolding


@struct.dataclass
class _EnvState:  # scaffolding
    pos: jnp.ndarray  # scaffolding
    time: jnp.ndarray  # scaffolding


class _Discrete:  # scaffolding: gymnax spaces.Discrete
    def __init__(self, n):  # scaffolding
        self.n = n  # scaffolding


class _ToyEnv:  # scaffolding: reset/step signatures of a gymnax Environment
    default_params = _EnvParams()  # scaffolding

    def action_space(self, params):  # scaffolding
        return _Discrete(3)  # scaffolding

    def reset(self, key, params=None):  # scaffolding
        params = self.default_params if params is None else params  # scaffolding
        pos = jax.random.uniform(key, (4,), dtype=jnp.float32)  # scaffolding
        return pos, _EnvState(pos=pos, time=jnp.array(0, dtype=jnp.int32))  # scaffolding

    def step(self, key, state, action, params=None):  # scaffolding
        params = self.default_params if params is None else params  # scaffolding
        pos = state.pos + params.step_size * (action.astype(jnp.float32) - 1.0)  # scaffolding
        time = state.time + 1  # scaffolding
        reward = -jnp.sum(pos ** 2).astype(jnp.float32)  # scaffolding
        done = time >= params.max_steps_in_episode  # scaffolding
        return pos, _EnvState(pos=pos, time=time), reward, done, {}  # scaffolding


def _gymnax_make(name):  # scaffolding: gymnax.make
    env = _ToyEnv()  # scaffolding
    return env, env.default_params  # scaffolding


def FlattenObservationWrapper(env):  # scaffolding: gymnax's wrapper; observations are already flat here
    return env  # scaffolding


config = {"ENV_NAME": "toy", "R_THINK": -0.005, "NUM_ENVS": 4}  # scaffolding: the trainer's config keys used below
# ---- trainer_PPO_trXL.py, make_train(): the gymnax branch of the environment setup ----
env, env_params = _gymnax_make(config["ENV_NAME"])  # scaffolding: gymnax.make(config["ENV_NAME"])
action_dim_env = env.action_space(env_params).n 
env = FlattenObservationWrapper(env)
env = LogWrapper(env)
env = ThinkingWrapper(env, action_dim_env, config["R_THINK"])
env = BatchEnvWrapper(env,config["NUM_ENVS"])

def train(rng):  # scaffolding: make_train()'s train(rng), reduced to the environment interaction
        # Reset ENV
        rng, _rng = jax.random.split(rng)
        obsv, env_state =env.reset(_rng, env_params)

        def _env_step(runner_state, unused):  # scaffolding: the trainer's _env_step without the network and memories
            env_state, rng = runner_state  # scaffolding
            rng, _rng = jax.random.split(rng)  # scaffolding
            action = jax.random.randint(_rng, (config["NUM_ENVS"],), 0, action_dim_env + 1)  # scaffolding: random policy, thinking action included
            # STEP ENV
            rng, _rng = jax.random.split(rng)
            obsv, env_state, reward, done, info = env.step(
                _rng, env_state, action, env_params
            )
            return (env_state, rng), info["returned_episode_returns"]  # scaffolding

        runner_state, returns = jax.lax.scan(_env_step, (env_state, rng), None, config["NUM_STEPS"])  # scaffolding
        return returns  # scaffolding


config["NUM_STEPS"] = 8  # scaffolding
try:  # scaffolding
    train_jit = jax.jit(train)  # scaffolding: train_PPO_trXL.py jits make_train(config)
    out = train_jit(jax.random.PRNGKey(0))  # scaffolding
    out = train_jit(jax.random.PRNGKey(1))  # scaffolding: a second seed
    print("returns shape:", out.shape)  # scaffolding
    _report({"jit(train)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
