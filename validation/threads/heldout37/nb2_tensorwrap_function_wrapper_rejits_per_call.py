# source: https://github.com/Impure-King/base-tensorwrap/blob/66bbd60eae1dc87f19271cf52d5ac9ea91dbf79d/tensorwrap/experimental/wrappers.py
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: tensorwrap.function calls jax.jit(func) inside the wrapper on every call, but func is the same module-level function each time, so jit's cache hits and it compiles once.

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


# --- tensorwrap/experimental/wrappers.py (exported as tensorwrap.function) ---
def function(func, **kwargs):
    """A decorator that compiles a function on graph and optimizes it for performance."""
    def wrapper(*args):
        funct = jax.jit(func, **kwargs)
        return funct(*args)
    return wrapper
# --- end tensorwrap/experimental/wrappers.py ---


class tf:  # scaffolding: the README's `import tensorwrap as tf`, only what the example uses
    function = staticmethod(function)
    mean = staticmethod(jnp.mean)
    square = staticmethod(jnp.square)


# README example 2) "Just In Time Compiling with tf.function"
@tf.function
def mse(y_pred, y_true):
    return tf.mean(tf.square(y_pred - y_true))

print(mse(100, 102))
for i in range(3):  # scaffolding: the function used again, as in training
    print(mse(100 + i, 102))
_report({"jit(mse)"}, 4)  # scaffolding
