# source: https://docs.jax.dev/en/latest/debugging/checkify_guide.html
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the check is returned as a traced boolean and tested outside jit, so jax.jit(f_checked) compiles once and the Python if runs on a concrete value.
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

def f_checked(x):
  error = x <= 0.
  result = jnp.log(x)
  return error, result

err, y = jax.jit(f_checked)(0.)
try:  # scaffolding
  if err:
    raise ValueError("must be positive!")
except ValueError as e:  # scaffolding
  print(e)  # scaffolding
_report({"jit(f_checked)"}, 1)  # scaffolding
