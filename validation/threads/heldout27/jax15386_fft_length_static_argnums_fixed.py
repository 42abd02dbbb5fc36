# source: https://github.com/jax-ml/jax/issues/15386
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: jakevdp's fix: static_argnums=1 with the length given as a Python int, so the output shape is known at trace time and my_fft compiles once.
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

# jakevdp's reply: mark the length argument as static and pass it as a Python int
_ = jax.jit(my_fft, static_argnums=1)(a, 1024)
_report({"jit(my_fft)"}, 1)  # scaffolding
