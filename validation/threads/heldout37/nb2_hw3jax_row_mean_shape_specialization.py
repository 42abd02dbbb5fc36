# source: https://github.com/necoheadtrytostudy/hw3-jax-pytorch-compilation/blob/5ff648d24e3cb75740f248ef34784554cf3d8b86/jax_experiments.ipynb
# expect: shape-churn at line 53
# runtime: COMPILES 3 CALLS 4
# why: The homework loop feeds the jitted row_mean arrays of three different shapes (100x100, 100x200, 100x100 again, 200x100), so it compiles three times in four calls.

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
import time

import jax
import jax.numpy as jnp
import numpy as np


# %% cell 7
@jax.jit
def row_mean(x):
    return jnp.mean(x, axis=1)


# %% cell 8
inputs = [
    jnp.ones((100,100)),
    jnp.ones((100,200)),
    jnp.ones((100,100)),
    jnp.ones((200,100))
]
times = []

for x in inputs:
    start = time.time()
    row_mean(x).block_until_ready()
    times.append(time.time() - start)

print(times)
labels = ["100x100","100x200","100x100(reuse)","200x100"]
# (bar plot cut: scaffolding)
_report({"jit(row_mean)"}, len(inputs))  # scaffolding
