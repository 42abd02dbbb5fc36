# source: https://github.com/maraxen/prolix/commit/e41854b026a693de0660c7946f7dfba9374e1ab1
# expect: trace-time-error at line 58
# runtime: ERROR TracerBoolConversionError
# why: masses_for_bundle() branches in Python on bool(jnp.all(m == 1.0)); it is reached while energy_fn_from_bundle's energy is traced under jit, so the value test raises TracerBoolConversionError.

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
import equinox as eqx
import jax
import jax.numpy as jnp


class MolecularBundle(eqx.Module):  # trimmed to the fields used here (prolix/types/bundles.py)
    positions: jax.Array
    masses: jax.Array
    n_atoms: jax.Array  # Real count (derived from atom_mask.sum())
    n_waters: jax.Array


def tip3p_masses(n_waters: int, dtype=jnp.float64) -> jnp.ndarray:
    """TIP3P O-H-H masses for ``n_waters`` molecules (host ``n_waters``)."""
    per = jnp.array([15.999, 1.008, 1.008], dtype=dtype)
    return jnp.tile(per, n_waters)


def masses_for_bundle(bundle: MolecularBundle) -> jnp.ndarray:
    """Real-prefix masses for host-side single-system runs.

    Prefers the bundle's own ``masses`` field (real per-atom masses, e.g. from
    ``from_pdb`` / proxide-backed loaders). Falls back to the canonical TIP3P
    mass table for water-shaped bundles that don't supply real masses (unit
    fill), preserving prior behavior for callers built before the masses field
    existed.
    """
    n_atoms = int(jnp.asarray(bundle.n_atoms))
    m = bundle.masses[:n_atoms]
    if bool(jnp.all(m == 1.0)):
        n_waters = int(jnp.asarray(bundle.n_waters))
        if n_waters > 0 and n_atoms == 3 * n_waters:
            return tip3p_masses(n_waters, dtype=bundle.positions.dtype)
    return m


def energy_fn_from_bundle(bundle: MolecularBundle):
    # scaffolding: stands in for physics_system_from_bundle + single_padded_energy,
    # which read masses_for_bundle(bundle) while energy_fn is traced
    def energy_fn(positions: jnp.ndarray, **kwargs: object) -> jnp.ndarray:
        del kwargs
        masses = masses_for_bundle(bundle)
        n = masses.shape[0]
        return jnp.sum(masses[:, None] * positions[:n] ** 2)

    return energy_fn


bundle = MolecularBundle(  # scaffolding: a 4-atom system padded to 8 with real masses
    positions=jnp.zeros((8, 3)),
    masses=jnp.array([12.011, 1.008, 15.999, 1.008, 1.0, 1.0, 1.0, 1.0]),
    n_atoms=jnp.asarray(4),
    n_waters=jnp.asarray(0),
)
energy_fn = energy_fn_from_bundle(bundle)
force_fn = jax.jit(jax.grad(energy_fn))  # scaffolding: the jitted force call of the MD step
calls = 0
try:
    for step in range(4):  # scaffolding
        f = force_fn(bundle.positions + 0.1 * step)
        calls += 1
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
    raise SystemExit
_report({"jit(energy_fn)"}, calls)
