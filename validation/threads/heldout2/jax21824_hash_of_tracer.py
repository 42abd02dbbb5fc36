# source: https://github.com/jax-ml/jax/issues/21824
# expect: trace-time-error at line 30
# runtime: ERROR TypeError
# why: hash is jitted, so it is applied to a tracer; on jax 0.10.2 tracers are unhashable again and the call raises TypeError (unhashable type: 'DynamicJaxprTracer'); the issue reported that 0.4.29 let it through.

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
try:  # scaffolding
    jax.jit(hash)(1)
    _report({"jit(hash)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
