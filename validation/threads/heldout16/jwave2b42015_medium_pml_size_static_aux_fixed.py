# source: https://github.com/ucl-bug/jwave/commit/2b4201533cd137020ffda4b9ead3126c0439de3d
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the commit moves pml_size into the static aux data (and returns 1.0 for pml_size == 0), so the PML is built from a Python int and the jitted simulation compiles once for 2 media.

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


from typing import Union

import jax  # scaffolding
from jax import numpy as jnp
from jax.tree_util import register_pytree_node_class

Number = Union[float, int]  # jwave typing


class Domain:  # scaffolding: jaxdf Domain (hashable, static aux data)
  def __init__(self, N, dx):
    self.N, self.dx = tuple(N), tuple(dx)

  def __hash__(self):
    return hash((self.N, self.dx))

  def __eq__(self, other):
    return isinstance(other, Domain) and (self.N, self.dx) == (other.N, other.dx)


# jwave/geometry.py (after the commit; docstring, __str__ and the field-domain check cut)
@register_pytree_node_class
class Medium:
  domain: Domain
  sound_speed: Number = 1.0
  density: Number = 1.0
  attenuation: Number = 0.0
  pml_size: Number = 20.0

  def __init__(
    self, domain, sound_speed = 1.0, density=1.0, attenuation=0.0, pml_size=20
  ):
    # Set the attributes
    self.domain = domain
    self.sound_speed = sound_speed
    self.density = density
    self.attenuation = attenuation
    self.pml_size = pml_size

  def tree_flatten(self):
    children = (self.sound_speed, self.density, self.attenuation)
    aux = (self.domain, self.pml_size)
    return (children, aux)

  @classmethod
  def tree_unflatten(cls, aux, children):
    sound_speed, density, attenuation = children
    domain, pml_size = aux
    a = cls(domain, sound_speed, density, attenuation, pml_size)
    return a


# jwave/acoustics/pml.py (after the commit)
def td_pml_on_grid(
    medium: Medium,
    dt: float,
    exponent=4.0,
    alpha_max=2.0,
    c0=1.0,
    dx=1.0,
    coord_shift=0.0
) -> jnp.ndarray:

    if medium.pml_size == 0:
        return 1.0

    x_right = ((jnp.arange(1, medium.pml_size+1, 1) + coord_shift) / medium.pml_size)
    x_left =  ((jnp.arange(medium.pml_size, 0, -1) - coord_shift) / medium.pml_size)
    x_right = x_right ** exponent
    x_left = x_left ** exponent

    alpha_left = jnp.exp(alpha_max * (-1) * x_left * dt * c0 / 2 / dx)
    alpha_right = jnp.exp(alpha_max * (-1) * x_right * dt * c0 / 2 / dx)
    _alpha_left = jnp.expand_dims(alpha_left, -1)
    _alpha_right = jnp.expand_dims(alpha_right, -1)

    pml_shape = tuple(list(medium.domain.N) + [len(medium.domain.N)])
    pml = jnp.ones(pml_shape)
    pml = pml.at[:medium.pml_size,:,0].set(_alpha_left)
    pml = pml.at[-medium.pml_size:,:,0].set(_alpha_right)
    pml = pml.at[:,:medium.pml_size,1].set(alpha_left)
    pml = pml.at[:,-medium.pml_size:,1].set(alpha_right)
    return pml


# scaffolding: the jitted time-domain simulation builds its PML from the medium it receives; two sound speeds
@jax.jit
def simulate(medium, p0):
  pml = td_pml_on_grid(medium, dt=0.05, c0=1.0, dx=1.0)
  return p0 * pml[..., 0] * pml[..., 1] * medium.sound_speed


domain = Domain((64, 64), (0.1e-3, 0.1e-3))
p0 = jnp.ones((64, 64))
calls = 0
try:  # scaffolding
  for c in (1500.0, 1540.0):
    medium = Medium(domain=domain, sound_speed=jnp.full((64, 64), c), density=1000.0, pml_size=15)
    out = simulate(medium, p0)
    calls += 1
  _report({"jit(simulate)"}, calls)
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")
