# source: https://github.com/jax-ml/jax/issues/4449
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: with plain Python arithmetic (arr.size + 1, which the reporter found works and the omnistaging note recommends) count stays concrete and custom_ones compiles once.

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
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding

@jax.jit
def custom_ones(arr):
  count = arr.size + 1
  return jnp.ones((count,))

a = jnp.ones((3,))
custom_ones(a)
_report({"jit(custom_ones)"}, 1)
