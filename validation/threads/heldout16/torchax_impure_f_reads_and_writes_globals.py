# source: https://github.com/google/torchax/blob/main/docs/docs/user_guide/working-with-impure-functions.md
# expect: stale-closure at line 37
# runtime: COMPILES 1 CALLS 2
# why: jax.jit(impure_f) bakes global_a=10 into the trace, so after global_a = 20 the second call still returns 20 instead of 30 from the cached executable, and the write global_b = y + 2 leaves a JitTracer in the global.
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


import jax

global_a = 10
global_b = None


def impure_f(x, y):
  print("arguments", x, y)
  global global_b
  global_b = y + 2  # writes to global
  return global_a + x  # reads global


jitted_f = jax.jit(impure_f)

print("first call", jitted_f(10, 10))
global_a = 20
print("second call", jitted_f(10, 10))
print("global b after ", global_b)
_report({"jit(impure_f)"}, 2)  # scaffolding
