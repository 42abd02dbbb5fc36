# source: https://github.com/andremfreitas/ml/blob/a5ab8566d4646546f87b398883ba7be3c28f8b12/jax/jit/why_not_jit_everything.py
# expect: none
# runtime: COMPILES 1 CALLS 20
# why: only the loop body is jitted and the while loop stays in Python, so the 20 calls reuse one executable.
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

# While loop conditioned on x and n with a jitted body.

@jax.jit
def loop_body(prev_i):
  return prev_i + 1

def g_inner_jitted(x, n):
  i = 0
  while i < n:
    i = loop_body(i)
  return x + i

g_inner_jitted(10, 20)
_report({"jit(loop_body)"}, 20)  # scaffolding
