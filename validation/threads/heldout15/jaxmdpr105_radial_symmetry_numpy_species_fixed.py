# source: https://github.com/jax-md/jax-md/pull/105
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the PR converts species to a NumPy array when the function is built, so the mask and np.unique are concrete at trace time; the jitted compute_fn compiles once for three configurations.
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
                              species,
                              etas: Array,
                              cutoff_distance: float
                              ):
  """Returns a function that computes radial symmetry functions."""
  metric = space.canonicalize_displacement_or_metric(displacement_or_metric)

  radial_fn = lambda eta, dr: (np.exp(-eta * dr**2) *
                               _behler_parrinello_cutoff_fn(dr, cutoff_distance))
  radial_fn = vmap(radial_fn, (0, None))

  if species is None:
    def compute_fn(R: Array, **kwargs) -> Array:
      _metric = partial(metric, **kwargs)
      _metric = space.map_product(_metric)
      return util.high_precision_sum(radial_fn(etas, _metric(R, R)), axis=1).T
  elif isinstance(species, np.ndarray):
    species = onp.array(species)
    def compute_fn(R: Array, **kwargs) -> Array:
      _metric = partial(metric, **kwargs)
      _metric = space.map_product(_metric)
      def return_radial(atom_type):
        """Returns the radial symmetry functions for neighbor type atom_type."""
        R_neigh = R[species == atom_type, :]
        dr = _metric(R, R_neigh)
        return util.high_precision_sum(radial_fn(etas, dr), axis=1).T
      return np.hstack([return_radial(atom_type) for
                        atom_type in onp.unique(species)])
  return compute_fn


species = np.array([0, 0, 1, 1, 1])  # scaffolding: two atom types
etas = np.array([0.1, 1.0])  # scaffolding
sym_fn = jit(radial_symmetry_functions(_metric_fn, species, etas, 4.0))  # scaffolding
calls = 0  # scaffolding
for i in range(3):  # scaffolding: three configurations
    R = jax.random.uniform(jax.random.PRNGKey(i), (5, 3)) * 4.0  # scaffolding
    print(sym_fn(R).shape)  # scaffolding
    calls += 1  # scaffolding
_report({"jit(compute_fn)"}, calls)  # scaffolding
