# source: https://github.com/uriballo/Jax-QML
# expect: none
# runtime: COMPILES 1 CALLS 20
# why: jax.jit(unjitted_loop_body) is re-wrapped each iteration but always around the same function object, so the cached compile is found: one compile for 20 calls (the notebook's 'this is OK').
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
import numpy as np

from functools import partial

def unjitted_loop_body(prev_i):
  return prev_i + 1

def g_inner_jitted_normal(x, n):
  i = 0
  while i < n:
    # this is OK, since JAX can find the
    # cached, compiled function
    i = jax.jit(unjitted_loop_body)(i)
  return x + i

g_inner_jitted_normal(10, 20).block_until_ready()  # scaffolding: %timeit
_report({"jit(unjitted_loop_body)"}, 20)  # scaffolding
