# source: https://github.com/jax-ml/jax/pull/19129
# expect: jit-in-loop-or-body at line 32
# runtime: COMPILES 2 CALLS 2
# why: jax.jit(lambda x: 2 * x) builds a new function object on every iteration, so the cache never hits and each of the 2 calls compiles.

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

print('=== EXAMPLE 3: redefining function in a loop')
for _ in range(2):
  jax.jit(lambda x: 2 * x)(3)
_report({"jit(<lambda>)"}, 2)  # scaffolding
