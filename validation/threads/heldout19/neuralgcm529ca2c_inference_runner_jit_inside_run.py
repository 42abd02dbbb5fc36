# source: https://github.com/neuralgcm/neuralgcm/commit/529ca2c6eea604efad32b422c69c0d212353a704
# expect: jit-in-loop-or-body at line 144
# runtime: COMPILES 6 CALLS 9
# why: InferenceRunner.run defines its nnx.jit-decorated assimilate and unroll inside the method, so every task (run call) makes new jitted functions that trace and compile again: 6 compiles for 3 tasks.
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

import jax
import dataclasses  # scaffolding
import math  # scaffolding
import numpy as np  # scaffolding
import jax.numpy as jnp  # scaffolding
from flax import nnx  # scaffolding


class TinyForecastSystem(nnx.Module):  # scaffolding: stand-in for api.ForecastSystem
  timestep = np.timedelta64(1, 'h')

  def __init__(self, rngs):
    self.w = nnx.Param(jnp.ones((4,)))

  def dynamic_inputs_from_xarray(self, data):
    return jnp.asarray(data)

  def inputs_from_xarray(self, data):
    return jnp.asarray(data['x'])

  def assimilate(self, input_obs, dynamic_inputs, rng):
    return input_obs * self.w.value + dynamic_inputs.sum()

  def observe(self, state, query, dynamic_inputs):
    return state * 2.0

  def unroll(self, state, dynamic_inputs, outer_steps, timedelta, post_process_fn):
    traj = []
    for _ in range(outer_steps):
      state = state * 0.5 + dynamic_inputs.mean()
      traj.append(post_process_fn(state, self))
    return state, jnp.stack(traj)


class _Forecast:  # scaffolding: stand-in for dynamic_inputs.get_forecast(...)
  def get_data(self, start, stop):
    return np.ones((2,), np.float32)


class _DynamicInputs:  # scaffolding
  def get_forecast(self, init_time):
    return _Forecast()


class _Inputs(dict):  # scaffolding: inputs[k].sel(time=[t])
  pass


class _Var:  # scaffolding
  def sel(self, time):
    return np.ones((4,), np.float32)


class _streaming:  # scaffolding: stand-in for streaming.SingleTaskExecutor (synchronous)
  class SingleTaskExecutor:
    def __init__(self, fn):
      self.fn = fn
      self.result = None

    def submit(self, *args):
      self.result = self.fn(*args)

    def get(self):
      return self.result

    def wait(self):
      pass


streaming = _streaming  # scaffolding


@dataclasses.dataclass
class InferenceRunner:
  """High performance inference runner for NeuralGCM models."""

  model: object
  inputs: dict
  dynamic_inputs: object
  init_times: np.ndarray
  ensemble_size: int | None  # ensemble_size=None for deterministic models
  output_query: object
  output_freq: np.timedelta64
  output_duration: np.timedelta64
  output_chunks: dict[str, int]  # should have a sane defaults
  unroll_duration: np.timedelta64
  random_seed: int = 0

  @property
  def task_count(self) -> int:
    """Total number of simulation tasks."""
    ensemble_count = 1 if self.ensemble_size is None else self.ensemble_size
    return len(self.init_times) * ensemble_count

  def run(self, task_id: int) -> None:
    if self.ensemble_size is None:
      init_time_index = task_id
      realization_index = None
      rng = None
    else:
      init_time_index = task_id // self.ensemble_size
      realization_index = task_id % self.ensemble_size
      base_key = jax.random.key(self.random_seed)
      rng = jax.random.fold_in(base_key, task_id)

    init_time = self.init_times[init_time_index].astype('datetime64[ns]')
    dynamic_inputs_forecast = self.dynamic_inputs.get_forecast(init_time)

    # Assimilation Step

    dynamic_inputs = self.model.dynamic_inputs_from_xarray(
        dynamic_inputs_forecast.get_data(np.timedelta64(0), self.model.timestep)
    )
    selected_inputs = {
        k: v.sel(time=[init_time]) for k, v in self.inputs.items()
    }
    input_obs = self.model.inputs_from_xarray(selected_inputs)

    @nnx.jit
    def assimilate(model, input_obs, dynamic_inputs, rng):
      return model.assimilate(input_obs, dynamic_inputs=dynamic_inputs, rng=rng)

    state = assimilate(self.model, input_obs, dynamic_inputs, rng)

    # Unroll Loop
    total_steps = math.ceil(self.output_duration / self.output_freq)
    steps_per_unroll = round(self.unroll_duration / self.output_freq)
    steps_per_write = self.output_chunks['lead_time']

    def get_dynamic_inputs(step_start):
      lead_start = step_start * self.output_freq
      lead_stop = (step_start + steps_per_unroll) * self.output_freq
      return self.model.dynamic_inputs_from_xarray(
          dynamic_inputs_forecast.get_data(lead_start, lead_stop)
      )

    @nnx.jit
    def unroll(model, state, dynamic_inputs):
      def observe(state, model):
        return model.observe(
            state,
            self.output_query,
            dynamic_inputs=dynamic_inputs,
        )

      return model.unroll(
          state,
          dynamic_inputs=dynamic_inputs,
          outer_steps=steps_per_unroll,
          timedelta=self.output_freq,
          post_process_fn=observe,
      )

    dynamic_inputs_task = streaming.SingleTaskExecutor(get_dynamic_inputs)
    dynamic_inputs_task.submit(0)

    for steps_written in range(0, total_steps, steps_per_write):
      output_buffer = []
      chunk_end_step = min(steps_written + steps_per_write, total_steps)

      for step_start in range(steps_written, chunk_end_step, steps_per_unroll):
        dynamic_inputs = dynamic_inputs_task.get()
        if step_start + steps_per_unroll < chunk_end_step:
          dynamic_inputs_task.submit(step_start + steps_per_unroll)
        state, trajectory_slice = unroll(self.model, state, dynamic_inputs)
        output_buffer.append(jax.device_get(trajectory_slice))
      # scaffolding: the Zarr write of output_buffer is left out


runner = InferenceRunner(  # scaffolding
    model=TinyForecastSystem(nnx.Rngs(0)),
    inputs=_Inputs(x=_Var()),
    dynamic_inputs=_DynamicInputs(),
    init_times=np.array(['2020-01-01', '2020-01-02', '2020-01-03'], dtype='datetime64[ns]'),
    ensemble_size=None,
    output_query=None,
    output_freq=np.timedelta64(6, 'h'),
    output_duration=np.timedelta64(24, 'h'),
    output_chunks={'lead_time': 2},
    unroll_duration=np.timedelta64(12, 'h'),
)
for task_id in range(runner.task_count):  # scaffolding
  runner.run(task_id)
_report({"jit(assimilate)", "jit(unroll)"}, 9)  # scaffolding: 3 tasks x (1 assimilate + 2 unroll calls)
