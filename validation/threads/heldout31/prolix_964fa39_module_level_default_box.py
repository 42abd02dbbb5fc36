# source: https://github.com/maraxen/prolix/commit/964fa39e46973e1f7d47dd0ec0300f2cb7ca85f9
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: A module-level jnp.array used as a fallback inside a jitted, vmapped energy is a concrete constant, not a leaked tracer: repeated calls on new stacks run and compile once.

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


class MolecularBundle(eqx.Module):  # scaffolding: trimmed stand-in
    positions: jax.Array
    charges: jax.Array
    box: jax.Array  # DYNAMIC (3, 3) box


# Fallback box for periodic bundles whose box is traced (see _host_box_size).
_DEFAULT_PBC_BOX_SIZE = jnp.array([30.0, 30.0, 30.0])


def _host_box_size(bundle: MolecularBundle, default: jnp.ndarray) -> jnp.ndarray:
    """Concrete (3,) box size for PhysicsSystem's static box_size field.

    (long docstring trimmed: under EnsemblePlan's stacked/vmapped dispatch
    ``bundle.box`` is a BatchTracer, so this falls back to ``default``)
    """
    diag = jnp.diag(jnp.asarray(bundle.box))
    try:
        # jnp.diag itself never raises under tracing (it's a normal traced op)
        # -- force concretization per-element via float(), mirroring
        # _host_float, so a traced bundle.box is actually detected here
        # rather than silently propagating as a "static" tracer.
        return jnp.array([float(diag[0]), float(diag[1]), float(diag[2])])
    except (TypeError, ValueError, jax.errors.ConcretizationTypeError):
        return default


def energy_one(bundle: MolecularBundle) -> jax.Array:  # scaffolding: stands in for energy_fn_from_bundle's PME path
    box_size = _host_box_size(bundle, _DEFAULT_PBC_BOX_SIZE).astype(bundle.positions.dtype)
    return jnp.sum(bundle.charges[:, None] * jnp.cos(2 * jnp.pi * bundle.positions / box_size))


@jax.jit
def stacked_energy(stacked: MolecularBundle) -> jax.Array:  # scaffolding: _run_stacked_dispatch's vmap over N_MOLS
    return jax.vmap(energy_one)(stacked)


def make_stack(seed):  # scaffolding: two replicas in a 30 Å box
    key = jax.random.PRNGKey(seed)
    pos = jax.random.uniform(key, (2, 6, 3)) * 30.0
    return MolecularBundle(positions=pos, charges=jnp.ones((2, 6)), box=jnp.stack([jnp.eye(3) * 30.0] * 2))


calls = 0
for run in range(4):  # scaffolding: repeated EnsemblePlan.run() calls on different stacks
    stacked_energy(make_stack(run))
    calls += 1
_report({"jit(stacked_energy)"}, calls)
