# source: https://github.com/jax-ml/jax/issues/14666
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: g1 calls the plain (unjitted) f on its static N, so fN stays a Python int and float(fN) works: g1 compiles once.

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
from functools import partial

def f(N):
  return N

@partial(jax.jit, static_argnums=0)
def g1(N):
  fN = f(N)  # this is a static int
  return float(fN)  # does not fail
print(g1(1))
# 1.0
_report({"jit(g1)"}, 1)  # scaffolding
