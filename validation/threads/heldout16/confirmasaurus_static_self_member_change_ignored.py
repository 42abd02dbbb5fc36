# source: https://github.com/Confirm-Solutions/confirmasaurus/blob/main/docs/jax_patterns.md
# expect: stale-closure at line 36
# runtime: COMPILES 1 CALLS 2
# why: self is a static argument hashed by object id, so after W.x = 9 the second W.f() call hits the cached trace made with x = 10 and returns the stale 10 (the guide's output: 10, 10).
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
from functools import partial

class wow:
    def __init__(self, x):
        self.x = x

    @partial(jax.jit, static_argnums=(0,))
    def f(self):
        return self.x
W = wow(10)
print(W.f())
W.x = 9
print(W.f())
_report({"jit(f)"}, 2)  # scaffolding
