# source: https://github.com/patrick-kidger/equinox/issues/502
# expect: none
# runtime: COMPILES 2 CALLS 3
# why: with the module passed by position, filter_grad differentiates through the filter_jit-decorated MyModule.__call__; its forward and backward parts compile once each (both named jit(__call__)), so 3 calls with different indices give 2 compiles.
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

import equinox
import jax
import jax.numpy as jnp


class MyModule(equinox.Module):

    values: jax.Array

    def __init__(self, values: jax.Array):
        self.values = values

    @equinox.filter_jit
    def __call__(self, index) -> jax.Array:
        return self.values[index]


@equinox.filter_grad
def my_grad(my_module, index) -> jax.Array:
    values = my_module(index)
    return jnp.sum(values)


my_module = MyModule(values=jnp.zeros((100, 2), dtype=float))
index = jnp.array([1], dtype=int)
try:  # scaffolding
    updates = my_grad(my_module, index)  # the fix: the differentiated module passed by position (the reporter wrote my_grad(my_module=my_module, index=index))
    for i in (2, 3):  # scaffolding: two more calls with other indices
        updates = my_grad(my_module, jnp.array([i], dtype=int))  # scaffolding
    print(updates.values.sum())  # scaffolding
    _report({"jit(__call__)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
    print(e)  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
