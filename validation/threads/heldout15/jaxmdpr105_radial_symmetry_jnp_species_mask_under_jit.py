# source: https://github.com/jax-md/jax-md/pull/105
# expect: trace-time-error at line 80
# runtime: ERROR ConcretizationTypeError
# why: compute_fun iterates over np.unique(species) (jax.numpy) and masks neighbours with R[species == atom_type, :], where species is a closed-over jax array; under jit both are staged out, and np.unique without size= raises ConcretizationTypeError first (the boolean mask would fail next).
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
from functools import partial
import types  # scaffolding
import numpy as onp

import jax
from jax import vmap, jit
import jax.numpy as np


def _metric_fn(Ra, Rb, **kwargs):  # scaffolding: euclidean metric
    return np.sqrt(np.sum((Ra - Rb) ** 2))  # scaffolding


space = types.SimpleNamespace(  # scaffolding: stand-in for jax_md.space
    canonicalize_displacement_or_metric=lambda f: f,  # scaffolding
    map_product=lambda f: vmap(vmap(f, (0, None), 0), (None, 0), 0),  # scaffolding: as in jax_md.space
)  # scaffolding
util = types.SimpleNamespace(high_precision_sum=np.sum)  # scaffolding: stand-in for jax_md.util
Array = jax.Array  # scaffolding


def _behler_parrinello_cutoff_fn(dr: Array,
                                 cutoff_distance: float=8.0) -> Array:
  """Function of pairwise distance that smoothly goes to zero at the cutoff."""
  # Also returns zero if the pairwise distance is zero,
  # to prevent a particle from interacting with itself.
  return np.where((dr < cutoff_distance) & (dr > 1e-7),
                  0.5 * (np.cos(np.pi * dr / cutoff_distance) + 1), 0)


def radial_symmetry_functions(displacement_or_metric,
                              species: Array,
                              etas: Array,
                              cutoff_distance: float
                              ):
  """Returns a function that computes radial symmetry functions."""
  metric = space.canonicalize_displacement_or_metric(displacement_or_metric)

  def compute_fun(R: Array, **kwargs) -> Array:
    _metric = partial(metric, **kwargs)
    _metric = space.map_product(_metric)
    radial_fn = lambda eta, dr: (np.exp(-eta * dr**2) *
                _behler_parrinello_cutoff_fn(dr, cutoff_distance))
    def return_radial(atom_type):
      """Returns the radial symmetry functions for neighbor type atom_type."""
      R_neigh = R[species == atom_type, :]
      dr = _metric(R, R_neigh)

      radial = vmap(radial_fn, (0, None))(etas, dr)
      return np.sum(radial, axis=1).T

    return np.hstack([return_radial(atom_type) for 
                     atom_type in np.unique(species)])

  return compute_fun


species = np.array([0, 0, 1, 1, 1])  # scaffolding: two atom types
R = jax.random.uniform(jax.random.PRNGKey(0), (5, 3)) * 4.0  # scaffolding
etas = np.array([0.1, 1.0])  # scaffolding
sym_fn = radial_symmetry_functions(_metric_fn, species, etas, 4.0)  # scaffolding
print(sym_fn(R).shape)  # scaffolding: works without jit
try:  # scaffolding
    jit(sym_fn)(R)  # scaffolding
    _report({"jit(compute_fun)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
