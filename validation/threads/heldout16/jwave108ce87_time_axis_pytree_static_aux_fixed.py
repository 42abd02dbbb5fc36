# source: https://github.com/ucl-bug/jwave/commit/108ce87c650e85ea3210c95b21f903ed8f71a395
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the commit registers TimeAxis as a pytree whose dt and t_end are static aux data, so Nt stays a concrete number under jit and run_simulation compiles once for 2 calls.

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


from dataclasses import dataclass
from functools import partial

import numpy as np
from jax import jit, lax  # lax: scaffolding
from jax import numpy as jnp
from jax.tree_util import register_pytree_node_class


# jwave/geometry.py (after the commit; docstrings cut, from_medium dropped)
@register_pytree_node_class
class TimeAxis:
  dt: float
  t_end: float

  def __init__(self, dt, t_end):
    self.dt = dt
    self.t_end = t_end

  def tree_flatten(self):
    children = (None, )
    aux = (self.dt, self.t_end)
    return (children, aux)

  @classmethod
  def tree_unflatten(cls, aux, children):
    dt, t_end = aux
    return cls(dt, t_end)

  @property
  def Nt(self):
    r"""Returns the number of time steps"""
    return np.ceil(self.t_end/self.dt)

  def to_array(self):
    r"""Returns the time-axis as an array"""
    out_steps = jnp.arange(0, self.Nt, 1)
    return out_steps*self.dt


def simulate_wave_propagation(medium, time_axis, p0):  # scaffolding: a 1-d leapfrog in place of jwave's pseudospectral solver
  dx = 0.1e-3
  c = medium
  dt = time_axis.dt
  t = time_axis.to_array()

  def step(carry, _):
    p_prev, p = carry
    lap = (jnp.roll(p, 1) - 2 * p + jnp.roll(p, -1)) / dx ** 2
    p_next = 2 * p - p_prev + (c * dt) ** 2 * lap
    return (p, p_next), p_next

  _, fields = lax.scan(step, (p0, p0), t)
  return fields


# scaffolding: tests/test_custom_types.py's jitted run, on a 64-point 1-d grid with a uniform sound speed, run twice
medium = jnp.full((64,), 1500.)
p0 = jnp.zeros((64,)).at[32].set(1.0)
time_axis = TimeAxis(dt=float(0.5 * 0.1e-3 / 1500.), t_end=float(2e-6))


# Run simulation
@partial(jit, backend='cpu')
def run_simulation(
  p0,
  medium,
  time_axis
  ):
  return simulate_wave_propagation(
    medium,
    time_axis,
    p0=p0
  )


calls = 0
try:  # scaffolding
  for _ in range(2):
    # Extract last field
    p_final = run_simulation(
      p0, medium, time_axis
    )[-1]
    calls += 1
  _report({"jit(run_simulation)"}, calls)
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")
