# source: https://github.com/google/torchax/blob/main/docs/docs/user_guide/working-with-impure-functions.md
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the guide's fix wraps impure_f in pure_f, which takes the global as an extra argument and returns the written value, so one compile serves both calls and the second call sees the new global_a (30).
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


def pure_f(x, y, a):  # extra arg for every global
  global global_a
  global global_b
  # Step 1: save old values of global_a and global_b
  old_global_a = global_a
  old_global_b = global_b

  # Step 2: modify global_a to be a
  # note this will be the Tracer object when jitting
  global_a = a
  res = impure_f(x, y)  # call the function as is

  # the above function will modify global_b
  modified_global_b = global_b
  
  # reset values
  global_a = old_global_a
  global_b = old_global_b

  return res, modified_global_b  # return extra args


jitted_pure_f = jax.jit(pure_f)


print("===")
global_a = 10
print("first call", jitted_pure_f(10, 10, global_a))
global_a = 20
print("second call", jitted_pure_f(10, 10, global_a))
print("global b after ", global_b)
_report({"jit(pure_f)"}, 2)  # scaffolding
