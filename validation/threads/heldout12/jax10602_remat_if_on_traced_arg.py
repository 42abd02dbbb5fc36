# source: https://github.com/jax-ml/jax/issues/10602
# expect: trace-time-error at line 33
# runtime: ERROR TracerBoolConversionError
# why: jax.remat traces its function's arguments like jit does, so the Python if on x is a boolean conversion of a tracer and fails even though f is called with a plain float.

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
import jax

@jax.remat
def f(x):
  if x > 0: return 5.
  return 2.

try:  # scaffolding
  f(3.)
  _report(set(), 1)  # scaffolding
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")  # scaffolding
