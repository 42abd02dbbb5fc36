# source: https://github.com/liesel-devs/liesel/issues/364
# expect: shape-churn at line 46
# runtime: COMPILES 2 CALLS 2
# why: fn is called once with a Python float b (weak-typed) and once with the same value converted to a strongly typed array, so the abstract input type differs and the jitted fn is compiled twice; the point: weak types do not survive a jitted step, so the next call retraces.
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


import jax
import jax.numpy as jnp


def to_strong_jax(x):
    return jnp.asarray(x, dtype=jnp.asarray(x).dtype)


def fn(a, b):
    return a + b


fn = jax.jit(fn)

a = jnp.arange(5, dtype=jnp.float16)
b_weak = 1.0
b_strong = to_strong_jax(1.0)

print(fn(a, b_weak).dtype)   # float16
print(fn(a, b_strong).dtype)  # float32
_report({"jit(fn)"}, 2)  # scaffolding
