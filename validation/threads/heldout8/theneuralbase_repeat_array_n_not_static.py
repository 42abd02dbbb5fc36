# source: https://theneuralbase.com/jax/learn/beginner/static-vs-dynamic-values/
# expect: trace-time-error at line 40
# runtime: ERROR TracerIntegerConversionError
# why: the page's repeat_array is decorated with plain @jax.jit although its comment says n must be static; n is traced, so range(n) calls __index__ on a tracer and raises TracerIntegerConversionError.

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
import jax.numpy as jnp
# DYNAMIC VALUE: changes between calls, flows through compiled code
@jax.jit
def sum_dynamic(x):
    return jnp.sum(x)
# STATIC VALUE: known at compile time, affects the compiled code itself
@jax.jit
def repeat_array(x, n: int):
    # n MUST be static because it controls Python-level loop structure
    result = x
    for i in range(n):
        result = jnp.concatenate([result, x])
    return result
# Example 1: Dynamic values (shapes stay the same, data changes)
print("Example 1: Dynamic values")
result1 = sum_dynamic(jnp.array([1.0, 2.0, 3.0]))
print(f"sum_dynamic([1, 2, 3]) = {result1}")
result2 = sum_dynamic(jnp.array([10.0, 20.0, 30.0]))
print(f"sum_dynamic([10, 20, 30]) = {result2}")
try:  # scaffolding
    print(repeat_array(jnp.array([1.0, 2.0]), 2))
    _report({"jit(repeat_array)"}, 1)
except Exception as e:
    print(f"ERROR {type(e).__name__}")
