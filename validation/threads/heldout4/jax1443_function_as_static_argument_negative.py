# source: https://github.com/jax-ml/jax/issues/1443
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: mattjj's answer passes a function as a static argument (static_argnums=(0,)); lambdas hash by identity, and app compiles once for its one call and returns 6.

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


# from __future__ import print_function  (scaffolding: commented out, it must open a file and is a no-op on Python 3)
from functools import partial
from jax import jit

@partial(jit, static_argnums=(0,))
def app(f, x):
  return f(x)

print(app(lambda x: 2 * x, 3))
_report({"jit(app)"}, 1)  # scaffolding
