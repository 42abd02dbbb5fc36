# source: https://github.com/jax-ml/jax/issues/5206
# expect: stale-closure at line 36
# runtime: COMPILES 1 CALLS 2
# why: the jitted init splits and reassigns the global key only while tracing; the cached computation replays the same subkey, so both calls return the same noise and the global key is left holding a tracer.

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
from jax import jit
from jax import random

key = random.PRNGKey(0)

def init():
  global key
  key, subkey = random.split(key)
  return random.normal(subkey, ())

print(init())
print(init())

init = jit(init)
a = init()  # scaffolding: keep both results
b = init()  # scaffolding
print(a, b, "same noise on both calls:", bool(a == b))  # scaffolding
print(type(key).__name__)  # scaffolding: the global key now holds a tracer
_report({"jit(init)"}, 2)  # scaffolding
