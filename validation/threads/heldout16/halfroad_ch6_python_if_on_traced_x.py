# source: https://github.com/halfroad/JAX
# expect: trace-time-error at line 31
# runtime: ERROR TracerBoolConversionError
# why: function branches with a Python if on x > 0, and x is traced under jax.jit, so jit_function(10.) raises TracerBoolConversionError (the book keeps this call in a string block because it fails).
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

def function(x):

    if x > 0:
        return x
    else:
        return 2 * x

def cond_function(input_):

    result = jax.lax.cond(input_ > 0, lambda x: x, lambda x: x + 1, input_)

    return result

try:  # scaffolding
    jit_function = jax.jit(function)  # scaffolding: the book's quoted-out block, un-quoted
    result = jit_function(10.)  # scaffolding: the book's quoted-out block, un-quoted
    print(result)
    _report({"jit(function)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
