# source: https://github.com/jax-ml/jax/issues/2783
# expect: trace-time-error at line 32
# runtime: ERROR ConcretizationTypeError
# why: Under grad, x is a JVP tracer; float() refuses tracers (it would silently drop the derivative), so the Python comparison never runs and grad raises.

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
import jax as api  # scaffolding: jax.api is gone; jax.grad is the same function

def func(x):
   return x if float(x) >= 0. else -x
try:  # scaffolding
   print(api.grad(func)(3.))
   _report(set(), 1)  # scaffolding
except Exception as e:  # scaffolding
   print(f"ERROR {type(e).__name__}")  # scaffolding
