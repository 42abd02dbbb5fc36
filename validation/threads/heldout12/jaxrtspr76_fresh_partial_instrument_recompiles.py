# source: https://github.com/JaXRTS/jaxrts/pull/76
# expect: changing-static at line 60
# runtime: COMPILES 3 CALLS 3
# why: Setup wraps the user's instrument in jax.tree_util.Partial, whose function part is static pytree metadata; the getting-started instrument is a fresh functools.partial each time a Setup is built, and functools.partial compares by identity, so every new (identical) Setup retraces and recompiles the jitted convolution.

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
from collections.abc import Callable
import functools
from functools import partial

import jax
import jax.numpy as jnp

Quantity = jax.Array  # scaffolding: pint/jpu quantities are not installed, plain arrays (units dropped)


# src/jaxrts/instrument_function.py
def instrument_gaussian(x: Quantity, sigma: Quantity) -> Quantity:
    return (1.0 / (sigma * jnp.sqrt(2 * jnp.pi))) * jnp.exp(
        -0.5 * x**2 / sigma**2
    )


# src/jaxrts/setup.py (docstrings and the properties not used here trimmed)
class Setup:
    def __init__(
        self,
        scattering_angle: Quantity,
        energy: Quantity,
        measured_energy: Quantity,
        instrument: Callable,
        correct_k_dispersion: bool = True,
        frc_exponent: float = 0.0,
    ):
        self.scattering_angle: Quantity = scattering_angle
        self.energy: Quantity = energy
        self.measured_energy: Quantity = measured_energy
        self.instrument: Callable = jax.tree_util.Partial(instrument)
        self.correct_k_dispersion: bool = correct_k_dispersion
        self.frc_exponent = frc_exponent

    # The following is required to jit a setup
    def _tree_flatten(self):
        children = (
            self.scattering_angle,
            self.energy,
            self.measured_energy,
            self.instrument,
            self.frc_exponent,
        )
        aux_data = (self.correct_k_dispersion,)  # static values
        return (children, aux_data)

    @classmethod
    def _tree_unflatten(cls, aux_data, children):
        obj = object.__new__(Setup)
        (
            obj.scattering_angle,
            obj.energy,
            obj.measured_energy,
            obj.instrument,
            obj.frc_exponent,
        ) = children
        (obj.correct_k_dispersion,) = aux_data
        return obj


@jax.jit
def convolve_stucture_factor_with_instrument(
    Sfac: Quantity, setup: Setup
) -> Quantity:
    conv_grid = (
        setup.measured_energy - jnp.mean(setup.measured_energy)
    )  # (/ ureg.hbar dropped; scaffolding)

    conv_grid += jnp.min(jnp.absolute(conv_grid))
    return (
        jnp.convolve(
            Sfac,
            setup.instrument(conv_grid),
            mode="same",
        )
        * (jnp.diff(setup.measured_energy)[0])
    )


jax.tree_util.register_pytree_node(
    Setup,
    Setup._tree_flatten,
    Setup._tree_unflatten,
)


# The getting-started example's Setup, built twice (as in the PR description) and used each time
Sfac = jnp.exp(-jnp.linspace(-3.0, 3.0, 50) ** 2)  # scaffolding: a stand-in dynamic structure factor
calls = 0  # scaffolding
for _ in range(3):  # scaffolding: the setup is re-created three times
    setup = Setup(
        scattering_angle=jnp.deg2rad(60.0),
        energy=4700.0,
        measured_energy=4700.0
        + jnp.linspace(-100, 40, 50),
        instrument=partial(
            instrument_gaussian,
            sigma=5.0 / (2 * jnp.sqrt(2 * jnp.log(2))),
        ),
    )
    See = convolve_stucture_factor_with_instrument(Sfac, setup)
    calls += 1  # scaffolding
print(float(See.sum()))  # scaffolding
_report({"jit(convolve_stucture_factor_with_instrument)"}, calls)  # scaffolding
