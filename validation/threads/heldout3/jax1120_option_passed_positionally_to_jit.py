# source: https://github.com/jax-ml/jax/issues/1120
# expect: trace-time-error at line 37
# runtime: ERROR TracerBoolConversionError
# why: jit(python_control_flow)(x, True) traces the option argument, so `x**2 if option else x**3` converts a tracer to bool and raises TracerBoolConversionError, while the vmap forms before it work.

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


import jax.numpy as np  # scaffolding
from jax import jit, vmap  # scaffolding

def python_control_flow(x, option=False):
  return x**2 if option else x**3

vmap(python_control_flow)(np.arange(3))  # works
vmap(jit(python_control_flow))(np.arange(3))  # works
try:  # scaffolding
  (lambda x: jit(python_control_flow)(x, True))(np.arange(3))  # doesn't work
  _report({"jit(python_control_flow)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")
