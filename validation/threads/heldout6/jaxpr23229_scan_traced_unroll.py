# source: https://github.com/jax-ml/jax/pull/23229
# expect: trace-time-error at line 32
# runtime: ERROR ConcretizationTypeError
# why: unroll=n is a traced argument of the jitted lambda, and scan needs a concrete int or bool unroll, so it raises ConcretizationTypeError.

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
import jax  # scaffolding

try:  # scaffolding
    jax.jit(lambda n, x: jax.lax.scan(lambda c, z: (c, z), x, (), 10, unroll=n))(3, 1.)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
