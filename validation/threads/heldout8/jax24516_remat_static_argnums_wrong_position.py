# source: https://github.com/jax-ml/jax/pull/24516
# expect: trace-time-error at line 35
# runtime: ERROR TracerBoolConversionError
# why: remat marks argument 1 static but the function branches on argument 0, which stays traced.
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

from functools import partial
import jax
import jax.numpy as jnp  # scaffolding: the PR snippet uses jnp without importing it

@partial(jax.remat, static_argnums=(1,))
def f(x, _):
  if x > 0:
    return x
  else:
    return jnp.sin(x)

try:  # scaffolding
    f(3., 1.)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
