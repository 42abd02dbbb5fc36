# source: https://gist.github.com/mwitiderrick?page=3
# expect: trace-time-error at line 31
# runtime: ERROR TracerBoolConversionError
# why: the boolean flag is a traced argument of the jitted f, so the conditional expression needs its concrete value and raises TracerBoolConversionError on 0.10.2 (the gist's comment shows the older ConcretizationTypeError).
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


import jax  # scaffolding

@jax.jit
def f(boolean, x):
  return -x if boolean else x
try:  # scaffolding
  f(True, 1)
  _report({"jit(f)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")  # scaffolding
# ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected: Traced<ShapedArray(bool[], weak_type=True)>with<DynamicJaxprTrace(level=0/1)>
