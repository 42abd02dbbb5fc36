# source: https://github.com/jax-ml/jax/issues/15386
# expect: trace-time-error at line 31
# runtime: ERROR TracerIntegerConversionError
# why: b, the FFT length that sets the output shape, is a traced argument of jax.jit(my_fft), so jnp.fft.fft cannot use it as a size and raises TracerIntegerConversionError; the eager call works.
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

def my_fft(a,b):
    return jnp.fft.fft(a,b)

a = jnp.arange(1000)
b = jnp.array(1024)

# non-jit is valid:
_ = my_fft(a,b)

try:  # scaffolding
    # jit fails:
    _ = jax.jit(my_fft)(a,b)
    _report({"jit(my_fft)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
