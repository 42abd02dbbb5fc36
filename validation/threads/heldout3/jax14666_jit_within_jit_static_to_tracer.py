# source: https://github.com/jax-ml/jax/issues/14666
# expect: nested-jit at line 46
# runtime: ERROR ConcretizationTypeError
# why: g2 calls the jitted jit_f on its static N, and the inner jit returns a traced value, so float(fN) raises ConcretizationTypeError; g1, calling the plain f, gets a static int and works.

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

jit_f = jax.jit(f, static_argnums=0)

@partial(jax.jit, static_argnums=0)
def g1(N):
  fN = f(N)  # this is a static int
  return float(fN)  # does not fail
print(g1(1))
# 1.0

@partial(jax.jit, static_argnums=0)
def g2(N):
  fN = jit_f(N)  # this is a non-static traced value
  return float(fN)  # fails because fN is not static
try:  # scaffolding
  print(g2(1))
  _report({"jit(g2)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")
# ConcretizationTypeError
