# source: https://github.com/jax-ml/jax/pull/33665
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: The docstring example reassigns x = f(x) in a row; the output has the same shape and dtype as the input, so the second call is a cache hit and f compiles once.

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
def f(x):
  y = x * 2
  return y

x = jax.numpy.array([1, 2, 3])
with jax.log_compiles():
  x = f(x) # compile 1
  x = f(x) # no compile
_report({"jit(f)"}, 2)  # scaffolding
