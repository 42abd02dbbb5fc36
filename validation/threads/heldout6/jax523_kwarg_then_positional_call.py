# source: https://github.com/jax-ml/jax/issues/523
# expect: shape-churn at line 39
# runtime: COMPILES 2 CALLS 2
# why: the same value of foo_power is passed first by keyword, then positionally; the two call signatures are different cache keys, so jit_foo compiles twice for 2 calls.

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
import jax.numpy as jnp  # scaffolding

def foo(x, foo_power=10):
   # ...
   return x ** foo_power  # scaffolding: the body is elided in the issue

x = jnp.arange(3.0)  # scaffolding
jit_foo = jax.jit(foo)
jit_foo(x, foo_power=11)
jit_foo(x, 11)
_report({"jit(foo)"}, 2)  # scaffolding
