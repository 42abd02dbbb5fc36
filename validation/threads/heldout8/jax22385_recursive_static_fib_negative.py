# source: https://github.com/jax-ml/jax/issues/22385
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: A jitted function with a static argument calls itself recursively; inner calls are inlined, the outer function compiles once per static value.
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

import functools
import jax

@functools.partial(jax.jit, static_argnums=(0,))
def fib(t):
    print(f"Starting tracing fib({t})...")
    out = 1 if t <= 2 else fib(t - 1) + fib(t - 2)
    print(f"Finished tracing fib({t}).")
    return out

print(fib(14))  # scaffolding: 24 in the thread (exponential trace time on 2 cores)
print(fib(14))  # scaffolding: a second call with the same static value
_report({"jit(fib)"}, 2)  # scaffolding
