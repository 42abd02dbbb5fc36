# source: https://github.com/jax-ml/jax/pull/4661
# expect: unhashable-static at line 38
# runtime: ERROR ValueError
# why: a numpy.ndarray passed as the static argument (index 1) of f is not hashable; the warning this PR added ('it will raise an error in a near future') is an error on 0.10.2: ValueError at the call.
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


def f(x, y):  # scaffolding: a function f with a numpy array as its static argument 1
    return x * y.sum()


f_jit = jax.jit(f, static_argnums=1)
try:  # scaffolding
    f_jit(1.0, np.arange(3.0))
    _report({"jit(f)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
