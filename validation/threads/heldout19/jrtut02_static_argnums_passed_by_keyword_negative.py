# source: https://github.com/jrproal/jax_tutorial/blob/main/02_jit_and_autodiff.ipynb
# expect: none
# runtime: COMPILES 2 CALLS 3
# why: n_bins is declared with static_argnums=(3,) but passed as a keyword; jit maps it to the static name, so the repeat value hits the cache and only the new value recompiles (2 compiles, 3 calls).
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
import jax.numpy as jnp
import numpy as np
import time

# Without static_argnums, this would fail because n_bins is used to create an array
# @functools.partial(jit, static_argnums=(3,)) or
@jax.jit(static_argnums=(3,))  # Mark n_bins (4th argument, index 3) as static
def power_law_spectrum(amplitude, index, nu_ref, n_bins=100):
    """
    Compute a power-law spectrum: F(nu) = amplitude * (nu / nu_ref)^index
    """
    print(f"--- Compiling power_law_spectrum with n_bins={n_bins} ---")
    nu = jnp.logspace(jnp.log10(nu_ref) - 1, jnp.log10(nu_ref) + 1, n_bins)
    flux = amplitude * (nu / nu_ref)**index
    return nu, flux

# Test with different n_bins values
print("\nFirst call (n_bins=50):")
nu1, flux1 = power_law_spectrum(1.0, -0.7, 1e9, n_bins=50)

print("\nSecond call (n_bins=50, SAME value, should NOT recompile):")
nu1_repeat, flux1_repeat = power_law_spectrum(1.0, -0.7, 1e9, n_bins=50)

print("\nThird call (n_bins=200, DIFFERENT value, SHOULD recompile):")
nu2, flux2 = power_law_spectrum(1.0, -0.7, 1e9, n_bins=200)

print(f"\nResults: {len(nu1)} vs {len(nu2)} frequency bins")
_report({"jit(power_law_spectrum)"}, 3)  # scaffolding
