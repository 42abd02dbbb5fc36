# source: https://gist.github.com/mwitiderrick?page=3
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the companion gist marks the flag static with partial(jax.jit, static_argnums=(0,)); f(True, 1) compiles once and returns -1.
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
from functools import partial
@partial(jax.jit, static_argnums=(0,))
def f(boolean, x):
  return -x if boolean else x
f(True, 1)
_report({"jit(f)"}, 1)  # scaffolding
