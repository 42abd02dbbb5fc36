# source: https://apxml.com/courses/getting-started-with-jax/chapter-2-accelerating-functions-jit/jit-control-flow
# expect: trace-time-error at line 33
# runtime: ERROR TracerBoolConversionError
# why: conditional_func_py branches with a Python `if x > 0` on its argument; under jax.jit x is a tracer, so the bool conversion raises while tracing (the tutorial's own warning, measured).

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

def conditional_func_py(x):
    if x > 0:
        return x * 2
    else:
        return x / 2

# Try running with a regular number (works fine)
print(conditional_func_py(5.0)) # Output: 10.0
print(conditional_func_py(-4.0)) # Output: -2.0

# Now, let's try to JIT-compile it
jitted_conditional_py = jax.jit(conditional_func_py)

# This will raise an error!
try:  # scaffolding
    jitted_conditional_py(jnp.array(5.0))  # the page has this call commented out; uncommented (scaffolding)
    _report({"jit(conditional_func_py)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
