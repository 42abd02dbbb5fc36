# source: https://github.com/jax-ml/jax/issues/3708
# expect: unhashable-static at line 39
# runtime: ERROR ValueError
# why: A Python slice is passed as the static argument s; slice objects are unhashable on Python 3.11, so jit raises ValueError (in 2020 it silently hashed by id and recompiled for every equal slice).

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
import functools  # scaffolding
import jax  # scaffolding

@functools.partial(jax.jit, static_argnums=1)
def foo(arr, s):
  return arr[s]

a = jax.numpy.array([1, 2, 3])
try:  # scaffolding
    # foo will be compiled twice
    foo(a, slice(1, 2))
    foo(a, slice(1, 2))
    _report({"jit(foo)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
