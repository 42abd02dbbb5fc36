# source: https://github.com/jax-ml/jax/issues/19433
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the reporter's workaround np.arange(-1, 1) + x[0] keeps the arange bounds static, so f compiles once.

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


import jax.numpy as np 
from jax import jit 

@jit 
def f(x: np.ndarray) -> np.ndarray: 
     return np.arange(-1, 1) + x[0] 

f(np.zeros(1).astype(int)) 
_report({"jit(f)"}, 1)  # scaffolding
