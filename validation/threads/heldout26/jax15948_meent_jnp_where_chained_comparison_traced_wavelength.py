# source: https://github.com/jax-ml/jax/issues/15948
# expect: trace-time-error at line 46
# runtime: ERROR TracerBoolConversionError
# why: 500 < wavelength <= 600 is a Python chained comparison, i.e. (500 < w) and (w <= 600); under jit the `and` calls bool() on a traced comparison and raises TracerBoolConversionError.
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


def a(wavelength):

    np.where(500 < wavelength, 0, 2)
    print('OK')
    np.where(500 < wavelength <= 600, 0, 2)
    print('OK')


def aa(wavelength):

    jnp.where(500 < wavelength, 0, 2)
    print('OK')
    jnp.where(500 < wavelength <= 600, 0, 2)
    print('OK')


a(900)
aa(900)
try:  # scaffolding
    jax.jit(aa)(900)
    _report({"jit(aa)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
