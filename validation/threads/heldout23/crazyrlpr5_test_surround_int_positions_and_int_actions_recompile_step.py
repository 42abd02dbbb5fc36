# source: https://github.com/ffelten/CrazyRL/pull/5
# expect: shape-churn at line 431
# runtime: COMPILES 3 CALLS 115
# why: test_surround builds the env with integer init_flying_pos, so reset gives int32 agents_locations that the first jitted step turns into weak float32, and later passes float actions after int ones: jit(step) compiles 3 times (int32 state, ~float32 state, float32 actions) over 115 steps.
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
# ffelten/CrazyRL PR #5 (merge 7de8ea45): the JAX Surround env and the PR's crazy_rl/test/test_jax.py::test_surround, which steps the jitted env.step from a Python loop
import dataclasses  # scaffolding
import functools
import time
from functools import partial
from typing_extensions import override

import jax
import jax.numpy as jnp
import numpy as np
from flax import struct  # scaffolding
from jax import jit, random, vmap


class jdc:  # scaffolding: jax_dataclasses not installed; flax.struct gives the same frozen pytree dataclass
    pytree_dataclass = staticmethod(struct.dataclass)  # scaffolding
    replace = staticmethod(dataclasses.replace)  # scaffolding


class spaces:  # scaffolding: gymnasium.spaces (not used by the run below)
    Space = Box = object  # scaffolding


@jdc.pytree_dataclass
class State:
    """State of the environment containing the modifiable variables.

    Jax is based on functional programming, this means we have to carry mutable variables along the way instead
    of hiding them as class members.
    In the same vein, the agents' states cannot be contained in a dictionary as it is not easily portable to GPU.
    Hence, we convert the dictionary of agents to arrays indexed from 0, based on the agent ids.
    """

    agents_locations: jnp.ndarray  # a 2D array containing x,y,z coordinates of each agent, indexed from 0.
    timestep: int  # represents the number of steps already done in the game.

    observations: jnp.ndarray  # array containing the current observation of each agent.
    rewards: jnp.ndarray  # array containing the current reward of each agent.
    terminations: jnp.ndarray  # array of booleans which are True if the agents have crashed.
    truncations: jnp.ndarray  # array of booleans which are True if the game reaches enough timesteps and ends.


class BaseParallelEnv:
    """The Base environment.

    The main API methods of this class is step.

    They are defined in this main environment and the following compute methods must be implemented in child env:
        action_space: Returns the Space object corresponding to valid actions for one agent.
        observation_space: Returns the Space object corresponding to valid observations for one agent.
        _compute_obs: Computes the current observation of the environment from a given state.
        _transition_state: Transitions the state based on the mechanics of the environment, for example makes the
                           target move and sanitize the actions.
        _compute_reward: Computes the current reward value(s) from a given state.
        _compute_terminated: Computes if the game must be stopped because the agents crashed from a given state.
        _compute_truncation: Computes if the game must be stopped because it is too long from a given state.
        reset: Resets the environment in initial state.
        auto_reset: Returns the State reinitialized if needed, else the actual State.
        state_to_dict: Translates the State into a dict.
        step_vmap: Used to vmap step, takes the values of the state and calls step with a new State object containing
                   the state values.
        state: Returns a global observation (concatenation of all the agent locations and the target locations).

    There are also the following functions:
        _sanitize_action: Makes the actions passed to step fit the environment, e.g. avoid making brutal moves.
    """

    @functools.lru_cache(maxsize=None)
    def observation_space(self, agent: int) -> spaces.Space:
        """Returns the observation space of the environment. Must be implemented in a subclass."""
        raise NotImplementedError

    @functools.lru_cache(maxsize=None)
    def action_space(self, agent: int) -> spaces.Space:
        """Returns the action space of the environment. Must be implemented in a subclass."""
        raise NotImplementedError

    def _compute_obs(self, state: State) -> State:
        """Computes the current observation of the environment from a given state. Must be implemented in a subclass."""
        raise NotImplementedError

    def _transition_state(self, state: State, actions: jnp.ndarray, key: jnp.ndarray) -> State:
        """Transitions the state based on the mechanics of the environment, for example makes the target move and sanitize the actions. Must be implemented in a subclass."""
        raise NotImplementedError

    @partial(jit, static_argnums=(0,))
    def _sanitize_action(self, state: State, actions: jnp.ndarray) -> jnp.ndarray:
        """Makes the actions passed to step fit the environment, e.g. avoid making brutal moves.

        Args:
            state : the state of the environment (contains agent_location used in this function).
            actions : 2D array containing the x, y, z action for each drone.
        """
        # Actions are clipped to stay in the map and scaled to do max 20cm in one step
        return jnp.clip(state.agents_locations + actions * 0.2, jnp.array([-self.size, -self.size, 0]), self.size)

    def _compute_reward(self, state: State) -> State:
        """Computes the current reward value(s) from a given state. Must be implemented in a subclass."""
        raise NotImplementedError

    def _compute_terminated(self, state: State) -> State:
        """Computes if the game must be stopped because the agents crashed from a given state. Must be implemented in a subclass."""
        raise NotImplementedError

    def _compute_truncation(self, state: State) -> State:
        """Computes if the game must be stopped because it is too long form a given state. Must be implemented in a subclass."""
        raise NotImplementedError

    def reset(self, key: jnp.ndarray) -> State:
        """Resets the environment in initial state. Must be implemented in a subclass."""
        raise NotImplementedError

    def auto_reset(self, **state) -> State:
        """Returns the State reinitialized if needed, else the actual State. Must be implemented in a subclass.

        The values contained by State are passed in argument and used like a dictionary
        because auto_reset is meant to be used by vmap and vmap doesn't accept objects.

        This function handles states like a dictionary, see also the pydoc of step_vmap.
        """
        raise NotImplementedError

    def step_vmap(self, action: jnp.ndarray, key: jnp.ndarray, **state_val) -> State:
        """Used to vmap step.

         Takes the values of the state and calls step with a new State object containing
         the state values. Must be implemented in a subclass.

         JAX's vmap cannot operate on array-of-structs, but can operate on struct-of-arrays,
         so the states actually contain array of arrays after vmap. Our solution to this is
         to convert the struct into a dictionary of array of arrays and plug it into the vmapped
         function as kwargs. This way, each value of the kwargs (the state members) will be
         processed as a regular array.

        Args:
            action: 2D array containing the x, y, z action for each drone.
            key : JAX PRNG key.
            **state_val: Different values contained in the State.
        """
        raise NotImplementedError

    def state_to_dict(self, state: State) -> dict:
        """Translates the State into a dict. Must be implemented in a subclass."""
        raise NotImplementedError

    def state(self, state: State) -> jnp.ndarray:
        """Returns a global observation (concatenation of all the agent locations and target locations). Must be implemented in a subclass."""
        raise NotImplementedError

    @partial(jit, static_argnums=(0,))
    def step(self, state: State, actions: jnp.ndarray, key: jnp.ndarray) -> State:
        """Computes one step for the environment, in response to the actions of the drones."""
        state = jdc.replace(state, timestep=state.timestep + 1)

        state = self._transition_state(state, actions, key)

        state = self._compute_truncation(state)
        state = self._compute_terminated(state)
        state = self._compute_reward(state)
        state = self._compute_obs(state)

        return state


@jdc.pytree_dataclass
class State(State):
    """State of the environment containing the modifiable variables."""

    agents_locations: jnp.ndarray  # a 2D array containing x,y,z coordinates of each agent, indexed from 0.
    timestep: int  # represents the number of steps already done in the game

    observations: jnp.ndarray  # array containing the current observation of each agent
    rewards: jnp.ndarray  # array containing the current reward of each agent
    terminations: jnp.ndarray  # array of booleans which are True if the agents have crashed
    truncations: jnp.ndarray  # array of booleans which are True if the game reaches 100 timesteps


class Surround(BaseParallelEnv):
    """A Parallel Environment where drone learn how to surround a target point."""

    def __init__(
        self,
        num_drones: int,
        init_flying_pos: jnp.ndarray,
        target_location: jnp.ndarray,
        size: int = 3,
    ):
        """Surround environment for Crazyflies 2.

        Args:
            num_drones: Number of drones
            init_flying_pos: Array of initial positions of the drones when they are flying
            target_location: Array of the position of the target point
            size: Size of the map in meters
        """
        self.num_drones = num_drones

        self._target_location = target_location  # unique target location for all agents

        self._init_flying_pos = init_flying_pos

        self.size = size

    @override
    def observation_space(self, agent: int) -> spaces.Space:
        return spaces.Box(
            low=np.tile(np.array([-self.size, -self.size, 0], dtype=np.float32), self.num_drones + 1),
            high=np.tile(np.array([self.size, self.size, self.size], dtype=np.float32), self.num_drones + 1),
            shape=(3 * (self.num_drones + 1),),  # coordinates of the drones and the target
            dtype=jnp.float32,
        )

    @override
    def action_space(self, agent: int) -> spaces.Space:
        return spaces.Box(low=-1 * np.ones(3, dtype=np.float32), high=np.ones(3, dtype=np.float32), dtype=np.float32)

    @override
    @partial(jit, static_argnums=(0,))
    def _compute_obs(self, state: State) -> State:
        return jdc.replace(
            state,
            observations=jnp.append(
                # each row contains the location of one agent and the location of the target
                jnp.column_stack((state.agents_locations, jnp.tile(self._target_location, (self.num_drones, 1)))),
                # then we add agents_locations to each row without the agent which is already in the row
                # and make it only one dimension
                jnp.array([jnp.delete(state.agents_locations, agent, axis=0).flatten() for agent in range(self.num_drones)]),
                axis=1,
            ),
        )

    @override
    @partial(jit, static_argnums=(0,))
    def _transition_state(self, state: State, actions: jnp.ndarray, key: jnp.ndarray) -> State:
        return jdc.replace(state, agents_locations=self._sanitize_action(state, actions))

    @override
    @partial(jit, static_argnums=(0,))
    def _compute_reward(self, state: State) -> State:
        # Reward is the mean distance to the other agents plus a maximum value minus the distance to the target

        return jdc.replace(
            state,
            rewards=jnp.any(state.truncations)
            * (
                jnp.array(
                    [  # mean distance to the other agents
                        jnp.sum(jnp.linalg.norm(state.agents_locations[agent] - state.agents_locations, axis=1))
                        for agent in range(self.num_drones)
                    ]
                )
                * 0.05
                / (self.num_drones - 1)
                # a maximum value minus the distance to the target
                + 0.95 * (2 * self.size - jnp.linalg.norm(state.agents_locations - self._target_location, axis=1))
            )
            # negative reward if the drones crash
            + jnp.any(state.terminations) * (1 - jnp.any(state.truncations)) * -10 * jnp.ones(self.num_drones),
        )

    @override
    @partial(jit, static_argnums=(0,))
    def _compute_terminated(self, state: State) -> State:
        # collision with the ground and the target
        terminated = jnp.logical_or(
            state.agents_locations[:, 2] < 0.2, jnp.linalg.norm(state.agents_locations - self._target_location, axis=1) < 0.2
        )

        for agent in range(self.num_drones):
            distances = jnp.linalg.norm(state.agents_locations[agent] - state.agents_locations, axis=1)

            # collision between two drones
            terminated = terminated.at[agent].set(
                jnp.logical_or(terminated[agent], jnp.any(jnp.logical_and(distances > 0.001, distances < 0.2)))
            )

        return jdc.replace(state, terminations=jnp.any(terminated) * jnp.ones(self.num_drones))

    @override
    @partial(jit, static_argnums=(0,))
    def _compute_truncation(self, state: State) -> State:
        return jdc.replace(state, truncations=(state.timestep == 100) * jnp.ones(self.num_drones))

    @override
    @partial(jit, static_argnums=(0,))
    def reset(self, key: jnp.ndarray) -> State:
        state = State(
            agents_locations=self._init_flying_pos,
            timestep=0,
            observations=jnp.array([]),
            rewards=jnp.zeros(self.num_drones),
            terminations=jnp.zeros(self.num_drones),
            truncations=jnp.zeros(self.num_drones),
        )
        state = self._compute_obs(state)
        return state

    @override
    @partial(jit, static_argnums=(0,))
    def auto_reset(self, **state) -> State:
        done = jnp.min(jnp.array([jnp.any(state["truncations"]) + jnp.any(state["terminations"]), 1]))

        state = State(
            agents_locations=done * self._init_flying_pos + (1 - done) * state["agents_locations"],
            timestep=(1 - done) * state["timestep"],
            observations=state["observations"],
            rewards=(1 - done) * state["rewards"],
            terminations=(1 - done) * state["terminations"],
            truncations=(1 - done) * state["truncations"],
        )
        state = self._compute_obs(state)
        return state

    @override
    @partial(jit, static_argnums=(0,))
    def state_to_dict(self, state: State) -> dict:
        return {
            "agents_locations": state.agents_locations,
            "timestep": state.timestep,
            "observations": state.observations,
            "rewards": state.rewards,
            "terminations": state.terminations,
            "truncations": state.truncations,
        }

    @override
    @partial(jit, static_argnums=(0,))
    def step_vmap(self, action: jnp.ndarray, key: jnp.ndarray, **state_val) -> State:
        return self.step(State(**state_val), action, key)

    @override
    @partial(jit, static_argnums=(0,))
    def state(self, state: State) -> jnp.ndarray:
        return jnp.append(state.agents_locations.flatten(), self._target_location)


# crazy_rl/test/test_jax.py (helpers and test_surround)
def two_drones_crash(parallel_env, key):
    """Test where two drones starting on (0, 0, 1), (0, 1, 1) crash together."""
    state = parallel_env.reset(key)

    state, key = move(parallel_env, state, key, jnp.array([[0, 1, 0], [0, -1, 0]]))

    assert (state.agents_locations == jnp.array([[0, 0.2, 1], [0, 0.8, 1]])).all()

    state, key = move(parallel_env, state, key, jnp.array([[0, 1, 0], [0, -1, 0]]))

    assert not state.terminations.any()

    state, key = move(parallel_env, state, key, jnp.array([[0, 1, 0], [0, -1, 0]]))

    # the drones crash
    assert state.terminations.all()

    assert (state.rewards == jnp.array([-10, -10])).all()

    return state


def crash_ground(parallel_env, key):
    """Test where the first drone, starting on (0, 0, 1), crashes on the ground."""
    state = parallel_env.reset(key)

    state, key = move(parallel_env, state, key, jnp.array([[0, 0, -1], [0, 0, 0]]), 4)  # position = [0, 0, 0.2] (0.20003)

    state, key = move(parallel_env, state, key, jnp.array([[0, 0, -0.01], [0, 0, 0]]))  # position = [0, 0, 0.2] (just below)

    # the drone crashes on the ground
    assert state.terminations.all()

    return state


def leave_the_map(parallel_env, key):
    """Test where the second drone, starting on (0, 1, 1) tries to leave the map, and they stay alive until the
    end of the round."""
    state = parallel_env.reset(key)

    state, key = move(parallel_env, state, key, jnp.array([[0, 0, 0], [0, 1, 0]]), 10)

    # the drone stays in the map
    assert state.agents_locations[1, 1] <= 3

    state, key = wait(parallel_env, state, key, 90)

    # the game ends after 100 timesteps
    assert state.truncations.all()

    return state


def move(parallel_env, state, key, actions, iterations=1):
    for i in range(iterations):
        key, subkey = random.split(key)
        state = parallel_env.step(state, actions, subkey)
    return state, key


def wait(parallel_env, state, key, iterations=1):
    return move(parallel_env, state, key, jnp.array([[0, 0, 0], [0, 0, 0]]), iterations)


def test_surround():
    """Test for the Surround environment in jax version."""
    parallel_env = Surround(
        num_drones=2,
        init_flying_pos=jnp.array([[0, 0, 1], [0, 1, 1]]),
        target_location=jnp.array([[1, 1, 2.5]]),
    )

    seed = 5

    key = random.PRNGKey(seed)

    # 1st round : the two drones crash

    key, subkey = random.split(key)
    state = two_drones_crash(parallel_env, subkey)

    # 2nd round : one drone crashes with the target

    key, subkey = random.split(key)
    state = parallel_env.reset(subkey)

    state, key = move(parallel_env, state, key, jnp.array([[0, 0, 0], [1, 0, 1]]))  # position = [0.2, 1, 1.2]

    assert (state.observations == jnp.array([[0, 0, 1, 1, 1, 2.5, 0.2, 1, 1.2], [0.2, 1, 1.2, 1, 1, 2.5, 0, 0, 1]])).all()

    state, key = move(parallel_env, state, key, jnp.array([[0, 0, 0], [1, 0, 1]]), 4)  # position = [1, 1, 2]

    state, key = move(parallel_env, state, key, jnp.array([[0, 0, 0], [0, 0, 1]]), 2)  # position = [1, 1, 2.4]

    # the drone crashes in the target
    assert state.terminations.all()

    # 3rd round : one drone crashes with the ground

    key, subkey = random.split(key)
    state = crash_ground(parallel_env, subkey)

    # 4th round : the drones never crash and one tries to leave the map

    key, subkey = random.split(key)
    state = leave_the_map(parallel_env, subkey)


calls = 0  # scaffolding
_step = Surround.step  # scaffolding: count env.step calls


def _counted_step(self, *a):  # scaffolding
    global calls  # scaffolding
    calls += 1  # scaffolding
    return _step(self, *a)  # scaffolding


Surround.step = _counted_step  # scaffolding
test_surround()  # scaffolding
_report({"jit(step)"}, calls)  # scaffolding
