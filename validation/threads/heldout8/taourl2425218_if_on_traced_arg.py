# source: https://taourl.com/read-2425218.html
# expect: trace-time-error at line 55
# runtime: ERROR TracerBoolConversionError
# why: jit_func is built once and called twice (the print runs only at trace time, as the answer says); jit_dynamic wraps dynamic_control_flow, whose Python if tests the traced x, so calling it raises TracerBoolConversionError.

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

import jax.numpy as jnp

def non_jit_func(x):

    print("Non-JIT print:", x) # Executes every call

    return x * 2

jit_func = jax.jit(non_jit_func)

# Non-JIT execution

print("Non-JIT output:", non_jit_func(5)) # Prints and computes

print("Non-JIT output:", non_jit_func(5)) # Prints again

# JIT execution

print("JIT output:", jit_func(5)) # Prints only once

print("JIT output:", jit_func(5)) # No print, cached result

def dynamic_control_flow(x):

    if x > 0:

        return x * 2

    else:

        return x + 2

jit_dynamic = jax.jit(dynamic_control_flow)

print("Non-JIT dynamic:", dynamic_control_flow(3)) # Works

print("Non-JIT dynamic:", dynamic_control_flow(-1)) # Works
try:  # scaffolding
    print("JIT dynamic:", jit_dynamic(3))
    _report({"jit(dynamic_control_flow)"}, 1)
except Exception as e:
    print(f"ERROR {type(e).__name__}")
