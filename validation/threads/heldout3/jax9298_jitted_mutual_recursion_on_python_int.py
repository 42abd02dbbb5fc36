# source: https://github.com/jax-ml/jax/issues/9298
# expect: trace-time-error at line 34
# runtime: ERROR TracerBoolConversionError
# why: with f and g jitted (soraros's second configuration), the Python int lower becomes a tracer at the jit boundary, so `if lower < 1` converts a tracer to bool and raises, although the unjitted version runs.

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


from functools import partial
from jax import jit

@jit  # scaffolding: the thread's case 2 enables this decorator
# @partial(jit, inline=True)
def f(init, lower):
  if lower < 1:
    return 0.
  else:
    return g(init, lower - 1)

@jit  # scaffolding: the thread's case 2 enables this decorator
# @partial(jit, inline=True)
def g(init, lower):
  if lower < 1:
    return 0.
  else:
    return f(init, lower - 1)

# @jit
def h():
  return f(0., 2)

try:  # scaffolding
  h()
  _report({"jit(f)", "jit(g)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")
