# source: https://github.com/jax-ml/jax/issues/1945
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: inner is jitted twice inside one call of func under jvp; on 0.10.2 the second jit(inner) hits the first's cache entry, so inner compiles once for its 2 calls and jvp returns (45, 9) (the 2020 caching error is fixed).
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
import jax as api
import jax


def func(x):
  def inner(y):
    return y * x

  # Must have two calls to the inner jit (the second one hits the cache)
  res1 = api.jit(inner)(4.)
  res2 = api.jit(inner)(5.)
  return res1 + res2

print(api.jvp(func, (5.,), (1.,)))  # scaffolding: the test asserts (45., 9.)
_report({n for n in _COMPILED if "inner" in n}, 2)
