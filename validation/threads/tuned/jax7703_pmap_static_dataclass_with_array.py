# source: https://github.com/jax-ml/jax/issues/7703
# expect: unhashable-static at line 47
# runtime: ERROR ValueError
# why: c is a dataclass(unsafe_hash=True) holding a jax array, so hashing it for static_broadcasted_argnums raises; pmap (like jit, commented out) rejects it as a non-hashable static argument.

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
import dataclasses
from typing import Any
import jax

@dataclasses.dataclass(unsafe_hash=True)
class C:
  x: Any

x = jax.numpy.zeros([1])
c = C(x)

# hash(c)  # unhashable type: 'DeviceArray'

def f(c, x):
  return x * c.x

# jax.jit(f, static_argnums=0)(c, x)  # unhashable type: 'DeviceArray'
try:  # scaffolding
    jax.pmap(f, static_broadcasted_argnums=0)(c, x)
    _report({"pmap(f)", "jit(f)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
