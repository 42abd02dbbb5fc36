# source: https://github.com/google-deepmind/torax/blob/main/docs/jax_classes.rst
# expect: stale-closure at line 32
# runtime: COMPILES 1 CALLS 2
# why: a plain mutable Vehicle is passed as a static argument and hashes/compares by identity, so after x.num_wheels = 4 the second f(x) hits the cache traced with num_wheels = 2 and prints 2 again (the guide: 'it prints a 2 both times').
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


import functools
import jax

@functools.partial(jax.jit, static_argnums=0)
def f(x):
  return x.num_wheels

class Vehicle:
  def __init__(self, num_wheels):
    self.num_wheels = num_wheels

x = Vehicle(2)
print(f(x))
x.num_wheels = 4
print(f(x))
_report({"jit(f)"}, 2)  # scaffolding
