# source: https://github.com/IanQS/numpy_to_jax/blob/0301de5f7595223117312a36d88d79d3bc135502/solutions/extras_when_not_to_jit.ipynb
# expect: trace-time-error at line 33
# runtime: ERROR TracerBoolConversionError
# why: g runs a Python `while i < n` on its traced argument n, so jax.jit(g)(10, 20) raises TracerBoolConversionError while tracing.

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
import jax  # scaffolding

def g(x, n):
    i = 0
    while i < n:
        i += 1
    return x + i

g_jit = jax.jit(g)

try:
    g_jit(10, 20)  # Should raise an error. 
    _report({"jit(g)"}, 1)  # scaffolding
except Exception as e:
    print(e)
    print(f"ERROR {type(e).__name__}")  # scaffolding
