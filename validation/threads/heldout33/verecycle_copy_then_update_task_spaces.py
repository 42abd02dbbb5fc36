# source: https://github.com/SUMI-lab/VeRecycle/blob/46eb65bb279643cdebbe31cdddd2bea6795b0152/core/compositional_control.py
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: NineRooms.step_train is jitted with static self and reads self.target_space/self.unsafe_space, which update_task_spaces reassigns; but repair_policy always calls update_task_spaces on copy.copy(self.model), a new object with a new hash, so step_train is retraced for the copy and sees the added unsafe room.

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


import copy
from functools import partial
from itertools import product
from types import SimpleNamespace  # scaffolding

import jax
import jax.numpy as jnp
import numpy as np
from jax import jit


class gym:  # scaffolding: stand-in for gymnasium (not installed)
    class Env:
        pass


class spaces:  # scaffolding: stand-in for gymnasium.spaces
    class Box:
        def __init__(self, low, high, dtype=np.float32):
            self.low, self.high = np.asarray(low, dtype), np.asarray(high, dtype)
            self.shape = self.low.shape


class MultiRectangularSet:
    '''
    Class to create a set of rectangular sets.
    '''

    def __init__(self, sets):
        self.sets = sets
        self.dimension = sets[0].dimension
        self.change_dimensions = sets[0].change_dimensions

    @partial(jax.jit, static_argnums=(0))
    def jax_contains(self, xvector, delta=0):

        # bools[x] = 1 if x is contained in set
        bools = jnp.array([set.jax_contains(xvector, delta) for set in self.sets])

        # Point is contained if it is contained in any of the sets
        bools = jnp.any(bools, axis=0)

        return bools

    def distance_to_sets(self, rectangles):
        return np.min([rect.distance_to_sets(rectangles) for rect in self.sets])


class RectangularSet:
    '''
    Class to create a rectangular set with cheap containment checks (faster than gymnasium Box.contains).
    '''

    def __init__(self, low, high, change_dimensions=False, dtype=np.float32):

        self.low = np.array(low, dtype=dtype)
        self.high = np.array(high, dtype=dtype)
        self.gymspace = spaces.Box(low=low, high=high, dtype=dtype)
        self.dimension = len(self.low)
        self.volume = np.prod(self.high - self.low)
        if not change_dimensions:
            self.change_dimensions = np.ones_like(self.low)
        else:
            self.change_dimensions = np.ones_like(self.low)
            self.change_dimensions[np.array(change_dimensions)] = 0

    def distance_to_sets(self, rectangles):
        if isinstance(rectangles, RectangularSet):
            rectangles = MultiRectangularSet([rectangles])

        min_distance = np.inf
        for rectangle in rectangles.sets:
            d1 = self.low - rectangle.high
            d2 = rectangle.low - self.high

            u = np.max(np.array([np.zeros(len(d1)), d1]), axis=0)
            v = np.max(np.array([np.zeros(len(d2)), d2]), axis=0)

            dist = np.linalg.norm(np.concatenate([u, v]))
            min_distance = min(min_distance, dist)

        return min_distance

    @partial(jax.jit, static_argnums=(0,))
    def jax_contains(self, xvector, delta=0):
        '''
        Check if a vector of points is contained in the rectangular set.
        :param xvector: vector of points
        :param delta: expand by
        '''

        delta_dims = jnp.kron(delta, self.change_dimensions.reshape(-1, 1)).T

        bools = jnp.all(xvector >= self.low - delta_dims, axis=1) * \
                jnp.all(xvector <= self.high + delta_dims, axis=1)
        return bools


def map_to_subsets(unsafe_map, w, state_space, args):
    if args:
        init = args.target
        target = args.target
        layout = args.layout
    else:
        init = 0
        target = 1
        layout = 1

    # Flip the rows of the map array to match the coordinate system more easily.
    unsafe_map = unsafe_map[::-1]

    unsafe_rectangles = []
    min_x, min_y, max_x, max_y = state_space.low[0], state_space.low[1], state_space.high[0], state_space.high[1]
    for column in range(len(unsafe_map[0])):
        for row in range(len(unsafe_map)):
            x = column // 2
            y = row // 2
            if unsafe_map[row][column] == '+':
                unsafe_rectangles.append(RectangularSet(low=np.array([max(min_x, x - 3 * w), max(min_y, y - w)]),
                                                        high=np.array([min(max_x, x + 3 * w), min(max_y, y + w)]),
                                                        dtype=np.float32))
                unsafe_rectangles.append(RectangularSet(low=np.array([max(min_x, x - w), max(min_y, y - 3 * w)]),
                                                        high=np.array([min(max_x, x + w), min(max_y, y + 3 * w)]),
                                                        dtype=np.float32))
            elif unsafe_map[row][column] == '-':
                unsafe_rectangles.append(RectangularSet(low=np.array([max(min_x, x + 3 * w), max(min_y, y - w)]),
                                                        high=np.array([min(max_x, x + 1 - 3 * w), min(max_y, y + w)]),
                                                        dtype=np.float32))

            elif unsafe_map[row][column] == '|':
                unsafe_rectangles.append(RectangularSet(low=np.array([max(min_x, x - w), max(min_y, y + 3 * w)]),
                                                        high=np.array([min(max_x, x + w), min(max_y, y + 1 - 3 * w)]),
                                                        dtype=np.float32))
            elif unsafe_map[row][column] == 's':
                if layout == 1:
                    init_space = RectangularSet(low=np.array([0.48 + x, 0.48 + y]),
                                                high=np.array([0.52 + x, 0.52 + y]),
                                                dtype=np.float32)
                else:
                    init_space = RectangularSet(low=np.array([0.4 + x, 0.4 + y]), high=np.array([0.6 + x, 0.6 + y]),
                                                dtype=np.float32)
            elif unsafe_map[row][column] == 't':
                target_space = RectangularSet(low=np.array([0.4 + x, 0.4 + y]), high=np.array([0.6 + x, 0.6 + y]),
                                              dtype=np.float32)

    return init_space, target_space, MultiRectangularSet(unsafe_rectangles)


class NineRooms(gym.Env):

    def __init__(self, args=False):
        self.variable_names = ['x', 'y']
        self.args = args
        self.A = np.diag([1, 1])
        self.B = np.diag([0.1, 0.1])
        if args:
            self.W = np.diag([args.noise, args.noise])
        else:
            self.W = np.diag([0.01, 0.01])

        # Set dimensions
        self.state_dim = 2
        self.noise_dim = 2
        self.plot_dim = self.state_dim
        # Set state space
        low = np.array([0, 0], dtype=np.float32)
        high = np.array([3, 3], dtype=np.float32)
        self.state_space = RectangularSet(low=low, high=high, dtype=np.float32)
        # Set action space
        self.max_torque = np.array([1, 1])
        self.action_space = spaces.Box(low=-self.max_torque, high=self.max_torque, dtype=np.float32)
        # Set support of noise distribution (which is triangular, zero-centered)
        high = np.array([1, 1], dtype=np.float32)
        self.noise_space = spaces.Box(low=-high, high=high, dtype=np.float32)

        wall_thickness = 0.05

        task_map = (["+-+-+-+",
                     "|    t|",
                     "+-+ + +",
                     "|     |",
                     "+ +-+ +",
                     "|s    |",
                     "+-+-+-+"])

        self.init_space, self.target_space, self.unsafe_space = map_to_subsets(task_map, wall_thickness,
                                                                               self.state_space, args)
        self.init_unsafe_dist = self.init_space.distance_to_sets(self.unsafe_space)

        self.changed_spaces = {}

        self.num_steps_until_reset = 1000

        # Define vectorized functions
        self.vreset = jax.vmap(self.reset_jax, in_axes=0, out_axes=0)
        self.vstep = jax.vmap(self.step_train, in_axes=0, out_axes=0)
        self.vstep_deterministic = jax.vmap(self.step_base, in_axes=0, out_axes=0)

    def update_task_spaces(self, init=None, target=None, unsafe=None):
        if init is not None:
            self.init_space = init
        if target is not None:
            self.target_space = target
        if unsafe is not None:
            self.unsafe_space = unsafe

        self.init_unsafe_dist = self.init_space.distance_to_sets(self.unsafe_space)

        # Update vectorized functions for new task specification
        self.vreset = jax.vmap(self.reset_jax, in_axes=0, out_axes=0)
        self.vstep = jax.vmap(self.step_train, in_axes=0, out_axes=0)
        self.vstep_deterministic = jax.vmap(self.step_base, in_axes=0, out_axes=0)

        return

    @partial(jit, static_argnums=(0,))
    def sample_noise(self, key, size=None):
        return jax.random.triangular(key, self.noise_space.low * jnp.ones(2), jnp.zeros(self.noise_dim),
                                     self.noise_space.high * jnp.ones(2))

    @partial(jit, static_argnums=(0,))
    def step_base(self, state, u, w):
        '''
        Make a step in the dynamics. When defining a new environment, this the function that should be modified.
        '''
        u = jnp.clip(u, -self.max_torque, self.max_torque)
        state = jnp.matmul(self.A, state) + jnp.matmul(self.B, u) + jnp.matmul(self.W, w)

        return jnp.clip(state, self.state_space.low, self.state_space.high)

    @partial(jit, static_argnums=(0,))
    def step_train(self, state, key, u, steps_since_reset):
        # Split RNG key
        key, subkey = jax.random.split(key)

        # Sample noise value
        noise = self.sample_noise(subkey, size=(2,))

        goal_reached = self.target_space.jax_contains(jnp.array([state]))[0]
        fail = self.unsafe_space.jax_contains(jnp.array([state]))[0]
        costs = 5 * fail - 5 * goal_reached  # self.target_space.jax_distance_to_center(state) +

        # Propagate dynamics, unless the unsafe region has been entered and the crash argument is true.
        no_crash = 1 - fail * self.args.crash
        state = no_crash * self.step_base(state, u, noise) + (1 - no_crash) * state

        steps_since_reset += 1

        terminated = fail
        truncated = (steps_since_reset >= self.num_steps_until_reset)
        done = terminated | truncated
        state, key, steps_since_reset = self._maybe_reset(state, key, steps_since_reset, done)

        return state, key, steps_since_reset, -costs, terminated, truncated, {}

    def _maybe_reset(self, state, key, steps_since_reset, done):
        return jax.lax.cond(done, self._reset, lambda key: (state, key, steps_since_reset), key)

    def _reset(self, key):
        high = self.state_space.high
        low = self.state_space.low

        key, subkey = jax.random.split(key)
        new_state = jax.random.uniform(subkey, minval=low,
                                       maxval=high, shape=(self.state_dim,))

        steps_since_reset = 0

        return new_state, key, steps_since_reset

    def reset_jax(self, key):
        state, key, steps_since_reset = self._reset(key)

        return state, key, steps_since_reset


# scaffolding: the original task is simulated first (PPO / verification use model.vstep), then
# CompositionalControl.repair_policy adds a changed room to the unsafe set of a *copy* of the model.
args = SimpleNamespace(noise=0.01, crash=True, target=1, layout=1)
base_model = NineRooms(args)
states = jnp.array([[2.5, 0.5], [2.2, 0.8], [1.5, 1.5]])  # two points inside Room2, one in the centre room
keys = jax.random.split(jax.random.PRNGKey(0), 3)
u = jnp.zeros((3, 2))
t0 = jnp.zeros(3, dtype=jnp.int32)
_, _, _, _, term_before, _, _ = base_model.vstep(states, keys, u, t0)

room2 = RectangularSet(low=np.array([2.0, 0.0]), high=np.array([3.0, 1.0]))
changed = MultiRectangularSet([room2])
init, target = base_model.init_space, base_model.target_space

# Create copy of model with changed set added to unsafe set
model = copy.copy(base_model)
new_unsafe = MultiRectangularSet(base_model.unsafe_space.sets + changed.sets)
model.update_task_spaces(init=init, target=target, unsafe=new_unsafe)
_, _, _, _, term_after, _, _ = model.vstep(states, keys, u, t0)
print("terminated before:", term_before, "after:", term_after)  # scaffolding: the copy sees Room2 as unsafe
assert bool(term_after[0]) and bool(term_after[1]) and not bool(term_before[0])  # scaffolding
_report({"jit(step_train)"}, 2)  # scaffolding
