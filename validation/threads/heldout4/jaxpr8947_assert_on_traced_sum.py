# source: https://github.com/jax-ml/jax/pull/8947
# expect: trace-time-error at line 36
# runtime: ERROR TracerBoolConversionError
# why: result is a sum of jnp.add values computed inside jit, hence a tracer, so `assert result > 0` needs its boolean value and raises TracerBoolConversionError.

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

N = 10

@jax.jit
def f():
  result = sum(jnp.add(1, 1) for _ in range(N))
  assert result > 0

try:  # scaffolding
    f()
    _report({"jit(f)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
