# source: https://github.com/learnsyslab/crazyflow/pull/56
# expect: none
# runtime: COMPILES 2 CALLS 3
# why: the PR's fix: the device is kept as a static SimCore field and read from data.core.device, so the jitted control step traces once and is reused for three calls.
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
# learnsyslab/crazyflow PR #56 (Fix device tracing inside jit): crazyflow/sim/functional.py attitude_control after the PR (device kept as a static field), jitted as in the PR's new test
from enum import Enum  # scaffolding
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from flax.struct import dataclass, field
from jax import Array


class Control(str, Enum):  # scaffolding: crazyflow.control.Control, reduced
    state = "state"  # scaffolding
    attitude = "attitude"  # scaffolding


@partial(jax.jit, static_argnames="device")
def to_device(data: Array, device: str) -> Array:
    """Turn an array into a jax array on the specified device."""
    return jnp.array(data, device=device)


@dataclass
class AttitudeData:  # scaffolding: the attitude ControlData, reduced to the staged command
    staged_cmd: Array  # scaffolding


@dataclass
class SimControls:
    mode: Control = field(pytree_node=False)
    """Control mode of the simulation."""
    attitude: AttitudeData | None
    """Attitude control data."""


@dataclass
class SimCore:
    freq: int = field(pytree_node=False)
    """Frequency of the simulation."""
    device: jax.Device = field(pytree_node=False)
    """Device of the simulation."""
    steps: Array  # (N, 1)
    """Simulation steps taken since the last reset."""
    n_worlds: int = field(pytree_node=False)
    """Number of worlds in the simulation."""
    n_drones: int = field(pytree_node=False)
    """Number of drones in the simulation."""


@dataclass
class SimData:
    controls: SimControls
    """Drone controller data."""
    core: SimCore
    """Core parameters of the simulation."""


def attitude_control(data: SimData, controls: Array) -> SimData:
    """Attitude control function."""
    assert data.controls.mode == Control.attitude, f"control type {data.controls.mode} not enabled"
    assert controls.shape == (data.core.n_worlds, data.core.n_drones, 4), "controls shape mismatch"
    controls = to_device(controls, data.core.device)
    data = data.replace(
        controls=data.controls.replace(attitude=data.controls.attitude.replace(staged_cmd=controls))
    )
    return data


# scaffolding: a 2-world, 1-drone sim's data (Sim(...).data in the test)
data = SimData(  # scaffolding
    controls=SimControls(mode=Control.attitude, attitude=AttitudeData(staged_cmd=jnp.zeros((2, 1, 4)))),  # scaffolding
    core=SimCore(freq=500, steps=jnp.zeros((2, 1), dtype=jnp.int32), n_worlds=2, device=jax.devices()[0], n_drones=1),  # scaffolding
)
cmd = np.random.rand(2, 1, 4)  # scaffolding
data = attitude_control(data, cmd)  # scaffolding: the eager call works


# Check if we can apply inside of jax jit which does not permit device tracking.
@jax.jit
def apply_control(data: SimData, cmd: Array) -> SimData:
    return attitude_control(data, cmd)


for _ in range(3):  # scaffolding: three control steps
    data = jax.block_until_ready(apply_control(data, cmd))
_report({"jit(apply_control)"}, 3)  # scaffolding
