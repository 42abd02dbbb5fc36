# source: https://github.com/jax-ml/jax/issues/19433
# expect: trace-time-error at line 33
# runtime: ERROR ConcretizationTypeError
# why: the bounds x[0] - 1 and x[0] + 1 are traced values, and jnp.arange needs concrete bounds to know its length, so it raises ConcretizationTypeError even though the length would always be 2 (jakevdp: the values are not known at compile time).

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
     return np.arange(x[0] - 1, x[0] + 1)

try:  # scaffolding
    f(np.zeros(1).astype(int)) 
    _report({"jit(f)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
