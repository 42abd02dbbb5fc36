# source: https://github.com/tensorflow/lingvo/issues/332
# expect: trace-time-error at line 34
# runtime: ERROR TracerBoolConversionError
# why: jnp.array_equal(x.shape, shape) turns the static shapes into arrays and is staged out under jit, so the Python if on its result needs a concrete bool and raises TracerBoolConversionError, as reported.

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


def AssertShape(x: jnp.array, shape) -> None:
  if not jnp.array_equal(x.shape, shape):
    raise ValueError(f'Shape mismatch: found {x.shape}, expected: {shape}')


@jax.jit  # scaffolding
def f(x):  # scaffolding
  AssertShape(x, (2, 3))
  return x * 2


try:  # scaffolding
  f(jnp.ones((2, 3)))
  _report({"jit(f)"}, 1)
except Exception as e:
  print(f"ERROR {type(e).__name__}")
