# source: https://github.com/jax-ml/jax/issues/5228
# expect: trace-time-error at line 31
# runtime: ERROR TypeError
# why: a numpy array of str (dtype '<U2') is passed to a jitted function; JAX has no string dtype, so the call raises TypeError (in 2020 a RuntimeError from XLA).

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


from jax import jit
import numpy as np
try:  # scaffolding
    jit(lambda x: x)(np.array(['hi']))
    _report({"jit(<lambda>)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
