# source: https://github.com/patemotter/jax-intro/blob/main/03_jit.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the notebook's fix: jnp.where instead of the Python if; jax.jit(good_relu) written inline twice wraps the same function, so both calls share one compile.
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

# Fix: use jnp.where (always evaluates both branches)
def good_relu(x):
    return jnp.where(x > 0, x, 0.0)

print(f"\nFixed with jnp.where: {jax.jit(good_relu)(jnp.array(1.0))}")
print(f"Also works for negative: {jax.jit(good_relu)(jnp.array(-1.0))}")
_report({"jit(good_relu)"}, 2)  # scaffolding
