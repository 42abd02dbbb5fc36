# source: https://github.com/MonitSharma/parallel_adventures
# expect: trace-time-error at line 34
# runtime: ERROR NonConcreteBooleanIndexError
# why: get_negatives indexes x with the boolean mask x < 0, whose result size depends on the values, so jit(get_negatives)(x) raises NonConcreteBooleanIndexError (the eager call works).
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
import numpy as np
import jax.numpy as jnp
from jax import jit


def get_negatives(x):
    return x[x < 0]

x = jnp.array(np.random.randn(10))
get_negatives(x)

try:  # scaffolding
    jit(get_negatives)(x)
    _report({"jit(get_negatives)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
