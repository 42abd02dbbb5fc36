# source: https://github.com/jax-ml/jax/pull/24705
# expect: trace-time-error at line 36
# runtime: ERROR TracerBoolConversionError
# why: square is a traced argument of the jitted f and reaches g's Python conditional, so 'x ** 2 if square else x' raises TracerBoolConversionError (a static marking on g, which is not the jit boundary, would not help).
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


@jax.jit
def f(x, square):
  return g(x, square)

def g(x: jax.Array, square: bool):
  return x ** 2 if square else x

try:  # scaffolding
  print(f(2, True))
  print(f(2, False))
  _report({"jit(f)"}, 2)
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")
