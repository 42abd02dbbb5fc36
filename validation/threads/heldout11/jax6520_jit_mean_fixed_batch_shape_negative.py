# source: https://github.com/jax-ml/jax/issues/6520
# expect: none
# runtime: COMPILES 1 CALLS 20
# why: fn is jitted once at module level and every batch is dataset[indx] with 256 rows, so the input shape never changes and fn compiles once however many batches are drawn (the reported growth was host memory, not recompilation).

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
import os
import sys

import jax
import numpy as np
import psutil
from jax.interpreters import xla
import gc


@jax.jit
def fn(inputs: np.ndarray):
    return inputs.mean()

dataset = np.random.uniform(size=(10000, 100))

for i in range(20):  # scaffolding: range(1000000) in the issue
    indx = np.random.randint(len(dataset), size=256)
    inputs = dataset[indx]

    fn(inputs)

    if i % 1000 == 0:
        mem_info = psutil.Process(os.getpid()).memory_info()
        print(
            f'{i}, Real: {mem_info.rss/1e9}GB, Virtual: {mem_info.vms/1e9}GB'
        )

        # Doesn't help:
        # xla._xla_callable.cache_clear()

        # Doesn't help either: 
        # gc.collect()
_report({"jit(fn)"}, 20)  # scaffolding
