# source: https://github.com/jax-md/jax-md/commit/a07383a
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: The commit's fix: the softcore add-back uses nonbonded.charges from the parameters passed to this call, so a new parameter set changes every term (ratio 4 for doubled charges) with a single compile.

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
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp

Array = jax.Array


class NonbondedParameters(NamedTuple):  # scaffolding: mm_forcefields params structure
  charges: Array


class Parameters(NamedTuple):  # scaffolding
  nonbonded: NonbondedParameters


def energy(
  params: Parameters,
  n_softcore: int,
  use_softcore_vdw: bool = True,
  use_linear_coul: bool = True,
):
  """scaffolding: jax_md.mm_forcefields.amber.energy reduced to direct-space Coulomb and the
  softcore linear-Coulomb add-back; neighbor lists are dense (i, j) edge arrays."""

  def pair_coul_edge_fn(positions, nbr_list, charge_sq):  # scaffolding
    i, j = nbr_list[:, 0], nbr_list[:, 1]
    r = jnp.linalg.norm(positions[i] - positions[j], axis=-1)
    return charge_sq[i] * charge_sq[j] / r

  pair_coul_1r_edge_fn = pair_coul_edge_fn

  def _sc_edge_masks(nbr_list):  # scaffolding: softcore atoms are the first n_softcore
    sc_i = nbr_list[:, 0] < n_softcore
    sc_j = nbr_list[:, 1] < n_softcore
    return sc_i & sc_j, sc_i ^ sc_j, ~(sc_i | sc_j)

  def energy_fn(
    positions: Array,
    nbr_list: Array,
    cl_lambda: Array | float = 0.0,
    lambda_q: Array | float = 1.0,
    **kwargs: Any,
  ) -> dict[str, Array]:
    _params = kwargs.pop('params', params)
    nonbonded = _params.nonbonded
    result_dict = dict()

    coul_dir_edge = pair_coul_edge_fn(positions, nbr_list, charge_sq=nonbonded.charges)
    coul_dir_pot = jnp.sum(coul_dir_edge)

    if use_softcore_vdw and use_linear_coul:
      assert pair_coul_1r_edge_fn is not None
      sc_sc_mask, _, _ = _sc_edge_masks(nbr_list)
      sc_sc_coul_1r_edge = pair_coul_1r_edge_fn(
        positions,
        nbr_list,
        charge_sq=nonbonded.charges,
      )
      sc_sc_coul_full = jnp.sum(jnp.where(sc_sc_mask, sc_sc_coul_1r_edge, 0.0))
      sc_sc_coul_addback = (1.0 - lambda_q * lambda_q) * sc_sc_coul_full
      coul_dir_pot = coul_dir_pot + sc_sc_coul_addback
      result_dict['sc_sc_coul_1r_full_pot'] = sc_sc_coul_full
      result_dict['sc_sc_coul_addback_pot'] = sc_sc_coul_addback

    result_dict['coul_pot'] = coul_dir_pot
    return result_dict

  return energy_fn


# scaffolding: a 6-atom system, energy_fn jitted once and evaluated for two charge sets
positions = jax.random.uniform(jax.random.PRNGKey(0), (6, 3)) * 5.0
nbr_list = jnp.array([(i, j) for i in range(6) for j in range(i + 1, 6)])
params_a = Parameters(NonbondedParameters(jnp.array([0.4, -0.4, 0.2, -0.2, 0.1, -0.1])))
params_b = Parameters(NonbondedParameters(2.0 * params_a.nonbonded.charges))
energy_fn = jax.jit(energy(params_a, n_softcore=3))
calls = 0
out = {}
for name, p in (("a", params_a), ("b", params_b)):
  out[name] = energy_fn(positions, nbr_list, lambda_q=0.5, params=p)
  calls += 1
# with charges doubled every term should scale by 4
print("sc_sc ratio b/a:", float(out["b"]["sc_sc_coul_1r_full_pot"] / out["a"]["sc_sc_coul_1r_full_pot"]))
_report({"jit(energy_fn)"}, calls)
