# source: https://github.com/jax-ml/jax/issues/9165
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: A Python list passed to a jitted function is a pytree of traced scalars; jnp.iscomplexobj only inspects the dtype, so on 0.10.2 the call traces (returning False) and later calls with the same structure reuse the compilation.

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
import jax.numpy as jnp  # scaffolding

@jax.jit
def f(x):
  return jnp.iscomplexobj(x)

f([1])
f([2])  # scaffolding
_report({"jit(f)"}, 2)  # scaffolding
