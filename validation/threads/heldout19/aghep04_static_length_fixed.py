# source: https://github.com/aghilanai/jax-course/blob/main/ep04/solution.ipynb
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: the notebook's fix: length is static_argnames, so each distinct length compiles once (2 compiles, 2 calls, as the notebook says).
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

def example_fun(length, val):
    # length: Tracer(int<32>), val: Tracer(float32)
    return jnp.ones((length,)) * val


good_example_jit = jit(example_fun, static_argnames="length")
print(good_example_jit(10, 4))
print(good_example_jit(5, 4))  # recompiles — new output shape
_report({"jit(example_fun)"}, 2)  # scaffolding
