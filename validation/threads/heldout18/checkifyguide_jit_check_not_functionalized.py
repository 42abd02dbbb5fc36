# source: https://docs.jax.dev/en/latest/debugging/checkify_guide.html
# expect: trace-time-error at line 38
# runtime: ERROR ValueError
# why: f calls checkify.check but is jitted without checkify.checkify, so tracing raises ValueError (a checkify.check that was not functionalized cannot be abstractly evaluated).
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


from jax.experimental import checkify
import jax
import jax.numpy as jnp

def f(x, i):
  checkify.check(i >= 0, "index needs to be non-negative, got {i}", i=i)
  y = x[i]
  z = jnp.sin(y)
  return z

try:  # scaffolding
    jax.jit(f)(jnp.ones((5,)), -1)  # checkify transformation not used
    _report({"jit(f)"}, 1)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
