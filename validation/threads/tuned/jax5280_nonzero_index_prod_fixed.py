# source: https://github.com/jax-ml/jax/issues/5280
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: jakevdp's fix: the three-argument jnp.where keeps a static shape, so f compiles once.

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

def f(a):
  return jnp.where(a != 0, a, 1).prod()

jax.jit(f)(jnp.array([0., 1., 2., 0., 3.]))
_report({"jit(f)"}, 1)
