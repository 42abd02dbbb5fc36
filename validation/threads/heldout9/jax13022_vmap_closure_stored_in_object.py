# source: https://github.com/jax-ml/jax/pull/13022
# expect: stale-closure at line 39
# runtime: ERROR Exception
# why: sketch stores a lambda that closes over its traced argument in the dict of a global object, so the tracer outlives the transformation; with jax_check_tracer_leaks on, the leaked tracer raises an Exception at the transformed call.

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
jax.config.update('jax_check_tracer_leaks', True)

class A:
  def __init__(self, dct):
    self.dct = dct

a = A({})

def sketch(x):
  a.dct['hi'] = [lambda: x]
  return x

try:  # scaffolding
  jax.vmap(sketch)(jax.numpy.arange(3))
  print("COMPILES 0 CALLS 1")  # scaffolding
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")  # scaffolding
