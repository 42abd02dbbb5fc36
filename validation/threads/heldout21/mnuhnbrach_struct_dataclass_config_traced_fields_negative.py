# source: https://github.com/mnuhn/jax-playground/blob/main/001-Brachistochrone/brachistochrone.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 22
# why: the flax struct.dataclass Config (ints and floats, all pytree leaves) is passed to the jitted gradient step on every iteration; its fields are traced scalars, so nothing recompiles (1 compile for the step, which inlines the nested jitted value_and_grad).
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
import jax.numpy as jnp
from flax import struct
from jax import value_and_grad, jit
from tqdm import tqdm  # scaffolding: was tqdm.notebook (needs ipywidgets outside Jupyter)
# import matplotlib.pyplot as plt  # scaffolding: matplotlib not installed (plot_ramps left out)
from dataclasses import dataclass

def fix_ends(vec,a,b):
  return vec.at[0].set(a).at[-1].set(b)

@struct.dataclass
class Config:
  num_segments: int
  y_start: float
  y_end: float
  x_end: float
  g: float
  v0: float
  min_delta: float
  iter_max: int
  learning_rate: float
  clip_grad: float
  clip_y: float

def get_slide_time(ramp, config):
  ramp_left = jnp.roll(ramp, 1).at[0].set(config.y_start)

  delta_x = config.x_end / config.num_segments
  delta_y = (ramp - ramp_left)
  length = jnp.sqrt((delta_x) ** 2 + (delta_y) ** 2).at[0].set(0)

  speed_left = config.v0 + jnp.sqrt(2 * config.g * (config.y_start - ramp_left))
  speed_right = config.v0 + jnp.sqrt(2 * config.g * (config.y_start - ramp))
  speed = 1/2 * (speed_left + speed_right)

  return jnp.sum(length/speed)

get_slide_time = jit(get_slide_time)
get_slide_time_and_grad = jit(value_and_grad(get_slide_time, argnums=0))

def gradient_descent_iteration(ramp, config):
  slide_time, ramp_grad = get_slide_time_and_grad(ramp, config)
  
  ramp_update = config.learning_rate * ramp_grad
  ramp_update = jnp.clip(ramp_update, -config.clip_grad, config.clip_grad)
  ramp_update = fix_ends(ramp_update, 0, 0) # No updates and the end-points.

  ramp -= ramp_update
  ramp = jnp.clip(ramp, -config.clip_y, config.y_start)
  ramp = fix_ends(ramp, config.y_start, config.y_end)

  return ramp, ramp_update, slide_time

gradient_descent_iteration = jit(gradient_descent_iteration)

config = Config(num_segments=1000, y_start = 1.0, y_end = 0.0, x_end = 3.0, g = 9.81, v0=0.001, min_delta = 0.001, learning_rate = 0.003, iter_max=20, clip_grad = 0.1, clip_y = 50.0)  # scaffolding: iter_max 50000000 -> 20

pbar = tqdm(mininterval=0.2)

last_slide_time = 0.0
cur_slide_time = 0.0

ramp = jnp.arange(config.y_start,config.y_end,(config.y_end-config.y_start)/config.num_segments, dtype=jnp.float32)
ramps = [(ramp,0)]

while True:
  ramp_new, grad, cur_slide_time = gradient_descent_iteration(ramp, config)
  if pbar.n > config.iter_max:
    break
  if pbar.n % 100000 == 0:
    ramps.append((ramp,pbar.n))
    pbar.set_description(f"iteration: {pbar.n}, slide time: {cur_slide_time:.6f}, slide time delta: {cur_slide_time-last_slide_time:.8f}", refresh=False)
    if last_slide_time > 0 and abs(last_slide_time - cur_slide_time) < config.min_delta:
      pbar.set_description(f"stopping early since optimization criterion improved less than {config.min_delta}")
      break
    last_slide_time = cur_slide_time
  ramp = ramp_new
  pbar.update(1)

# plot_ramps(config, ramps, pbar.n, last_slide_time)  # scaffolding: plotting left out
_report({"jit(gradient_descent_iteration)", "jit(get_slide_time)"}, pbar.n + 1)  # scaffolding
