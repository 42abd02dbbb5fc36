# source: https://github.com/ntrajic/Full_Stack_DL_NG_Python
# expect: stale-closure at line 39
# runtime: COMPILES 3 CALLS 4
# why: power_of reads the global power while tracing; after power = 10 the call with the same int x reuses the cached trace and returns 32 instead of 1024, as the notebook notes.
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
import numpy as np
import jax.numpy as jnp

from jax import jit
from jax import lax

power = 5

def power_of(x):
    
    return x**power

x = 2

x_5 = power_of(x)

power = 10

x_10 = power_of(x)

power = 5

x_5 = jit(power_of)(x)

power = 10

x_10 = jit(power_of)(x)

print(x_10)  # scaffolding: the notebook shows 32 here ('Expected value of x_10 below is 32 but 1024 is obtained')

x = 2.0

x_10 = jit(power_of)(x)

x = jnp.array([2])

x_10 = jit(power_of)(x)
_report({"jit(power_of)"}, 4)  # scaffolding
