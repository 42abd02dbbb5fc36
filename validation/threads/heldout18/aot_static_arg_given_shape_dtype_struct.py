# source: https://docs.jax.dev/en/latest/aot.html
# expect: trace-time-error at line 34
# runtime: ERROR TypeError
# why: argument 0 is static, so it must be a concrete Python value; passing a ShapeDtypeStruct makes 2 * x fail at trace time with TypeError.
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
    jax.jit(f, static_argnums=0).trace(i32_scalar, i32_scalar)
    _report({"jit(f)"}, 0)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
