# source: https://github.com/jax-ml/jax/issues/4449
# expect: trace-time-error at line 35
# runtime: ERROR TypeError
# why: jnp.add(arr.size, 1) is staged out under jit, so count is traced and jnp.ones((count,)) raises TypeError (shapes must be concrete).

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
  count = jnp.add(arr.size, 1)
  return jnp.ones((count,))

a = jnp.ones((3,))
try:  # scaffolding
    custom_ones(a)
    _report({"jit(custom_ones)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
