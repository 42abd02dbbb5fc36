# source: https://github.com/jax-ml/jax/pull/595
# expect: shape-churn at line 33
# runtime: COMPILES 3 CALLS 7
# why: jit keys its cache on the call's argument structure, so switching between f(1, 2), f(1, y=2) and f(x=2, y=3) compiles the same lambda three times for 7 calls (still so on 0.10.2, as mattjj's comments say).
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

f = jit(lambda x, y: x + y)
f(1, 2)
f(2, 3)  # cache hit
f(1, y=2)  # cache miss, re-compiles
f(3, y=4)  # cache hit
f(5, 6)  # cache hit
f(x=2, y=3)  # cache miss, re-compiles
f(y=4, x=8)  # cache hit
_report({"jit(<lambda>)"}, 7)
