# source: https://github.com/eelregit/pmwd/issues/27
# expect: bad-static-spec at line 34
# runtime: ERROR ValueError
# why: linear_modes marks its defaulted 5th parameter static for jax.checkpoint (static_argnums=4), but callers use the defaults (linear_modes(wn, pmcosmo, pmconf)), and checkpoint's static_argnums must index the positional arguments actually passed, so every such call raises ValueError ('... but got (4,)').
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


from functools import partial

import jax.numpy as jnp
from jax import jit, checkpoint


@partial(jit, static_argnames=('real',))  # scaffolding: the jit at pmwd ca91e43 modes.py L68 is not quoted in the issue
@partial(checkpoint, static_argnums=4)
def linear_modes(modes, cosmo, conf, a=None, real=False):
    Plin = cosmo * jnp.ones_like(modes)  # scaffolding: stands in for linear_power(k, a, cosmo, conf)
    modes = modes * jnp.sqrt(Plin * conf)  # scaffolding
    return modes if real else jnp.fft.rfftn(modes)  # scaffolding


wn = jnp.ones((4, 4, 4))  # scaffolding: white_noise(seed, pmconf)
pmcosmo, pmconf = 1.0, 2.0  # scaffolding: Cosmology and Configuration
try:  # scaffolding
    ic = linear_modes(wn, pmcosmo, pmconf)
    _report({"jit(linear_modes)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
