# source: https://github.com/jax-ml/jax/issues/13151
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: fn is jitted once outside the timing and called on the same device array with block_until_ready, so it compiles once for all timed calls; the reported gap to PyTorch is not a jit misuse.
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


import timeit  # scaffolding: stands in for the notebook's %timeit
import numpy as np  # scaffolding: the thread's imports are not shown
import jax.numpy as jnp  # scaffolding
from jax import jit  # scaffolding


def fn(x):
    return x+x*x+x*x*x
x=np.random.randn(1000,1000).astype(dtype='float32')  # scaffolding: (10000,10000) in the issue, cut to (1000,1000) for CPU
jax_fn=jit(fn)
x=jnp.array(x)
# %timeit  -n5 jax_fn(x).block_until_ready()
print(timeit.timeit(lambda: jax_fn(x).block_until_ready(), number=5) / 5)  # scaffolding: the %timeit cell, -n5
_report({"jit(fn)"}, 5)  # scaffolding: timeit runs jax_fn 5 times
