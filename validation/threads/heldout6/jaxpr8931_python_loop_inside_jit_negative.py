# source: https://github.com/jax-ml/jax/pull/8931
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: a Python for loop inside the jitted f is unrolled at trace time (slow to trace for long loops, which is what the PR logs), but f compiles once for 2 calls.

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

@jax.jit
def f(x):
  for _ in range(100):  # scaffolding: range(10000) in the PR
    x = jnp.sin(x)
  return x

f(3.)
f(4.)  # scaffolding: a second call
_report({"jit(f)"}, 2)  # scaffolding
