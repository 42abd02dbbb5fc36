# source: https://docs.jax.dev/en/latest/debugging/checkify_guide.html
# expect: trace-time-error at line 31
# runtime: ERROR TracerBoolConversionError
# why: the Python assert needs a concrete bool, but under jax.jit x is traced, so jax.jit(f)(0.) raises TracerBoolConversionError (the guide shows ConcretizationTypeError).
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


import jax  # scaffolding
import jax.numpy as jnp  # scaffolding

def f(x):
  assert x > 0., "must be positive!"
  return jnp.log(x)

try:  # scaffolding
    jax.grad(f)(0.)
except AssertionError as err:  # scaffolding
    print("grad:", err)  # scaffolding

try:  # scaffolding
    jax.jit(f)(0.)
    _report({"jit(f)"}, 1)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
