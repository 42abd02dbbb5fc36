# source: https://github.com/jax-ml/jax/issues/1453
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: marking the stride (argument 2) static keeps it a tuple of Python ints during tracing, so the jitted conv compiles once and is reused for the second call with the same stride.

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
conv_jit = jit(conv, static_argnums=2)  # fixed: the stride is static
print(conv_jit(A, kernel, (1,1)))
print(conv_jit(A + 1, kernel, (1,1)))  # scaffolding: a second call, same stride
_report({"jit(<lambda>)"}, 2)  # scaffolding
