# source: https://github.com/jax-ml/jax/issues/1909
# expect: jit-in-loop-or-body at line 35
# runtime: COMPILES 3 CALLS 3
# why: pmap(lambda x: x) is rebuilt from a new lambda on every loop iteration, so each step misses the cache and compiles the mapped program again (one compile per iteration).

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
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
from jax import pmap  # scaffolding

big_lazy_x = jnp.ones((jax.device_count(), int(1e3)))  # scaffolding: 1e6 in the thread
for _ in range(3):  # scaffolding: range(100) in the thread
  _ = pmap(lambda x: x)(big_lazy_x)
_report({"jit(_fun)"}, 3)  # scaffolding
