# source: https://github.com/cgoemaere/jax-intro/blob/main/jax_intro.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the notebook's fix computes both branches with jnp.where on the traced day_num: 1 compile / 1 call.
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
import jax  # scaffolding: the notebook's import cell (cell 3)
import jax.numpy as jnp  # scaffolding
import jax.random as jrand  # scaffolding
from jax import grad, jit, vmap, lax  # scaffolding
import numpy as np  # scaffolding
import time  # scaffolding

# The JAX way: always calculable paths
def discount_good(day_num, price):
    return jnp.where(day_num == 3, price * 0.2, 0)

# This works, but still no discounts on Mondays :'(
jit(discount_good)(1, 25.0)
_report({"jit(discount_good)"}, 1)  # scaffolding
