# source: https://github.com/jax-ml/jax/issues/12083
# expect: trace-time-error at line 33
# runtime: ERROR TracerArrayConversionError
# why: jnp.ndim of a Python list goes through numpy, which converts the list to an array; under jit the jnp.ones(1) inside it is a tracer, so the jitted call raises TracerArrayConversionError while the eager call works.

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


import jax
from jax import numpy as jnp
from jax.scipy import linalg as jlinalg
import numpy

func = lambda x: x + jnp.ndim([jnp.ones(1)])
func(0.)
try:  # scaffolding
    jax.jit(func)(0.)
    _report({"jit(<lambda>)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
