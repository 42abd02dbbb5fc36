# source: https://github.com/gdsfactory/quantum-rf-pdk/issues/833
# expect: trace-time-error at line 94
# runtime: ERROR ConcretizationTypeError
# why: taper_cross_section converts jnp.linspace values with float(ws[i]) to build each segment's cross-section; under jax.jit the linspace is staged, so float() of the tracer raises.
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
# gdsfactory/quantum-rf-pdk issue #833: jax.jit of the taper_cross_section model (qpdk/models/waveguides.py at the snapshot)
import types  # scaffolding

import jax
import jax.numpy as jnp
from jax.typing import ArrayLike

DEFAULT_FREQUENCY: float = 5e9
CrossSectionSpec = object  # scaffolding: gdsfactory.typings.CrossSectionSpec


def _evaluate_circuit_fg(netlist, instances):  # scaffolding: sax's circuit evaluation; cascades the S21 of the segments
    s21 = 1.0  # scaffolding
    for sdict in instances.values():  # scaffolding
        s21 = s21 * sdict[("o1", "o2")]  # scaffolding
    return {("o1", "o2"): s21, ("o2", "o1"): s21}  # scaffolding


sax = types.SimpleNamespace(Float=float, SDict=dict, backends=types.SimpleNamespace(evaluate_circuit_fg=_evaluate_circuit_fg))  # scaffolding


def coplanar_waveguide(width, gap):  # scaffolding: qpdk.tech.coplanar_waveguide builds a gdsfactory cross-section
    return (width, gap)  # scaffolding


def get_cpw_dimensions(cross_section):  # scaffolding: reads width and gap from the gdsfactory cross-section
    return cross_section if isinstance(cross_section, tuple) else (10.0, 6.0)  # scaffolding


def straight(f=DEFAULT_FREQUENCY, length=1000, cross_section="cpw"):  # scaffolding: the CPW model, reduced to a phase delay
    width, gap = get_cpw_dimensions(cross_section)  # scaffolding
    beta = 2 * jnp.pi * f / 3e14 * jnp.sqrt(1.0 + width / (width + 2 * gap))  # scaffolding
    s21 = jnp.exp(-1j * beta * length)  # scaffolding
    return {("o1", "o2"): s21, ("o2", "o1"): s21}  # scaffolding


def taper_cross_section(
    f: ArrayLike = DEFAULT_FREQUENCY,
    length: sax.Float = 1000,
    cross_section_1: CrossSectionSpec = "cpw",
    cross_section_2: CrossSectionSpec = "cpw",
    n_points: int = 50,
) -> sax.SDict:
    """S-parameter model for a cross-section taper using linear interpolation.

    Args:
        f: Array of frequency points in Hz
        length: Physical length in µm
        cross_section_1: Cross-section for the start of the taper.
        cross_section_2: Cross-section for the end of the taper.
        n_points: Number of segments to divide the taper into for simulation.

    Returns:
        sax.SDict: S-parameters dictionary
    """
    n_points = int(n_points)
    w1, g1 = get_cpw_dimensions(cross_section_1)
    w2, g2 = get_cpw_dimensions(cross_section_2)

    f = jnp.asarray(f)
    segment_length = length / n_points

    ws = jnp.linspace(w1, w2, n_points)
    gs = jnp.linspace(g1, g2, n_points)

    instances = {
        f"straight_{i}": straight(
            f=f,
            length=segment_length,
            cross_section=coplanar_waveguide(width=float(ws[i]), gap=float(gs[i])),
        )
        for i in range(n_points)
    }
    connections = {
        f"straight_{i},o2": f"straight_{i + 1},o1" for i in range(n_points - 1)
    }
    ports = {
        "o1": "straight_0,o1",
        "o2": f"straight_{n_points - 1},o2",
    }
    return sax.backends.evaluate_circuit_fg((connections, ports), instances)


# scaffolding: the check, jitting the registered model with representative defaults
f = jnp.linspace(4e9, 8e9, 5)  # scaffolding
print(abs(taper_cross_section(f, cross_section_1=(200.0, 100.0))[("o1", "o2")]))  # scaffolding: eager call works
try:  # scaffolding
    s = jax.jit(taper_cross_section, static_argnames=("cross_section_1", "cross_section_2", "n_points"))(f, cross_section_1=(200.0, 100.0))  # scaffolding
    _report({"jit(taper_cross_section)"}, 1)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
