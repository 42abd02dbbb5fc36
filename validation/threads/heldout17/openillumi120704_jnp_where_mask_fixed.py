# source: https://openillumi.com/?p=120704
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the mask jnp.arange(x.shape[0]) < index keeps every shape static while index stays traced, so fun compiles once and serves two different index values.
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
import jax.numpy as jnp

def other_fun(x):
    return x + 1

@jax.jit
def fun(x, index):
  mask = jnp.arange(x.shape[0]) < index # Create a mask
  return jnp.where(mask, other_fun(x), x) # Update values based on the mask

print(fun(jnp.arange(5.), 3))  # scaffolding
print(fun(jnp.arange(5.), 1))  # scaffolding
_report({"jit(fun)"}, 2)  # scaffolding
