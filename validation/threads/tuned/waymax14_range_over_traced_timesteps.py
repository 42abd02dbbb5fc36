# source: https://github.com/waymo-research/waymax/issues/14
# expect: trace-time-error at line 67
# runtime: ERROR TracerIntegerConversionError
# why: state is a pytree argument of the jitted benchmark, so state.remaining_timesteps is a traced int32 array; range() calls __index__ on it and tracing raises TracerIntegerConversionError (the error a later commenter reports for the maintainer's snippet).

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
import dataclasses  # scaffolding
import time  # scaffolding
import types  # scaffolding
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
from flax import struct  # scaffolding


@struct.dataclass  # scaffolding: stand-in for waymax.datatypes.SimulatorState
class SimulatorState:
  timestep: jax.Array
  remaining_timesteps: jax.Array


def _update_state_by_log(state, num_steps):  # scaffolding
  return state.replace(timestep=state.timestep + num_steps,
                       remaining_timesteps=state.remaining_timesteps - num_steps)


datatypes = types.SimpleNamespace(update_state_by_log=_update_state_by_log)  # scaffolding


def _simulator_state_generator(config):  # scaffolding: stand-in for dataloader.simulator_state_generator
  for _ in range(2):
    yield SimulatorState(jnp.array(10, jnp.int32), jnp.array(80, jnp.int32))
  yield None


dataloader = types.SimpleNamespace(simulator_state_generator=_simulator_state_generator)  # scaffolding
config = None  # scaffolding: was dataclasses.replace(_config.WOD_1_1_0_VALIDATION, max_num_objects=32)

data_iter = dataloader.simulator_state_generator(config=config)

scenario = next(data_iter)
start_time = time.time()

@jax.jit
def benchmark(state):
  for _ in range(state.remaining_timesteps):
        state = datatypes.update_state_by_log(state, num_steps=1)
  return state

try:  # scaffolding
  while scenario:
      state = scenario
      state = benchmark(state)
      print("remaining_timesteps: ", scenario.remaining_timesteps)
      scenario = next(data_iter)
      end_time = time.time()
      print("time cost: ", end_time - start_time)
      start_time = end_time
  _report({"jit(benchmark)"}, 2)
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")
