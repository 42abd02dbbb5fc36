# source: https://github.com/maraxen/prolix/commit/324291e7487717fbfffd7ac2f7fd2d7e0ceeed56
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: The fix keeps dt as a JAX value (dt_arr / AKMA_TIME_UNIT_FS), so the run traces with dt as an argument and compiles once for four timesteps.

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

import equinox as eqx
import jax
import jax.numpy as jnp

AKMA_TIME_UNIT_FS = 48.88821  # prolix.physics.kups_adapter


def dt_fs_to_akma(dt_fs: float) -> float:
  """Convert timestep from femtoseconds to AKMA units."""
  return dt_fs / AKMA_TIME_UNIT_FS


def gamma_ps_to_akma(gamma_ps: float) -> float:
  """Convert Langevin friction coefficient from ps⁻¹ to AKMA⁻¹."""
  return gamma_ps * AKMA_TIME_UNIT_FS / 1000.0


def as_integration_scalars(dt, kT, *, dtype):
    """Promote host floats to JAX scalars for traced integration (no recompile on change)."""
    return (
        jnp.asarray(dt, dtype=dtype),
        jnp.asarray(kT, dtype=dtype),
    )


class MolecularBundle(eqx.Module):  # scaffolding: trimmed stand-in
    positions: jax.Array
    masses: jax.Array


class LangevinState(NamedTuple):  # scaffolding
    position: jax.Array
    momentum: jax.Array
    key: jax.Array


def settle_langevin(energy_fn, shift_fn, dt, kT, gamma, mass, **kw):  # scaffolding: plain Langevin stand-in
    force_fn = jax.grad(lambda x: -energy_fn(x))

    def init_fn(key, x, kT):
        return LangevinState(x, jnp.zeros_like(x), key)

    def apply_fn(state, kT, dt):
        key, sub = jax.random.split(state.key)
        p = state.momentum + dt * force_fn(state.position)
        p = p * jnp.exp(-gamma * dt) + jnp.sqrt(kT * (1 - jnp.exp(-2 * gamma * dt))) * jax.random.normal(sub, p.shape)
        return LangevinState(shift_fn(state.position, dt * p / mass[:, None]), p, key)

    return init_fn, apply_fn


class Trajectory(NamedTuple):  # scaffolding
    positions: Any
    n_steps: int


class EnsemblePlan:
    def _run_single(
        self,
        bundle: Any,
        n_steps: int,
        dt: float | Any,
        kT: float | Any,
        seed: int | Any,
        *,
        dt_unit: str = "fs",
        gamma: float = 10.0,
    ) -> Trajectory:  # (observables, integration_prefix, trimming and SETTLE water handling trimmed)
        energy_fn = lambda x: 0.5 * jnp.sum(x**2)  # scaffolding: energy_fn_from_bundle(bundle)
        shift_fn = lambda x, dx: x + dx  # scaffolding: displacement_fn_for_bundle(bundle)

        # XR-VACUUM-DT: EnsemblePlan dt is femtoseconds; gamma is ps⁻¹.
        # Keep dt conversion in JAX so StableHLO / jaxgrad paths can trace dt
        # (Python float() on a tracer raises ConcretizationTypeError).
        dt_arr = jnp.asarray(dt)
        if dt_unit == "fs":
            dt_akma = dt_arr / AKMA_TIME_UNIT_FS
        else:
            dt_akma = dt_arr
        gamma_akma = gamma_ps_to_akma(float(gamma))

        dt, kT = as_integration_scalars(dt_akma, kT, dtype=bundle.positions.dtype)

        positions_init = bundle.positions
        masses = bundle.masses

        # Factory defaults are placeholders for dt/kT; gamma is physical (ps^-1→AKMA).
        init_fn, apply_fn = settle_langevin(
            energy_fn,
            shift_fn,
            dt=1.0,
            kT=1.0,
            gamma=gamma_akma,
            mass=masses,
        )

        key = jax.random.PRNGKey(jnp.asarray(seed, dtype=jnp.uint32))
        state = init_fn(key, positions_init, kT=kT)

        def step_fn(carry: Any, _: Any) -> tuple[Any, Any]:
            new_state = apply_fn(carry, kT=kT, dt=dt)
            return new_state, new_state.position

        state, positions_array = jax.lax.scan(step_fn, state, None, length=int(n_steps))  # dispatch_n_steps

        return Trajectory(
            positions=positions_array,
            n_steps=n_steps,
        )


plan = EnsemblePlan()  # scaffolding
bundle = MolecularBundle(positions=jnp.ones((6, 3)), masses=jnp.full((6,), 12.0))  # scaffolding


@jax.jit
def final_positions(dt):  # scaffolding: the traced-dt (StableHLO export / grad-w.r.t.-dt) path
    return plan._run_single(bundle, 10, dt, 0.6, 0).positions[-1]


calls = 0
try:
    for dt in (0.5, 1.0, 1.5, 2.0):  # scaffolding
        final_positions(jnp.asarray(dt))
        calls += 1
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
    raise SystemExit
_report({"jit(final_positions)"}, calls)
