# source: https://github.com/JaXRTS/jaxrts/commit/376824dd2737d2fa8fe7776311a8b0a74d39b658
# expect: trace-time-error at line 139
# runtime: ERROR ConcretizationTypeError
# why: electron_distribution_ionized_state calls int(jnp.floor(Z_core)) to pick the neighbouring neutral configurations, which raises ConcretizationTypeError when Z_core is traced inside a jitted model.
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
import jax
from jax import numpy as jnp

jnpu = jnp  # scaffolding: jpu.numpy (unit-aware numpy) is not installed; its interp on plain arrays is jnp.interp
Quantity = float  # scaffolding: jaxrts.units.Quantity (pint), only used in annotations here


def orbital_array(
    n1s: int | float | Quantity = 0,
    n2s: int | float | Quantity = 0,
    n2p: int | float | Quantity = 0,
    n3s: int | float | Quantity = 0,
    n3p: int | float | Quantity = 0,
    n3d: int | float | Quantity = 0,
    n4s: int | float | Quantity = 0,
    n4p: int | float | Quantity = 0,
    n4d: int | float | Quantity = 0,
    n4f: int | float | Quantity = 0,
) -> jnp.ndarray:
    """
    Create an array with entries for each orbital.

    Parameters
    ----------
    n1s, n2s, n2p, ... int | float | Quantity, default = 0
        The values for the individual orbitals.

    Returns
    -------
    jnp.ndarray
        An array containing the provided entries, sorted so that the index of a
        specific orbital can be obtained by :py:data:`~.orbital_map`.

    Examples
    --------
    >>> carbon_occupancy = orbital_array(n1s=2, n2s=2, n2p=2)
    """
    return jnp.array(
        [
            n1s,
            n2s,
            n2p,
            n3s,
            n3p,
            n3d,
            n4s,
            n4p,
            n4d,
            n4f,
        ]
    )

def electron_distribution(atomic_number: int) -> jnp.ndarray:
    """
    Returns number of electrons for each orbital (defined by the quantum
    numbers n and l) for a neutral atom with the given ``atomic_number``.

    Parameter,
    ----------
    atomic_number: int
        The atomic number of the element.

    Returns
    -------
    jnp.ndarray
        The number of electrons per orbital as a flat array, starting with
        ``1s``, up to ``4f``.
        To find the corresponding indices for individual orbitals, one can use
        :py:data:`~.helpers.orbital_map`
    """
    electrons_remaining = atomic_number
    occupancy = []

    while electrons_remaining > 0:
        for n in range(1, 5):  # Consider orbitals up to 4th shell (n=4)
            for l in range(n):  # noqa: E741
                max_electrons = 2 * (2 * l + 1)  # Max. electrons in an orbital

                if electrons_remaining >= max_electrons:
                    occupancy.append(max_electrons)
                    electrons_remaining -= max_electrons
                else:
                    occupancy.append(electrons_remaining)
                    electrons_remaining = 0

                if electrons_remaining == 0:
                    break
            if electrons_remaining == 0:
                break
        if electrons_remaining == 0:
            break

    return orbital_array(*occupancy)


def electron_distribution_ionized_state(Z_core: float) -> jnp.ndarray:
    """
    Interpolate between electron populations if the number of core electrons is
    not an integer.

    Assume the population of electrons be behave like a neutral atom with
    reduced number of electrons. I.e., a 1.5 times ionized carbon is like
    Beryllium (and half a step to Boron).

    Parameters
    ------------
    Z_core: float
        Number of electrons still bound to the core

    Returns
    -------
    jnp.ndarray
        An array of populations.
    """
    core_electron_floor = int(jnp.floor(Z_core))
    pop_floor = electron_distribution(core_electron_floor)
    pop_ceil = electron_distribution(core_electron_floor + 1)

    population = pop_floor + (
        (Z_core - core_electron_floor) * (pop_ceil - pop_floor)
    )
    return population


@jax.jit  # scaffolding: a jitted model evaluating the bound-electron populations for a mean ionisation
def bound_populations(Z_core):
    return electron_distribution_ionized_state(Z_core)


try:  # scaffolding
    for Z_core in [4.5, 3.2, 5.9]:  # scaffolding: carbon at three ionisation degrees
        pop = bound_populations(jnp.float32(Z_core))
    _report({"jit(bound_populations)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
