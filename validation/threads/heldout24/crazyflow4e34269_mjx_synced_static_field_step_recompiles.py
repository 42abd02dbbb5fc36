# source: https://github.com/learnsyslab/crazyflow/commit/4e34269aa5e4abc748101ef5593d1f9e9d5a13f2
# expect: changing-static at line 67
# runtime: COMPILES 2 CALLS 6
# why: mjx_synced is a static (pytree_node=False) field of the SimData passed to the jitted step; contacts() syncs MuJoCo and flips it to True while step flips it back to False, so the second step sees a different static value and compiles again (2 compiles, cache size 2).

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


from functools import partial, wraps
from typing import Any, Callable

import jax
import jax.numpy as jnp
from flax.struct import dataclass, field
from jax import Array, Device


# --- crazyflow/sim/structs.py (before the commit; SimStateDeriv/SimControls/SimParams cut) ---
@dataclass
class SimState:
    pos: Array  # (N, M, 3)
    """Position of the drone's center of mass."""
    vel: Array  # (N, M, 3)
    """Velocity of the drone's center of mass in the world frame."""

    @staticmethod
    def create(n_worlds: int, n_drones: int, device: Device) -> "SimState":
        """Create a default set of states for the simulation."""
        pos = jnp.zeros((n_worlds, n_drones, 3), device=device)  # scaffolding: the other state fields are cut
        vel = jnp.zeros((n_worlds, n_drones, 3), device=device)  # scaffolding
        return SimState(pos=pos.at[..., 2].set(0.05), vel=vel)  # scaffolding: start just above the floor


@dataclass
class SimCore:
    freq: int = field(pytree_node=False)
    """Frequency of the simulation."""
    steps: Array  # (N, 1)
    """Simulation steps taken since the last reset."""
    n_worlds: int = field(pytree_node=False)
    """Number of worlds in the simulation."""
    n_drones: int = field(pytree_node=False)
    """Number of drones in the simulation."""
    drone_ids: Array  # (1, M)
    """MuJoCo IDs of the drones in the simulation."""
    rng_key: Array  # (N, 1)
    """Random number generator key for the simulation."""
    mjx_synced: bool = field(pytree_node=False)
    """Whether the simulation data is synchronized with the MuJoCo model."""

    @staticmethod
    def create(
        freq: int,
        n_worlds: int,
        n_drones: int,
        drone_ids: Array,
        rng_key: int | Array,
        device: Device,
    ) -> "SimCore":
        """Create a default set of core simulation parameters."""
        steps = jnp.zeros((n_worlds, 1), dtype=jnp.int32, device=device)
        if isinstance(rng_key, int):  # Only convert to an PRNG key if its not already one
            rng_key = jax.random.key(rng_key)
        rng_key = jax.device_put(rng_key, device)
        return SimCore(
            freq=freq,
            steps=steps,
            n_worlds=n_worlds,
            n_drones=n_drones,
            drone_ids=jnp.array(drone_ids, dtype=jnp.int32, device=device),
            rng_key=rng_key,
            mjx_synced=False,
        )


@dataclass
class SimData:
    states: SimState
    """State of the simulation."""
    core: SimCore
    """Core parameters of the simulation."""


@dataclass
class MjxData:  # scaffolding: stand-in for mujoco.mjx.Data (mujoco is not installed)
    qpos: Array  # scaffolding
    contact_dist: Array  # scaffolding


# --- crazyflow/sim/sim.py (before the commit; rendering, controls and the MuJoCo model build cut) ---
def requires_mujoco_sync(fn: Callable[[SimData], SimData]) -> Callable[[SimData], SimData]:
    """Decorator to ensure that the simulation data is synchronized with the MuJoCo mjx data."""

    @wraps(fn)
    def wrapper(sim: "Sim", *args: Any, **kwargs: Any) -> SimData:
        if not sim.data.core.mjx_synced:
            sim.data, sim.mjx_data = sync_sim2mjx(sim.data, sim.mjx_data, sim.mjx_model)
        return fn(sim, *args, **kwargs)

    return wrapper


class Sim:
    def __init__(self, n_worlds: int = 1, n_drones: int = 1, freq: int = 500, device: str = "cpu", rng_key: int = 0):
        self.device = jax.devices(device)[0]
        self.n_worlds = n_worlds
        self.n_drones = n_drones
        self.freq = freq
        self.mjx_model = None  # scaffolding: no MuJoCo model
        self.mjx_data = MjxData(qpos=jnp.zeros((n_worlds, 7 * n_drones)), contact_dist=jnp.ones((n_worlds,)))  # scaffolding
        self.data = self.init_data(rng_key)
        # Build the simulation pipeline and overwrite the default _step implementation with it
        self.step_pipeline: tuple[Callable[[SimData], SimData], ...] = tuple()
        self.step_pipeline += (gravity_euler,)  # scaffolding: stands in for control, wrench and integrate fns
        self.step_pipeline += (clip_floor_pos,)
        self.build_step_fn()

    def step(self, n_steps: int = 1):
        """Simulate all drones in all worlds for n time steps."""
        assert n_steps > 0, "Number of steps must be positive"
        self.data = self._step(self.data, n_steps=n_steps)

    def build_step_fn(self):
        """Setup the chain of functions that are called in Sim.step().

        We know all the functions that are called in succession since the simulation is configured
        at initialization time. Instead of branching through options at runtime, we construct a step
        function at initialization that selects the correct functions based on the settings.
        """
        pipeline = self.step_pipeline

        # None is required by jax.lax.scan to unpack the tuple returned by single_step.
        def single_step(data: SimData, _: None) -> tuple[SimData, None]:
            for fn in pipeline:
                data = fn(data)
            return data, None

        # Having n_steps as a static argument is fine, since patterns with n_steps > 1 will almost
        # always use the same n_steps value for successive calls.
        @partial(jax.jit, static_argnames="n_steps")
        def step(data: SimData, n_steps: int = 1) -> SimData:
            data, _ = jax.lax.scan(single_step, data, length=n_steps, unroll=1)
            data = data.replace(core=data.core.replace(mjx_synced=False))  # Flag mjx data as stale
            return data

        self._step = step

    def init_data(self, rng_key: Array) -> SimData:
        """Initialize the simulation data."""
        drone_ids = [1 + i for i in range(self.n_drones)]  # scaffolding: MuJoCo body ids
        N, D = self.n_worlds, self.n_drones
        data = SimData(
            states=SimState.create(N, D, self.device),
            core=SimCore.create(self.freq, N, D, drone_ids, rng_key, self.device),
        )
        return data

    @requires_mujoco_sync
    def contacts(self, body: str | None = None) -> Array:
        """Get contact information from the simulation."""
        return self.mjx_data.contact_dist < 0  # scaffolding: mjx_data._impl.contact.dist < 0


@jax.jit
def sync_sim2mjx(data: SimData, mjx_data: MjxData, mjx_model: Any) -> tuple[SimData, MjxData]:
    """Synchronize the simulation data with the MuJoCo model."""
    pos = data.states.pos  # scaffolding: quaternions, velocities and mjx.kinematics/collision are cut
    qpos = jnp.concatenate([pos, jnp.zeros(pos.shape[:-1] + (4,))], axis=-1).reshape(pos.shape[0], -1)  # scaffolding
    mjx_data = mjx_data.replace(qpos=qpos, contact_dist=jnp.min(pos[..., 2], axis=-1) - 0.01)  # scaffolding
    data = data.replace(core=data.core.replace(mjx_synced=True))
    return data, mjx_data


def gravity_euler(data: SimData) -> SimData:  # scaffolding: stand-in physics, free fall with explicit Euler
    dt = 1 / data.core.freq  # scaffolding
    vel = data.states.vel.at[..., 2].add(-9.81 * dt)  # scaffolding
    pos = data.states.pos + dt * vel  # scaffolding
    return data.replace(states=data.states.replace(pos=pos, vel=vel), core=data.core.replace(steps=data.core.steps + 1))  # scaffolding


def clip_floor_pos(data: SimData) -> SimData:
    """Clip the position of the drone to the floor."""
    clip = data.states.pos[..., 2] < -0.001
    clip_pos = data.states.pos.at[..., 2].set(jnp.where(clip, -0.001, data.states.pos[..., 2]))
    clip_vel = data.states.vel.at[..., :3].set(
        jnp.where(clip[..., None], 0, data.states.vel[..., :3])
    )
    return data.replace(states=data.states.replace(pos=clip_pos, vel=clip_vel))


# --- driver: an env loop that checks contacts after every step (as the landing/reach envs do) --- scaffolding
sim = Sim(n_worlds=2, freq=500)  # scaffolding
for _ in range(6):  # scaffolding
    sim.step(1)  # scaffolding
    landed = sim.contacts()  # scaffolding
print("contacts", landed.tolist(), "step cache size", sim._step._cache_size())  # scaffolding
_report({"jit(step)"}, 6)  # scaffolding
