# source: https://docs.jax.dev/en/latest/control-flow.html
# expect: trace-time-error at line 31
# runtime: ERROR TypeError
# why: length is traced by jit(example_fun), so jnp.ones((length,)) gets a traced shape and bad_example_jit(10, 4) raises TypeError (shapes must be concrete).
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


import jax.numpy as jnp  # scaffolding (earlier cell)
from jax import jit  # scaffolding (earlier cell)

def example_fun(length, val):
  return jnp.ones((length,)) * val
# un-jit'd works fine
print(example_fun(5, 4))

bad_example_jit = jit(example_fun)
# this will fail:
try:  # scaffolding
    bad_example_jit(10, 4)
    _report({"jit(example_fun)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
