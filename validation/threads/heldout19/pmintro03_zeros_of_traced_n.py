# source: https://github.com/patemotter/jax-intro/blob/main/03_jit.ipynb
# expect: trace-time-error at line 32
# runtime: ERROR TypeError
# why: jnp.zeros(n) with n traced by jit cannot build a shape, so jax.jit(bad_dynamic)(3) raises.
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

# This FAILS — jnp.zeros(n) where n is traced
def bad_dynamic(n):
    return jnp.zeros(n)  # n must be known at trace time

try:
    jax.jit(bad_dynamic)(3)
    _report({"jit(bad_dynamic)"}, 1)  # scaffolding
except Exception as e:
    print(f"ERROR {type(e).__name__}")  # scaffolding: the notebook prints the message
