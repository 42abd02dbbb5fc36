# source: https://github.com/eelregit/pmwd/issues/27
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the repaired modes.py (the 'sto' branch hack merged to master) drops the static flag from the signature and decorates with plain @jit @checkpoint, so the 3-argument call compiles once and runs.
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


import jax.numpy as jnp
from jax import jit, checkpoint


@jit
@checkpoint
def linear_modes(modes, cosmo, conf, a=None):
    Plin = cosmo * jnp.ones_like(modes)  # scaffolding: stands in for linear_power(k, a, cosmo, conf)
    modes = modes * jnp.sqrt(Plin * conf)  # scaffolding
    return modes  # scaffolding


wn = jnp.ones((4, 4, 4))  # scaffolding: white_noise(seed, pmconf)
pmcosmo, pmconf = 1.0, 2.0  # scaffolding: Cosmology and Configuration
ic = linear_modes(wn, pmcosmo, pmconf)
_report({"jit(linear_modes)"}, 1)  # scaffolding
