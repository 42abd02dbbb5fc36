# source: https://github.com/gdsfactory/quantum-rf-pdk/pull/744
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: without the cache cpw_parameters recomputes its values in each context, so the jitted and the eager evaluation both work (one compile of the jitted model).
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
# gdsfactory/quantum-rf-pdk PR #744: "Remove CPW parameter caching that could leak JAX tracers across transformations"; qpdk/models/cpw.py with the PR's change (the @cache on cpw_parameters removed)
import jax
import jax.numpy as jnp
from jax.typing import ArrayLike

CrossSectionSpec = object  # scaffolding: gdsfactory.typings.CrossSectionSpec


def get_cpw_dimensions(cross_section):  # scaffolding: width and gap of the gdsfactory cross-section
    return (10.0, 6.0) if cross_section == "cpw" else cross_section  # scaffolding


def get_cpw_substrate_params():  # scaffolding: PDK layer stack (substrate height and conductor thickness in um, eps_r, tan delta)
    return 500.0, 0.2, 11.45, 1e-6  # scaffolding


def cpw_epsilon_eff(w, s, h, ep_r):  # scaffolding: sax.models.rf quasi-static CPW formulas, simplified
    return (ep_r + 1.0) / 2.0 + 0.0 * jnp.tanh(w / h)  # scaffolding


def cpw_thickness_correction(w, s, t, ep_eff):  # scaffolding
    return ep_eff * (1.0 - t / (w + 2 * s)), cpw_z0(w, s, ep_eff)  # scaffolding


def cpw_z0(w, s, ep_eff):  # scaffolding
    return 30.0 * jnp.pi / jnp.sqrt(ep_eff) * (1.0 + s / w)  # scaffolding


def cpw_parameters(
    width: float,
    gap: float,
    *,
    tand: float | None = None,
) -> tuple[jnp.ndarray, jnp.ndarray]:
    r"""Compute complex effective permittivity and characteristic impedance for a CPW."""
    width = float(width)
    gap = float(gap)

    h_um, t_um, ep_r, tand_default = get_cpw_substrate_params()
    if tand is None:
        tand = tand_default

    # Convert to SI (metres)
    w_m = width * 1e-6
    s_m = gap * 1e-6
    h_m = h_um * 1e-6
    t_m = t_um * 1e-6

    # Base (zero-thickness) quantities
    ep_eff = cpw_epsilon_eff(w_m, s_m, h_m, ep_r)

    if t_um > 0:
        ep_eff, z0_val = cpw_thickness_correction(w_m, s_m, t_m, ep_eff)
    else:
        z0_val = cpw_z0(w_m, s_m, ep_eff)

    if tand > 0 and ep_r > 1.0001:
        # Calculate the dielectric filling factor (q)
        q = (ep_eff - 1.0) / (ep_r - 1.0)
        # Substitute the real effective permittivity with a complex model.
        ep_eff = ep_eff * (1 - 1j * q * (ep_r / ep_eff) * tand)

    return jnp.asarray(ep_eff), jnp.asarray(z0_val)


def cpw_z0_from_cross_section(
    cross_section: CrossSectionSpec,
    f: ArrayLike | None = None,
) -> jnp.ndarray:
    """Characteristic impedance of a CPW defined by a layout cross-section."""
    width, gap = get_cpw_dimensions(cross_section)
    _ep_eff, z0_val = cpw_parameters(width, gap)
    z0 = jnp.asarray(z0_val)
    if f is not None:
        f = jnp.asarray(f)
        z0 = jnp.broadcast_to(z0, f.shape)
    return z0

# scaffolding: a registered model jitted first (as the PDK's jittability check does), then the same quantity evaluated eagerly
f = jnp.linspace(4e9, 8e9, 5)  # scaffolding
z_jit = jax.jit(lambda f: cpw_z0_from_cross_section("cpw", f))(f)  # scaffolding
print(z_jit[0])  # scaffolding
z_eager = cpw_z0_from_cross_section("cpw", f)
print(z_eager[0])  # scaffolding
_report({"jit(<lambda>)"}, 1)  # scaffolding
