# source: https://github.com/jax-ml/jax/issues/21994
# expect: trace-time-error at line 32
# runtime: ERROR NonConcreteBooleanIndexError
# why: x.at[x < 5].set(0) indexes with a boolean mask computed from the traced x, whose number of True entries is not static, so jax.jit(f)(x) raises NonConcreteBooleanIndexError (jax.jit(g) with jnp.where works).

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

def f(x):
    return x.at[x < 5].set(0)

def g(x):
    return jnp.where(x < 5, 0, x)

x = jnp.arange(10)
assert jnp.array_equal(f(x), g(x))  # type: ignore

print(jax.jit(g)(x))  # no error
try:  # scaffolding
    print(jax.jit(f)(x))  # error
    _report({"jit(f)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
