# source: https://github.com/jax-ml/jax/issues/7535
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: x[idx] indexes with a concrete global boolean array inside jit; the mask is not traced, so f compiles once and runs.

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
from functools import partial
import jax
import jax.numpy as jnp
from jax._src.custom_derivatives import closure_convert

idx = jnp.array([True, False])

def test_fcn(x):
  return x[idx]

@jax.jit
def f(x):
  g, args = closure_convert(test_fcn, x)
  return g(x, *args)

f(jnp.array([0., 1.]))
f(jnp.array([2., 3.]))  # scaffolding: a second call
_report({"jit(f)"}, 2)  # scaffolding
