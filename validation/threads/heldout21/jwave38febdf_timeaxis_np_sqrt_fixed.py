# source: https://github.com/ucl-bug/jwave/commit/38febdf621f06b4ef447c0c9f5c0b68b06e84ec1
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the commit computes t_end with np.sqrt, a concrete host value, so float() works inside the jitted simulation, which compiles once for two initial pressures.
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


import numpy as np
import jax
from jax import numpy as jnp
from jax import jit
from jax.tree_util import register_pytree_node_class


class Domain:  # scaffolding: jwave.geometry.Domain cut down to dx and spatial_axis
  def __init__(self, N, dx):
    self.N, self.dx = N, dx
    self.spatial_axis = [np.arange(n) * d for n, d in zip(N, dx)]


class Medium:  # scaffolding: jwave.geometry.Medium with a homogeneous sound speed
  def __init__(self, domain, sound_speed):
    self.domain, self.sound_speed = domain, sound_speed


def functional(x):  # scaffolding: jwave's functional(field)(np.max) on a scalar field
  return lambda f: f(x)


@register_pytree_node_class
class TimeAxis:
  r"""Temporal vector to be used for acoustic
  simulation based on the pseudospectral method of
  [k-Wave](http://www.k-wave.org/)
  Attributes:
    dt (float): time step
    t_end (float): simulation end time
  """
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

  @staticmethod
  def from_medium(medium: Medium, cfl: float = 0.3, t_end=None):
    dt = cfl * min(medium.domain.dx) / functional(medium.sound_speed)(np.max)
    if t_end is None:
      t_end = np.sqrt(
        sum((x[-1] - x[0]) ** 2 for x in medium.domain.spatial_axis)
      ) / functional(medium.sound_speed)(np.min)
    return TimeAxis(dt=float(dt), t_end=float(t_end))


medium = Medium(Domain((64, 64), (0.1e-3, 0.1e-3)), 1500.0)  # scaffolding


@jit  # scaffolding: a simulation that builds its time axis inside the jitted function
def simulate(p0):  # scaffolding
  time_axis = TimeAxis.from_medium(medium, cfl=0.3)  # scaffolding
  t = time_axis.to_array()  # scaffolding
  return p0.sum() * jnp.cos(2 * jnp.pi * 1e6 * t)  # scaffolding: stand-in for the wave solver output


try:  # scaffolding
  for amp in [1.0, 2.0]:  # scaffolding
    simulate(amp * jnp.ones((64, 64))).block_until_ready()  # scaffolding
  _report({"jit(simulate)"}, 2)  # scaffolding
except Exception as err:  # scaffolding
  print(f"ERROR {type(err).__name__}")  # scaffolding
