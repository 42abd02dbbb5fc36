# source: https://github.com/smearle/pcgrl-jax/commit/ffd3dab9d2e8035e5dfaf60fb4eedfbe8ed369fd
# expect: unhashable-static at line 197
# runtime: ERROR ValueError
# why: step_env marks env_params (argnum 4) static, but Environment.step is itself jitted and passes params through as a traced pytree, so the struct.dataclass holds tracers and hashing it for the static argument raises ValueError.
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




from enum import IntEnum
from functools import partial
import math
from typing import Optional, Tuple, Union

import chex
from flax import struct
import jax
import jax.numpy as jnp
import numpy as np

EnvParams = EnvState = object  # scaffolding: gymnax annotations


class GymnaxEnvironment:  # scaffolding: stand-in for gymnax.environments.environment.Environment (its discount(), as in gymnax)
    def discount(self, state, params):  # scaffolding
        return jax.lax.select(self.is_terminal(state, params), 0.0, 1.0)  # scaffolding


RepresentationState = ProblemState = object  # scaffolding: annotations


# envs/env.py
class Environment(GymnaxEnvironment):
    @partial(jax.jit, static_argnums=(0,))
    def step(
        self,
        key: chex.PRNGKey,
        state: EnvState,
        action: Union[int, float],
        params: Optional[EnvParams] = None,
    ) -> Tuple[chex.Array, EnvState, float, bool, dict]:
        """Performs step transitions in the environment."""
        # Use default env parameters if no others specified
        if params is None:
            params = self.default_params
        key, key_reset = jax.random.split(key)
        obs_st, state_st, reward, done, info = self.step_env(
            key, state, action, params
        )
        obs_re, state_re = self.reset_env(key_reset, params, queued_state=state.queued_state)
        # Auto-reset environment based on termination
        state = jax.tree.map(
            lambda x, y: jax.lax.select(done, x, y), state_re, state_st
        )
        # obs = jax.lax.select(done, obs_re, obs_st)
        # Generalizing this to flax dataclass observations
        obs = jax.tree.map(
            lambda x, y: jax.lax.select(done, x, y), obs_re, obs_st
        )
        return obs, state, reward, done, info


# envs/pcgrl_env.py
BinaryProblem = MazeProblem = DungeonProblem = Dungeon2Problem = MazePlayProblem = None  # scaffolding: problem classes (only named in PROB_CLASSES)
class ProbEnum(IntEnum):
    BINARY = 0
    MAZE = 1
    DUNGEON = 2
    MAZE_PLAY = 3
    DUNGEON2 = 4

PROB_CLASSES = {
    ProbEnum.BINARY: BinaryProblem,
    ProbEnum.MAZE: MazeProblem,
    ProbEnum.DUNGEON: DungeonProblem,
    ProbEnum.DUNGEON2: Dungeon2Problem,
    ProbEnum.MAZE_PLAY: MazePlayProblem,
}

class RepEnum(IntEnum):
    NARROW = 0
    TURTLE = 1
    WIDE = 2
    NCA = 3
    PLAYER = 4


# FIXME: This is a hack to allow backward compatibility, reloading models from
#   before we added the option to queue maps for use at env reset.
@struct.dataclass
class OldQueuedState:
    has_queued_ctrl_trgs: bool = False
    ctrl_trgs: Optional[chex.Array] = None
    has_queued_frz_map: bool = False
    frz_map: Optional[chex.Array] = None
    # has_queued_map: Optional[bool] = False
    # map: Optional[chex.Array] = None

@struct.dataclass
class QueuedState:
    has_queued_ctrl_trgs: bool = False
    ctrl_trgs: Optional[chex.Array] = None
    has_queued_frz_map: bool = False
    frz_map: Optional[chex.Array] = None
    has_queued_map: bool = False
    map: Optional[chex.Array] = None
### END FIXME ##################################################################


@struct.dataclass
class PCGRLEnvState:
    env_map: chex.Array
    static_map: chex.Array
    rep_state: RepresentationState
    prob_state: Optional[ProblemState] = None
    step_idx: int = 0
    reward: np.float32 = 0.0
    pct_changed: np.float32 = 0.0
    done: bool = False
    queued_state: Optional[QueuedState] = None


@struct.dataclass
class PCGRLObs:
    map_obs: chex.Array
    flat_obs: chex.Array


@struct.dataclass
class PCGRLEnvParams:
    multiagent: bool = False
    problem: int = ProbEnum.BINARY
    representation: int = RepEnum.NARROW
    map_shape: Tuple[int, int] = (16, 16)
    act_shape: Tuple[int, int] = (1, 1)
    rf_shape: Tuple[int, int] = (31, 31)
    static_tile_prob: Optional[float] = 0.0
    n_freezies: int = 0
    n_agents: int = 1
    max_board_scans: float = 3.0
    ctrl_metrics: Tuple = ()
    change_pct: float = -1.0
    randomize_map_shape: bool = False
    empty_start: bool = False
    full_start: bool = False
    a_freezer: bool = False
    reward_freq: int = 1
    pinpoints: bool = False
    flatten_obs: bool = False



class PCGRLEnv(Environment):
    pinpoints = False

    def __init__(self, env_params: PCGRLEnvParams):  # scaffolding: __init__ cut; problem and representation replaced by stand-ins
        self.multiagent = env_params.multiagent
        self.map_shape = env_params.map_shape
        self.rep = _StandInNarrowRep(env_params.map_shape)  # scaffolding
        self.prob = _StandInBinaryProblem()  # scaffolding

    @partial(jax.jit, static_argnames=('self',))
    def reset_env(self, rng, env_params: PCGRLEnvParams, queued_state: QueuedState):  # scaffolding: stand-in for reset_env (random binary map, no frozen tiles)
        env_map = jax.random.bernoulli(rng, 0.5, self.map_shape).astype(jnp.int32)  # scaffolding
        frz_map = jnp.zeros(self.map_shape, dtype=bool)  # scaffolding
        rep_state = self.rep.reset()  # scaffolding
        _, prob_state = self.prob.step(env_map, None)  # scaffolding
        obs = self.get_obs(env_map=env_map, frz_map=frz_map, rep_state=rep_state, prob_state=prob_state)  # scaffolding
        return obs, PCGRLEnvState(env_map=env_map, static_map=frz_map, rep_state=rep_state, prob_state=prob_state,  # scaffolding
                                  step_idx=0, done=False, queued_state=queued_state)  # scaffolding

    def get_obs(self, env_map, frz_map, rep_state, prob_state):
        rep_obs = self.rep.get_obs(env_map, frz_map, rep_state)
        prob_obs = self.prob.observe_ctrls(prob_state)
        obs = PCGRLObs(map_obs=rep_obs, flat_obs=prob_obs)
        return obs

    @partial(jax.jit, static_argnums=(0, 4))
    def step_env(self, rng, env_state: PCGRLEnvState, action, env_params: PCGRLEnvParams):
        action = action[..., None]
        # if self.n_agents == 1:
        if not self.multiagent:
            action = action[0]
        env_map, rep_state = self.rep.step(
            env_map=env_state.env_map, action=action,
            rep_state=env_state.rep_state, step_idx=env_state.step_idx
        )
        env_map = jnp.where(env_state.static_map == 1,
                            env_state.env_map, env_map,
        )
        n_tiles_changed = jnp.sum(jnp.where(env_map != env_state.env_map, 1, 0))
        map_changed = n_tiles_changed > 0
        pct_changed = n_tiles_changed / math.prod(self.map_shape)
        pct_changed = env_state.pct_changed + pct_changed
        reward, prob_state = jax.lax.cond(
            jnp.logical_and(map_changed, (env_state.step_idx % env_params.reward_freq == 0)),
            lambda env_map: self.prob.step(env_map, env_state.prob_state),
            lambda _: (0., env_state.prob_state),
            env_map,
        )
        obs = self.get_obs(
            env_map=env_map, frz_map=env_state.static_map,
            rep_state=rep_state, prob_state=prob_state)
        done = self.is_terminal(env_state, env_params)
        step_idx = env_state.step_idx + 1
        env_state = PCGRLEnvState(
            env_map=env_map, static_map=env_state.static_map,
            rep_state=rep_state, done=done, reward=reward,
            prob_state=prob_state, step_idx=step_idx, pct_changed=pct_changed, queued_state=env_state.queued_state)

        return (
            jax.lax.stop_gradient(obs),
            jax.lax.stop_gradient(env_state),
            reward,
            done,
            {"discount": self.discount(env_state, env_params)},
        )

    def is_terminal(self, state: PCGRLEnvState, params: PCGRLEnvParams) \
            -> bool:
        """Check whether state is terminal."""
        done = state.step_idx >= (self.rep.max_steps - 1)
        done = jnp.logical_or(done, jnp.logical_and(
            params.change_pct > 0, state.pct_changed >= params.change_pct))
        return done

    @property
    def default_params(self) -> PCGRLEnvParams:
        return PCGRLEnvParams(map_shape=(16, 16))


class _StandInNarrowRep:  # scaffolding: NarrowRepresentation cut to a cursor that writes the action at its position
    max_steps = 8  # scaffolding

    def __init__(self, map_shape):  # scaffolding
        self.map_shape = map_shape  # scaffolding

    def reset(self):  # scaffolding
        return jnp.array(0, dtype=jnp.int32)  # scaffolding

    def step(self, env_map, action, rep_state, step_idx):  # scaffolding
        pos = jnp.unravel_index(rep_state % math.prod(self.map_shape), self.map_shape)  # scaffolding
        return env_map.at[pos].set(action.reshape(-1)[0]), rep_state + 1  # scaffolding

    def get_obs(self, env_map, frz_map, rep_state):  # scaffolding
        return env_map[..., None].astype(jnp.float32)  # scaffolding


class _StandInBinaryProblem:  # scaffolding: BinaryProblem cut to a fill-ratio reward
    def step(self, env_map, prob_state):  # scaffolding
        fill = jnp.mean(env_map.astype(jnp.float32))  # scaffolding
        return fill, fill  # scaffolding

    def observe_ctrls(self, prob_state):  # scaffolding
        return jnp.atleast_1d(prob_state)  # scaffolding


env_params = PCGRLEnvParams(map_shape=(8, 8))  # scaffolding: a small map
env = PCGRLEnv(env_params)  # scaffolding
rng = jax.random.PRNGKey(0)  # scaffolding
obs, env_state = env.reset_env(rng, env_params, QueuedState())  # scaffolding: Environment.reset calls reset_env
calls = 0  # scaffolding
try:  # scaffolding
    for t in range(4):  # scaffolding: a short rollout, as the training loop steps the env
        rng, _rng = jax.random.split(rng)  # scaffolding
        action = jax.random.randint(_rng, (1, 1, 1), 0, 2)  # scaffolding: one agent, a (1, 1) action patch
        obs, env_state, reward, done, info = env.step(_rng, env_state, action, env_params)  # scaffolding
        calls += 1  # scaffolding
    print(float(reward))  # scaffolding
    _report({"jit(step)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
