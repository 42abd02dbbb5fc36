# source: https://github.com/JaXRTS/jaxrts/commit/fbcfa10c80c472bddd8d06a29de062e51fda1651
# expect: trace-time-error at line 91
# runtime: ERROR IndexError
# why: The per-ion slice bounds come from jnp.cumsum, which is staged out under jit, so sol[indices[i]:indices[i + 1]] has traced bounds and raises IndexError.
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
from dataclasses import dataclass, field

import jax
import jax.numpy as jnp


class _Units:  # scaffolding: minimal stand-in for the pint registry jaxrts uses
    cc = 1.0


ureg = _Units()


class _Quantity:  # scaffolding
    def __init__(self, value):
        self.value = value

    def m_as(self, unit):
        return self.value


@dataclass(frozen=True)
class Element:  # scaffolding: only the charge number is needed here
    symbol: str
    Z: int


def solve_saha(element_list, T_e, ion_number_densities):  # scaffolding: a smooth stand-in for the Saha-Boltzmann solve
    fractions = []
    for element, n_i in zip(element_list, ion_number_densities):
        weights = jnp.exp(-jnp.arange(element.Z + 1) * 5.0 / T_e)
        fractions.append(n_i * weights / jnp.sum(weights))
    return _Quantity(jnp.concatenate(fractions))


@jax.tree_util.register_dataclass
@dataclass
class PlasmaState:  # scaffolding: jaxrts' PlasmaState cut to the fields used here; ions are static
    ions: tuple = field(metadata=dict(static=True))
    T_e: jax.Array = None
    mass_density: jax.Array = None
    atomic_masses: jax.Array = None


def calculate_mean_free_charge_saha(plasma_state):
    """
    Calculates the mean charge of each ion in a plasma using the Saha-Boltzmann equation.

    Parameters:
    plasma_state (PlasmaState): The plasma state object.

    Returns:
    jnp.ndarray: An array containing the mean charge of each ion in the plasma.
    """

    sol = solve_saha(
        tuple(plasma_state.ions),
        plasma_state.T_e,
        (plasma_state.mass_density / plasma_state.atomic_masses),
    ).m_as(1 / ureg.cc)

    indices = jnp.cumsum(
        jnp.array([0] + list([ion.Z + 1 for ion in plasma_state.ions]))
    )
    Z_total = jnp.array(
        [
            jnp.sum(sol[indices[i] : indices[i + 1]])
            for i in range(len(indices) - 1)
        ]
    )
    Z_free = jnp.array(
        [
            jnp.sum(
                sol[indices[i] : indices[i + 1]]
                / Z_total[i]
                * jnp.arange(plasma_state.ions[i].Z + 1)
            )
            for i in range(len(indices) - 1)
        ]
    )

    return Z_free


mean_charge = jax.jit(calculate_mean_free_charge_saha)  # scaffolding: jaxrts jits its models and setups
try:  # scaffolding
    for k in range(3):  # scaffolding: a temperature scan for a C/H plasma
        state = PlasmaState(ions=(Element("C", 6), Element("H", 1)), T_e=jnp.float32(10.0 + 5 * k),
                            mass_density=jnp.array([1.0, 0.1]), atomic_masses=jnp.array([12.0, 1.0]))
        Z = mean_charge(state)
    _report({"jit(calculate_mean_free_charge_saha)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
