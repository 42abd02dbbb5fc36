# source: https://github.com/patemotter/jax-intro/blob/main/03_jit.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the notebook's fix: the same function jitted with static_argnums=(0,), so n is a Python int at trace time (1 compile, 1 call).
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

def bad_dynamic(n):
    return jnp.zeros(n)  # n must be known at trace time

# Fix: use static_argnums to make n a compile-time constant
@jax.jit
def good_dynamic(x, n):
    # Pad or slice x to length n — shape is determined by x's shape, not n's value
    return x[:n]

# Or use static_argnums
fixed_dynamic = jax.jit(bad_dynamic, static_argnums=(0,))
print(f"\nFixed with static_argnums: {fixed_dynamic(3)}")
_report({"jit(bad_dynamic)"}, 1)  # scaffolding
