# source: https://taourl.com/read-2206252.html
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the start index idx is traced but the slice size (3,) is a static tuple, so jax.lax.dynamic_slice is valid under jit: compiled_fn compiles once and returns 9.
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

def dynamic_slice_example(x, idx):

# Dynamic slice based on runtime index

    sliced = jax.lax.dynamic_slice(x, (idx,), (3,))

    return jnp.sum(sliced)

# JIT-compile the function

compiled_fn = jax.jit(dynamic_slice_example)

# Test the function

x = jnp.array([1, 2, 3, 4, 5])

result = compiled_fn(x, 1)

print(result) # Output: 9 (2 + 3 + 4)
_report({"jit(dynamic_slice_example)"}, 1)  # scaffolding
