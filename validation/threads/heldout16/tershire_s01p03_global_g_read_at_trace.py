# source: https://github.com/Tershire/JAX_Study
# expect: stale-closure at line 33
# runtime: COMPILES 2 CALLS 3
# why: impure_global_var_use reads the global g while tracing; after g = 1.62 the call with the same int argument reuses the cached trace and still returns 10.81 (the notebook: 'result still uses g=9.81'), only the new shape retraces.
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


import jax.numpy as jnp  # scaffolding
from jax import jit  # scaffolding

g = 9.81

def impure_global_var_use(x):
    return x + g

impure_global_var_use_jit = jit(impure_global_var_use)

print("1st run:")
print(" ", impure_global_var_use_jit(1))

# update the global variable, g
g = 1.62

print("run after g update:")
print(" ", impure_global_var_use_jit(1))

print("run after type change:")
print(" ", impure_global_var_use_jit(jnp.array([1])))
_report({"jit(impure_global_var_use)"}, 3)  # scaffolding
