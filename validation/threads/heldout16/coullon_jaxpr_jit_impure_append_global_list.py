# source: https://github.com/jeremiecoullon/jax_reading_group
# expect: stale-closure at line 32
# runtime: COMPILES 1 CALLS 2
# why: under jit the append runs only while tracing, so global_list receives a JitTracer on the first call and nothing on the second call, which is served from the cached executable.
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


import jax.numpy as jnp  # scaffolding: imports cut to what the cells use
from jax import jit  # scaffolding

global_list = []
def impure_function(x):
    global_list.append(x)
    return x+1
# call it: here it's a standard Python function
impure_function(1)
print(f"global_list: {global_list}")

jit_im_list = jit(impure_function)
global_list = []
jit_im_list(1)
print(global_list)

# after it's compiled nothing is appended to `global_list`
jit_im_list(1)
print(global_list)
_report({"jit(impure_function)"}, 2)  # scaffolding
