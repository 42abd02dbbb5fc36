# source: https://github.com/jax-ml/jax/issues/1453
# expect: trace-time-error at line 40
# runtime: ERROR TracerArrayConversionError
# why: jit(conv) traces every argument, so the stride tuple (1, 1) arrives in lax.conv as a tuple of tracers and converting it to a concrete window-stride array raises while tracing.

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
import jax.numpy as np
from jax import lax, jit

A = np.ones((1,1,4,4))
kernel = np.ones((1,1,3,3))
conv = lambda A, kernel, stride: lax.conv(A, kernel, stride, 'SAME')

print("this convolution call works")
print(conv(A, kernel, (1,1)))
print("but after jitting it causes an AttributeError")
try:  # scaffolding
    print(jit(conv)(A, kernel, (1,1)))
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
