# source: https://github.com/jax-ml/jax/issues/1936
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: shoyer's recommended wrapper: my_func forwards keywords positionally to the jitted _my_func, so y stays static; 1 compile for 2 calls with the same y.

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
import jax.numpy as jnp  # scaffolding

@functools.partial(jax.jit, static_argnums=(1,))
def _my_func(x, y):
  return x * jnp.arange(y)  # scaffolding: the body is elided in the issue

def my_func(x, y):
  return _my_func(x, y)

print(my_func(x=1, y=2))
print(my_func(x=3, y=2))  # scaffolding: a second call
_report({"jit(_my_func)"}, 2)  # scaffolding
