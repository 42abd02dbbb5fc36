# source: https://github.com/NACLab/ngc-learn/pull/79
# expect: trace-time-error at line 37
# runtime: ERROR TypeError
# why: root is jitted without static arguments, so the Python function passed as method is treated as an array argument and jit raises TypeError (a function is not a valid JAX type).

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
from jax import jit

def func1(foo):
    return foo * 2

def func2(foo):
    return foo * 3

@jit
def root(base, method):
    return method(base)

try:  # scaffolding
    root(3, func1)

    root(3, func2)
    _report({"jit(root)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
