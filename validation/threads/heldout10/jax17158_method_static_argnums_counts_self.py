# source: https://github.com/jax-ml/jax/issues/17158
# expect: bad-static-spec at line 43
# runtime: ERROR TypeError
# why: on the method, argument 0 is self, so static_argnums=(1,) marks the array x as static and leaves self (and neg) traced; on jax 0.10.2 the call raises TypeError because the Test instance self cannot be interpreted as an array (in 2023 the reported error was ValueError for the non-hashable static x), while the same spec on the free function works.

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
from functools import partial
import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(1,))
def f(x, neg):
  return -x if neg else x

arr = jnp.array([1,2])
result = f(arr, True)


class Test:
  @partial(jax.jit, static_argnums=(1,))
  def f(self, x, neg):
    return -x if neg else x

t = Test()
arr = jnp.array([1,2])
try:  # scaffolding
  result = t.f(arr, True)
  _report({"jit(f)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")  # scaffolding
