# source: https://github.com/jax-ml/jax/issues/13914
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: jakevdp's typical fix: op is listed in static_argnames, so f2 compiles once.

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
from jax import jit  # scaffolding
from functools import partial
@partial(jit, static_argnames=['op'])
def f2(x, y, op):
  return x + y if op == 'add' else x * y

f2(1., 2., 'add')
_report({"jit(f2)"}, 1)
