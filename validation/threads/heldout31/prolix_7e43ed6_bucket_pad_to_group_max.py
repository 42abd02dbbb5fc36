# source: https://github.com/maraxen/prolix/commit/7e43ed608721263005c8716dbdf4bca5a23519b3
# expect: shape-churn at line 126
# runtime: COMPILES 4 CALLS 4
# why: bucket_proteins pads bonded terms to the maximum count found in each group of molecules, so every new set of molecules in the same atom bucket gives new array shapes and the batched energy recompiles.

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
import dataclasses
from typing import Any

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
from jax import Array

ATOM_BUCKETS = (64, 128)  # scaffolding: prolix uses (4096, 8192, 16384, 32768, 65536)


@dataclasses.dataclass
class Protein:  # scaffolding: stand-in for proxide's Protein
    coordinates: np.ndarray
    bonds: np.ndarray | None = None
    angles: np.ndarray | None = None
    proper_dihedrals: np.ndarray | None = None
    impropers: np.ndarray | None = None
    cmap_torsions: np.ndarray | None = None


class PaddedSystem(eqx.Module):  # scaffolding: trimmed stand-in
    positions: Array
    atom_mask: Array
    bonds: Array
    bond_mask: Array
    angles: Array
    angle_mask: Array


def select_bucket(n_atoms: int, buckets: tuple[int, ...] = ATOM_BUCKETS) -> int:
  """Select the smallest bucket that fits n_atoms."""
  for b in sorted(buckets):
    if n_atoms <= b:
      return b
  raise ValueError(f"Atom count {n_atoms} exceeds maximum bucket size {max(buckets)}")

def pad_array(arr: Array | np.ndarray, target_length: int, pad_value: Any) -> Array:
  """Pads the first dimension of an array to target_length with pad_value."""
  arr = jnp.asarray(arr)
  if len(arr) == target_length:
    return arr
  if len(arr) > target_length:
    raise ValueError(f"Array length {len(arr)} exceeds target padding {target_length}")
  
  pad_width = [(0, target_length - len(arr))]
  for _ in range(1, arr.ndim):
    pad_width.append((0, 0))
    
  return jnp.pad(arr, pad_width, constant_values=pad_value)

def create_mask(n_real: int, n_padded: int) -> Array:
  """Create boolean mask matching length."""
  return jnp.arange(n_padded) < n_real


def pad_protein(p, bucket_size, target_bonds, target_angles, target_dihedrals, target_impropers, target_cmaps):
    # scaffolding: trimmed pad_protein (positions, bonds and angles only)
    pos = jnp.asarray(p.coordinates).reshape(-1, 3)
    return PaddedSystem(
        positions=pad_array(pos, bucket_size, 0.0),
        atom_mask=create_mask(len(pos), bucket_size),
        bonds=pad_array(p.bonds, target_bonds, 0),
        bond_mask=create_mask(len(p.bonds), target_bonds),
        angles=pad_array(p.angles, target_angles, 0),
        angle_mask=create_mask(len(p.angles), target_angles),
    )


def bucket_proteins(
    proteins: list[Protein],
    buckets: tuple[int, ...] = ATOM_BUCKETS,
) -> dict[int, list[PaddedSystem]]:
    """Group proteins into buckets and pad each to its bucket size and max bonded terms."""
    
    # First, separate by target bucket
    groups = {}
    for p in proteins:
      pos = jnp.asarray(p.coordinates).reshape(-1, 3)
      n_atoms = len(pos)
      bucket = select_bucket(n_atoms, buckets)
      if bucket not in groups:
        groups[bucket] = []
      groups[bucket].append(p)
      
    # Next, pad each group to the max elements within that bucket
    ready_buckets = {}
    for bucket_size, prot_list in groups.items():
      # find maximum terms across this bucket
      def count_attr(attr):
        def _get(prot):
          val = getattr(prot, attr, None)
          if val is None: return 0
          return len(jnp.asarray(val))
        return max([_get(p) for p in prot_list])
        
      max_bonds = count_attr("bonds")
      max_angles = count_attr("angles")
      max_dihedrals = count_attr("proper_dihedrals")
      max_impropers = count_attr("impropers")
      max_cmaps = count_attr("cmap_torsions")
      
      padded_list = []
      for p in prot_list:
        padded = pad_protein(
            p, bucket_size,
            target_bonds=max_bonds,
            target_angles=max_angles,
            target_dihedrals=max_dihedrals,
            target_impropers=max_impropers,
            target_cmaps=max_cmaps
        )
        padded_list.append(padded)
      ready_buckets[bucket_size] = padded_list
      
    return ready_buckets


def collate_batch(systems: list[PaddedSystem]) -> PaddedSystem:
    """Stack multiple PaddedSystems into a batched PaddedSystem."""
    # (shape asserts trimmed)
    # Equinox modules are PyTrees, so tree_map stacks their arrays naturally
    return jax.tree_util.tree_map(lambda *args: jnp.stack(args), *systems)


@jax.jit
def batched_energy(batch: PaddedSystem) -> Array:  # scaffolding: make_batched_energy_fn's jitted energy, built once
    def one(s):
        d = s.positions[s.bonds[:, 0]] - s.positions[s.bonds[:, 1]]
        e_bond = jnp.sum(jnp.where(s.bond_mask, jnp.sum(d**2, -1), 0.0))
        e_angle = jnp.sum(jnp.where(s.angle_mask, 1.0, 0.0))
        return e_bond + e_angle
    return jax.vmap(one)(batch)


def fake_protein(n_atoms, n_bonds, seed):  # scaffolding: chain-like topology
    rng = np.random.RandomState(seed)
    bonds = np.stack([np.arange(n_bonds) % n_atoms, (np.arange(n_bonds) + 1) % n_atoms], 1)
    angles = np.stack([np.arange(n_bonds - 1), np.arange(1, n_bonds), np.arange(2, n_bonds + 1) % n_atoms], 1)
    return Protein(coordinates=rng.randn(n_atoms, 3), bonds=bonds, angles=angles)


calls = 0
for round_ in range(4):  # scaffolding: four batches of different molecules, all in the 64-atom bucket
    proteins = [fake_protein(40 + 3 * round_, 42 + 4 * round_, 0), fake_protein(50, 52 + round_, 1)]
    buckets = bucket_proteins(proteins)
    for bucket_size, padded_list in buckets.items():
        batch = collate_batch(padded_list)
        batched_energy(batch)
        calls += 1
_report({"jit(batched_energy)"}, calls)
