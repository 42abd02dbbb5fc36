# source: https://github.com/maraxen/prolix/commit/548aca6ed03f907f49b278054fb77ed33a07f257
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: The fix reads the host box with numpy (float(np.mean(np.asarray(box_size)))) and makes coul_14 a Python float, so tracing succeeds and the energy compiles once.

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
import numpy as np

jax.config.update("jax_enable_x64", True)  # scaffolding: prolix runs with x64 (jnp.float64 below)


class PaddedSystem(eqx.Module):  # scaffolding: trimmed stand-in for prolix's PaddedSystem
    positions: jax.Array
    charges: jax.Array
    atom_mask: jax.Array
    box_size: jax.Array = eqx.field(static=True)  # host-known (bundle_md._host_box_size)
    pme_alpha: float = eqx.field(static=True)
    pme_grid_points: int = eqx.field(static=True)


def make_spme_energy_fn(box_size, alpha, grid_spacing):  # scaffolding: stand-in reciprocal term
    def recip(pos, charges, mask):
        q = jnp.where(mask, charges, 0.0)
        return alpha * grid_spacing * jnp.sum(q[:, None] * jnp.cos(pos / box_size))
    return recip


def _total_energy_fn(sys: PaddedSystem, T: int = 256) -> jax.Array:  # (EFA path, direct space and most corrections trimmed)
    pos = sys.positions
    safe_charges = jnp.where(sys.atom_mask, sys.charges, jnp.float32(0.0))

    # Default PME path (unchanged)
    recip_energy_fn = None
    if sys.box_size is not None and sys.pme_alpha > 0:
        # debt 770: box_size is a concrete/static host scalar by the time it
        # reaches here (see bundle_md.py's _host_box_size), but ANY jnp op
        # (jnp.mean/jnp.asarray) invoked while jax.jit is actively tracing
        # returns a tracer as its output regardless of operand concreteness
        # -- confirmed via minimal repro, unrelated to static-field/vmap
        # considerations. float()/int() can never be applied to that tracer.
        # Using plain numpy for this host-scalar extraction sidesteps
        # JAX's tracing machinery entirely.
        mean_l = float(np.mean(np.asarray(sys.box_size)))
        grid_points = int(sys.pme_grid_points)
        grid_spacing = mean_l / float(max(grid_points, 1))
        recip_energy_fn = make_spme_energy_fn(
            box_size=sys.box_size,
            alpha=float(sys.pme_alpha),
            grid_spacing=grid_spacing,
        )

    e_total = 0.5 * jnp.sum(safe_charges**2)  # scaffolding: chunked_explicit_nonbonded_energy
    # Add PME reciprocal and corrections
    if recip_energy_fn is not None:
        e_total += recip_energy_fn(pos, safe_charges, sys.atom_mask)
        # Plain Python float, not jnp.float32 -- immediately float()'d below,
        # and constructing it via jnp would hit the same debt-770 tracer
        # issue as mean_l above once this code path is reached under jit.
        coul_14 = 0.83333333
        e_total += float(sys.pme_alpha) * float(coul_14) * jnp.sum(safe_charges)  # scaffolding: pme_exclusion_correction_energy(..., float(sys.pme_alpha), float(coul_14))

    return e_total


sys = PaddedSystem(  # scaffolding: 8 atoms in a 30 Å box
    positions=jnp.linspace(0.0, 20.0, 24).reshape(8, 3),
    charges=jnp.array([0.4, -0.4, 0.2, -0.2, 0.1, -0.1, 0.0, 0.0]),
    atom_mask=jnp.array([True] * 6 + [False] * 2),
    box_size=jnp.array([30.0, 30.0, 30.0]),
    pme_alpha=0.34,
    pme_grid_points=32,
)


@jax.jit
def energy_at(positions):  # scaffolding: the jitted MD energy on the current positions
    return _total_energy_fn(eqx.tree_at(lambda s: s.positions, sys, positions))


calls = 0
try:
    for step in range(4):  # scaffolding
        energy_at(sys.positions + 0.01 * step)
        calls += 1
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
    raise SystemExit
_report({"jit(energy_at)"}, calls)
