# source: https://github.com/jax-ml/jax/issues/13838
# expect: trace-time-error at line 34
# runtime: ERROR TypeError
# why: make_jaxpr traces both arguments, so the exponent y reaches lax.integer_pow as a tracer, but it must be a static (hashable) parameter; tracing raises TypeError.

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

x: float = jax.numpy.arange(100, dtype=float)
y: int = 4

try:  # scaffolding
    jax.make_jaxpr(jax.lax.integer_pow)(x, y)
    _report({"jit(integer_pow)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
