# source: https://github.com/jax-ml/jax/issues/3086
# expect: stale-closure at line 37
# runtime: ERROR Exception
# why: the jitted f stores its traced argument in the global x (global x; x = y); with jax_check_tracer_leaks on, as in hawkinsp's example, the leaked tracer raises an Exception at the call.

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
import jax

jax.config.update("jax_check_tracer_leaks", True)
x = None

@jax.jit
def f(y):
    global x
    x = y
    return y + 2

try:  # scaffolding
    f(7)
    _report({"jit(f)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
