# source: https://github.com/che-shr-cat/JAX-in-Action
# expect: stale-closure at line 33
# runtime: COMPILES 1 CALLS 4
# why: impure_function reads the global global_state while tracing, so after global_state = 2 the jitted call with the same argument type reuses the cached trace and returns 10 instead of 20 (the book shows 10 for the jitted call and 20 for the plain one).
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

global_state = 1

def impure_function(x):
  print(f'Side-effect: printing x={x}')
  y = x*global_state
  return y

impure_function_jit = jax.jit(impure_function)

print(impure_function_jit(10))  # scaffolding: print
print(impure_function_jit(10))  # scaffolding: print
print(impure_function_jit(11))  # scaffolding: print

global_state = 2

print(impure_function_jit(10))  # scaffolding: print
print(impure_function(10))  # scaffolding: print
_report({"jit(impure_function)"}, 4)  # scaffolding
