# source: https://github.com/jax-ml/jax/issues/25194
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: jax.jit used as a decorator factory with static_argnames, as the feature request asked; it works under 0.10.2.
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

import jax  # scaffolding


@jax.jit(static_argnames=('x', 'y'))
def foo(x, y):
    return x * y  # scaffolding: the thread's body is "..."

foo(2, 3)  # scaffolding
foo(2, 3)  # scaffolding
_report({"jit(foo)"}, 2)  # scaffolding
