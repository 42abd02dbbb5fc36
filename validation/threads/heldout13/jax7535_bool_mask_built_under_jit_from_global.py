# source: https://github.com/jax-ml/jax/issues/7535
# expect: trace-time-error at line 37
# runtime: ERROR NonConcreteBooleanIndexError
# why: bad_idx = idx == 0 is computed inside the jitted f, so the boolean mask is a tracer even though idx is a concrete global, and x[bad_idx] raises NonConcreteBooleanIndexError.

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
from functools import partial
import jax
import jax.numpy as jnp
from jax._src.custom_derivatives import closure_convert

idx = jnp.array([True, False])

def test_fcn(x):
  bad_idx = idx == 0
  return x[bad_idx]

@jax.jit
def f(x):
  g, args = closure_convert(test_fcn, x)
  return g(x, *args)

try:  # scaffolding
  f(jnp.array([0., 1.]))
  _report({"jit(f)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")  # scaffolding
