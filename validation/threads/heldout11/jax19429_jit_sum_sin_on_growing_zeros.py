# source: https://github.com/jax-ml/jax/issues/19429
# expect: shape-churn at line 44
# runtime: COMPILES 6 CALLS 6
# why: the loop feeds fn a zeros array of a new length i on every iteration, so the jitted fn is traced and compiled for every new shape (the reporter also clears the caches each time, so nothing would be reused anyway).

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
import jax, jaxlib;
import jax.numpy as jnp
import os
import psutil
import gc

process = psutil.Process(os.getpid())

print(jax.__version__, jaxlib.__version__)

@jax.jit
def fn(x):
  return jnp.sum(jnp.sin(x))

for i in range(0, 6):  # scaffolding: 1_001 in the issue
    res = fn(jnp.zeros(i))

    jax.clear_caches()

    del res
    for x in jax.live_arrays():
        x.delete()

    gc.collect()

    if i % 100 == 0:
      print(f"{i=}: {process.memory_info().rss / 1024 / 1024}")
_report({"jit(fn)"}, 6)  # scaffolding
