# source: https://github.com/jax-ml/jax/issues/2506
# expect: trace-time-error at line 32
# runtime: ERROR ConcretizationTypeError
# why: idx is a traced argument of the jitted lambda, and np.split needs concrete sections, so the call raises ConcretizationTypeError.

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


import jax as api  # scaffolding: `from jax import api` is gone; api.jit is jax.jit
import jax.numpy as np  # scaffolding

try:  # scaffolding
    api.jit(lambda idx: np.split(np.zeros((6,2)), idx))(2)  # scaffolding: one ")" the thread left out
    _report({"jit(<lambda>)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
