# source: https://jax.readthedocs.io/en/latest/notebooks/thinking_in_jax.html
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: with static_argnums=(1,) neg is a Python bool at trace time; f(1, True) and f(1, False) compile once each (2 compiles, 2 calls), as the guide says ('results in re-compilation, so the function still works').
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
from functools import partial

@partial(jit, static_argnums=(1,))
def f(x, neg):
  return -x if neg else x

f(1, True)

f(1, False)
_report({"jit(f)"}, 2)  # scaffolding
