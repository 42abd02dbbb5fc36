# source: https://github.com/jax-ml/jax/issues/3045
# expect: trace-time-error at line 39
# runtime: ERROR TypeError
# why: msg is a Python str passed to a jitted function without static_argnums, so jit raises TypeError (not a valid JAX type).

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


@jax.jit
def print_yay(arr, msg):
    print(msg)
    print(arr)

try:  # scaffolding
    print_yay(np.array([5, 3, 2, 2020]), "this is my message!")
    _report({"jit(print_yay)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
