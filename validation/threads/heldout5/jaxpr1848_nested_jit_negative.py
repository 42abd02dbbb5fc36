# source: https://github.com/jax-ml/jax/pull/1848
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the jitted f called inside the jitted g is staged into g's computation: one backend compile (g's) for the call, and f is not compiled separately.
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


@jit
def f(x, y):
    z = 2 * x
    return y + z

@jit
def g(x):
    return f(2, x)

g(3)
_report({"jit(f)", "jit(g)"}, 1)
