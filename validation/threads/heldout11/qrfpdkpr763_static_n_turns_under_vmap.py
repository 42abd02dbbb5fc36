# source: https://github.com/gdsfactory/quantum-rf-pdk/pull/763
# expect: bad-static-spec at line 91
# runtime: ERROR ValueError
# why: The PR marks n_turns as a static argname of the jitted meander-inductance helper, but the helper is meant to be swept with vmap, so the batched tracer for n_turns reaches the static slot and jit rejects it as a non-hashable static argument.

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

import jax
import jax.numpy as jnp

μ_0 = 1.25663706212e-06  # scaffolding: qpdk.models.constants (scipy.constants.mu_0)
π = 3.141592653589793  # scaffolding


def get_cpw_substrate_params():  # scaffolding: PDK technology lookup, unused when thickness is given
    raise NotImplementedError


@partial(jax.jit, inline=True)
def self_inductance_strip(length: float, width: float, thickness: float) -> jax.Array:
    r"""Analytical formula for the self-inductance of a rectangular metal strip.

    Uses the formula from :cite:`chenCompactInductorcapacitorResonators2023`:

    .. math::

        L_s = \frac{\mu_0 l}{2\pi} \left[ \ln\left(\frac{2l}{w+t}\right) + 0.5 + \frac{w+t}{3l} \right]

    Args:
        length: Length of the strip in m.
        width: Width of the strip in m.
        thickness: Thickness of the strip in m.

    Returns:
        Self-inductance in Henries.
    """
    return (μ_0 * length / (2 * π)) * (
        jnp.log(2 * length / (width + thickness))
        + 0.5
        + (width + thickness) / (3 * length)
    )


@partial(jax.jit, inline=True)
def mutual_inductance_parallel_strips(length: float, d: float) -> jax.Array:
    r"""Analytical formula for the mutual inductance between two parallel metal strips.

    Uses the formula from :cite:`chenCompactInductorcapacitorResonators2023`:

    .. math::

        L_m(d) = \frac{\mu_0 l}{2\pi} \left[ \ln \left( \frac{l}{d} + \sqrt{1 + \frac{l^2}{d^2}} \right) - \sqrt{1 + \frac{d^2}{l^2}} + \frac{d}{l} \right]

    Args:
        length: Length of the strips in m.
        d: Center-to-center distance between the strips in m.

    Returns:
        Mutual inductance in Henries.
    """
    return (μ_0 * length / (2 * π)) * (
        jnp.log(length / d + jnp.sqrt(1 + (length / d) ** 2))
        - jnp.sqrt(1 + (d / length) ** 2)
        + d / length
    )


@partial(jax.jit, static_argnames="n_turns", inline=True)
def meander_inductor_inductance_analytical(
    n_turns: int,
    turn_length: float,
    wire_width: float,
    wire_gap: float,
    sheet_inductance: float,
    thickness: float | None = None,
) -> jax.Array:
    r"""Analytical formula for meander inductor inductance.

    The total inductance is the sum of geometric and kinetic contributions:

    .. math::

        L_{\text{total}} = L_g + L_k

    The geometric inductance :math:`L_g` is calculated by summing the
    self-inductances of all horizontal segments and the mutual inductances
    between all pairs of parallel segments, following
    :cite:`chenCompactInductorcapacitorResonators2023`:

    .. math::

        L_g = N L_s + 2 \sum_{k=1}^{N-1} (N-k) (-1)^k L_m(k p)

    where :math:`N` is the number of turns and :math:`p` is the pitch.

    The kinetic inductance :math:`L_k` is calculated from the sheet
    inductance :math:`L_\square`:

    .. math::

        L_k = L_\square \cdot \frac{\ell_{\text{total}}}{w}

    Args:
        n_turns: Number of horizontal meander runs.
        turn_length: Length of each horizontal run in µm.
        wire_width: Width of the meander wire in µm.
        wire_gap: Gap between adjacent meander runs in µm.
        sheet_inductance: Sheet inductance per square in H/□.
        thickness: Thickness of the metal film in µm. If None, it is
            fetched from the PDK technology parameters.

    Returns:
        Total inductance in Henries.
    """
    if thickness is None:
        _h, thickness, _ep_r, _tand = get_cpw_substrate_params()

    # Convert to SI (meters)
    l_m = turn_length * 1e-6
    w_m = wire_width * 1e-6
    g_m = wire_gap * 1e-6
    t_m = thickness * 1e-6
    p_m = w_m + g_m  # Pitch (center-to-center)

    # 1. Geometric Inductance
    # Self-inductance of horizontal segments (turns)
    L_s_horiz = self_inductance_strip(l_m, w_m, t_m)

    # Self-inductance of vertical connection segments
    L_s_vert = self_inductance_strip(p_m, w_m, t_m)

    # Mutual inductance sum between horizontal segments
    # Formula: L_g = sum(L_s_i) + sum_{i!=j} M_ij
    # Current directions alternate: sign(i, j) = (-1)**(i-j)
    # L_g_horiz = N*L_s_horiz + 2 * sum_{i=0 to N-2} sum_{j=i+1 to N-1} (-1)**(j-i) * L_m(abs(j-i)*p)
    # This simplifies to the sum used in Chen et al. (2023):
    # L_g_horiz = N*L_s_horiz + 2 * sum_{k=1 to N-1} (N-k) * (-1)**k * L_m(k*p)

    offsets = jnp.arange(1, 501)
    mask = offsets < n_turns
    L_m_sum = jnp.sum(
        jnp.where(
            mask,
            (n_turns - offsets)
            * ((-1.0) ** offsets)
            * mutual_inductance_parallel_strips(l_m, offsets * p_m),
            0.0,
        )
    )

    # Ensure L_g_horiz calculation is accurate. The negative mutual inductance
    # should be outweighed by the self-inductance for physically valid meanders.
    L_g_horiz = n_turns * L_s_horiz + 2 * L_m_sum
    L_g = L_g_horiz + (n_turns - 1) * L_s_vert

    # 2. Kinetic Inductance
    # Total wire length in µm (horizontal runs + vertical connections)
    total_length_um = n_turns * turn_length + jnp.maximum(0, n_turns - 1) * wire_gap
    n_squares = total_length_um / wire_width
    L_k = sheet_inductance * n_squares

    return L_g + L_k


# scaffolding: the reviewer's proof snippet -- sweep the turn count with vmap
try:  # scaffolding
    jax.vmap(lambda n: meander_inductor_inductance_analytical(
        n_turns=n, turn_length=200.0, wire_width=2.0,
        wire_gap=2.0, sheet_inductance=1e-12, thickness=0.2,
    ))(jnp.arange(2, 10))
    _report({"jit(meander_inductor_inductance_analytical)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
