# source: https://github.com/CCA-Software-Group/short_tutorials/blob/main/docs/tutorials/python/jax/Intro-to-JAX.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the notebook's fix uses jax.lax.cond(x > 0, ...), which stages the branch into the compiled program, so one compile serves the call.
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
import numpy as np

@jax.jit
def func_if2(x):
    return jax.lax.cond(x > 0, lambda: x**3, lambda: x**2)

print(func_if2(10.0))  # scaffolding: print
_report({"jit(func_if2)"}, 1)  # scaffolding
