# source: https://github.com/jax-ml/jax/issues/13914
# expect: trace-time-error at line 36
# runtime: ERROR TypeError
# why: op is a Python str passed to a jitted function without being marked static, so jit cannot interpret it as an array and raises TypeError.

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
import jax

@jax.jit
def f(x, y, op):
  return x + y if op == 'add' else x * y

try:  # scaffolding
    f(1, 2, 'add')
    _report({"jit(f)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
