# source: https://github.com/classicboyir/learn-jax/blob/db40a3a94369ceb5720c96066be7923e4283684a/basics_02.ipynb
# expect: trace-time-error at line 36
# runtime: ERROR TracerBoolConversionError
# why: neg is a traced argument of the jitted f, so `-x if neg else x` converts a tracer to bool and raises TracerBoolConversionError (the notebook's saved output shows ConcretizationTypeError, its jax version's name).
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

# cell 1
import jax
import jax.numpy as jnp
from jax import jit
from jax import make_jaxpr
# (cells 3-4, the static_argnums version, are the fixed file)  # scaffolding
# cell 2
@jit
def f(x, neg):
  print('hello')
  return -x if neg else x

try:  # scaffolding
    f(1, True)
    _report({"jit(f)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
