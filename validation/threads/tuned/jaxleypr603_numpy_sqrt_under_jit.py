# source: https://github.com/jaxleyverse/jaxley/pull/603
# expect: trace-time-error at line 36
# runtime: ERROR TracerArrayConversionError
# why: np.sum and np.sqrt are NumPy calls on the traced param, so NumPy converts the tracer to a concrete array and tracing mytest raises TracerArrayConversionError (the PR's first snippet: 'does not work in JAX').

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
import numpy as np  # scaffolding
import jax.numpy as jnp  # scaffolding
from jax import jit  # scaffolding


@jit
def mytest(param):
    return np.sqrt(np.sum(param * np.asarray([3.0, 4.0])))
try:  # scaffolding
    mytest(jnp.ones((1,)))
    _report({"jit(mytest)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
