# source: https://github.com/jax-ml/jax/issues/8962
# expect: trace-time-error at line 31
# runtime: ERROR ConcretizationTypeError
# why: x.item() needs the concrete value of the array; under jax.jit(test) x is a tracer, so the call raises instead of returning 1.0 as the eager call does.

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

def test(x):
    return x.item()

test(jax.numpy.ones(1))
# 1.0
try:  # scaffolding
    jax.jit(test)(jax.numpy.ones(1))
    _report({"jit(test)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
