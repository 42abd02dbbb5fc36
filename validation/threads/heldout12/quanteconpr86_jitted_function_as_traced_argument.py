# source: https://github.com/QuantEcon/lecture-jax/pull/86
# expect: trace-time-error at line 37
# runtime: ERROR TypeError
# why: g is jitted with no static arguments, so the jitted function f passed as its first argument is treated as an array argument and jit cannot abstract it (a PjitFunction has no dtype), raising TypeError at the call.

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
# from numba import njit as jit

@jit
def f(x, y, z):
    return x+y+z


@jit
def g(func, x, *args):
    r = func(x, *args)
    return r

try:  # scaffolding
    print(g(f, 2, 3, 4))
    _report({"jit(g)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print("ERROR", type(e).__name__)  # scaffolding
