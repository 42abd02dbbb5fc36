# source: https://jax.readthedocs.io/en/latest/notebooks/thinking_in_jax.html
# expect: trace-time-error at line 32
# runtime: ERROR NonConcreteBooleanIndexError
# why: x[x < 0] has a value-dependent output shape, so jit(get_negatives)(x) raises (NonConcreteBooleanIndexError) although the op-by-op call works.
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


import numpy as np  # scaffolding (earlier cell)
import jax.numpy as jnp
from jax import jit  # scaffolding (earlier cell)

def get_negatives(x):
  return x[x < 0]

x = jnp.array(np.random.randn(10))
get_negatives(x)

try:  # scaffolding
    jit(get_negatives)(x)
    _report({"jit(get_negatives)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
