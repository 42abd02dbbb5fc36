# source: https://github.com/PyAutoLabs/PyAutoGalaxy/pull/352
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: after the fix the body is a jax.tree_util.Partial (a pytree whose keywords are traced leaves), so the jitted likelihood compiles once.
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


import numpy as np
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding


def body_fun(carry, n, factor, ei2phi, slope):
    omega_nm1, partial_sum = carry
    two_n = 2 * n
    two_minus_slope = 2 - slope
    ratio = (two_n - two_minus_slope) / (two_n + two_minus_slope)
    omega_n = -factor * ratio * ei2phi * omega_nm1
    partial_sum = partial_sum + omega_n
    return (omega_n, partial_sum), None


def omega(eiphi, slope, factor, n_terms=20, xp=np):
    """JAX implementation of omega, Tessore and Metcalf 2015 eq. 29 (docstring shortened)."""

    from jax.tree_util import Partial as partial
    import jax

    scan = jax.jit(jax.lax.scan, static_argnames=("length", "reverse", "unroll"))

    # use modified scan with a partial'ed function to avoid re-compile
    (_, partial_sum), _ = scan(
        partial(body_fun, factor=factor, ei2phi=eiphi**2, slope=slope),
        (eiphi, eiphi),
        xp.arange(1, n_terms),
    )
    return partial_sum


@jax.jit  # scaffolding: the PowerLaw deflection path inside a jitted likelihood (power_law.py calls omega(z, slope, factor, n_terms=20, xp=xp))
def power_law_omega(slope, axis_ratio):  # scaffolding
    phi = jnp.linspace(0.1, 3.0, 16)  # scaffolding: elliptical angles of 16 grid points
    z = jnp.exp(1j * phi)  # scaffolding
    factor = (1.0 - axis_ratio) / (1.0 + axis_ratio)  # scaffolding
    return omega(z, slope, factor, n_terms=20, xp=jnp)  # as in power_law.py


try:  # scaffolding
    for slope, q in ((2.0, 0.8), (2.1, 0.7), (1.9, 0.9)):  # scaffolding
        power_law_omega(jnp.asarray(slope), jnp.asarray(q))  # scaffolding
    _report({"jit(power_law_omega)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
