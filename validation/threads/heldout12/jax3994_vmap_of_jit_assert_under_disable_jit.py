# source: https://github.com/jax-ml/jax/issues/3994
# expect: trace-time-error at line 37
# runtime: ERROR TracerBoolConversionError
# why: froystig's counterexample from the thread: with jit disabled the guard is true, but vmap still traces arr, so the data-dependent assert converts a batched tracer to bool and fails.

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
import jax.numpy as jnp  # scaffolding


@jax.vmap
@jax.jit
def func(arr):
    if jax.config.jax_disable_jit:  # scaffolding: jax.api._jit_is_disabled() is gone; this is the flag it read
        assert arr.min() > 0, "data-dependent check failed"
    # implement the rest of the function
    return arr * 2  # scaffolding


try:  # scaffolding
    with jax.disable_jit():
      func(jax.numpy.ones((3, 4)))
    _report({"jit(func)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
