# source: https://docs.jax.dev/en/latest/aot.html
# expect: trace-time-error at line 35
# runtime: ERROR TypeError
# why: the executable was compiled for int32[] arguments and is called with int32[3] arrays; an AOT-compiled function does not retrace, so the call raises TypeError.
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
import jax.numpy as jnp  # scaffolding

def f(x, y): return 2 * x + y  # scaffolding: from the page's first example
i32_scalar = jax.ShapeDtypeStruct((), jnp.dtype('int32'))

try:  # scaffolding
    x_1d = y_1d = jnp.arange(3)
    jax.jit(f).trace(i32_scalar, i32_scalar).lower().compile()(x_1d, y_1d)
    _report({"jit(f)"}, 1)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
