# source: https://openillumi.com/en/en-jax-vmap-non-hashable-error-fix
# expect: unhashable-static at line 45
# runtime: ERROR ValueError
# why: partial binds alpha and T to the first two positions, so the batched row vmap supplies lands in the slot map_row declares static, and jit rejects the unhashable tracer there.

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
from functools import partial

import jax.numpy as jnp  # scaffolding
from jax import jit, vmap


@partial(jit, static_argnums=(2,))
def map_row(z_input, alpha, T):
    for _ in range(T):  # scaffolding: the page elides the body; T drives a Python loop
        z_input = alpha * z_input + 1.0
    return z_input


alpha, T, axis = 0.5, 3, 0  # scaffolding
input = jnp.ones((4, 5))  # scaffolding
try:  # scaffolding
    result = vmap(partial(map_row, alpha, T), axis)(input)
    _report({"jit(map_row)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
