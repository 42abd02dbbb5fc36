# source: https://taourl.com/read-2679538.html
# expect: shape-churn at line 42
# runtime: COMPILES 2 CALLS 3
# why: jit_func is called with shape (3,) twice and then with shape (4,); the third call has a new input shape, so jit retraces and recompiles (2 compiles for 3 calls), the slowdown the answer attributes to changing input shapes.

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
def example_func(x):
    return jnp.sin(x) + jnp.cos(x)
jit_func = jax.jit(example_func)
# First run (compilation occurs)
x1 = jnp.array([1.0, 2.0, 3.0])
result1 = jit_func(x1) # Slow due to compilation
# Second run (expected to be fast)
x2 = jnp.array([1.0, 2.0, 3.0])
result2 = jit_func(x2) # Fast, cached compilation used
# Third run (different shape, recompilation occurs)
x3 = jnp.array([1.0, 2.0, 3.0, 4.0])
result3 = jit_func(x3) # Slow again due to recompilation
_report({"jit(example_func)"}, 3)  # scaffolding
