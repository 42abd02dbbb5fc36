# source: https://github.com/MonitSharma/parallel_adventures
# expect: stale-closure at line 35
# runtime: COMPILES 2 CALLS 3
# why: impure_fn_with_global reads the global g while tracing; after g = 1 the float call hits the cached trace and still adds 0 (5.0 instead of 6.0), as the notebook's own comment says.
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
from jax import jit

g = 0 
def impure_fn_with_global(x):
    print("This only prints once — during tracing!")
    return x + g


print("First call with global:", jit(impure_fn_with_global)(4.0))
g = 1  # Change the global variable
print("Second call with changed global:", jit(impure_fn_with_global)(5.0)) # here technically I should see 6 as the result, but I see 5 instead

# now when we change the type of the input, it retraces
print("Third call with array input:", jit(impure_fn_with_global)(jnp.array([6.0])))
# This will print "This only prints once — during tracing!" again,
# because the input type has changed, so JAX needs to trace the function again.""
_report({"jit(impure_fn_with_global)"}, 3)  # scaffolding
