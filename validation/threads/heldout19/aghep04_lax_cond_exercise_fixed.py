# source: https://github.com/aghilanai/jax-course/blob/main/ep04/solution.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the exercise solution replaces the value-dependent if with lax.cond under @jit; two calls with different signs share one compile.
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

from functools import partial

import jax
import jax.numpy as jnp
from jax import grad, jit, lax

@jit
def abs_scaled(x):
    return lax.cond(x < 0, lambda v: -2.0 * v, lambda v: 2.0 * v, x)


print("cond:", abs_scaled(-3.0), abs_scaled(3.0))
_report({"jit(abs_scaled)"}, 2)  # scaffolding
