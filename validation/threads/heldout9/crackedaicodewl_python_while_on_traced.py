# source: https://crackedaicode.com/problems/jax-while-loop-vs-python-while
# expect: trace-time-error at line 35
# runtime: ERROR TracerBoolConversionError
# why: bad is jitted and its Python while tests x > 1.0 on the traced argument, so tracing raises (the page expects ConcretizationTypeError; 0.10.2 raises its subclass TracerBoolConversionError).

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
import jax.numpy as jnp
from jax import lax, jit


@jit
def bad(x):
    while x > 1.0:  # ConcretizationTypeError
        x = x * 0.5
    return x


try:  # scaffolding
    bad(4.0)  # scaffolding
    _report({"jit(bad)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
