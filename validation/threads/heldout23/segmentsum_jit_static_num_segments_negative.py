# source: https://docs.jax.dev/en/latest/_autosummary/jax.ops.segment_sum.html
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: jit(segment_sum, static_argnums=2) makes num_segments a static int as the docstring requires; wrapping it again and calling with the same value hits the cache.
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

import jax.numpy as jnp  # scaffolding
from jax.ops import segment_sum  # scaffolding

data = jnp.arange(5)
segment_ids = jnp.array([0, 0, 1, 1, 2])
print(segment_sum(data, segment_ids))

from jax import jit
print(jit(segment_sum, static_argnums=2)(data, segment_ids, 3))
print(jit(segment_sum, static_argnums=2)(data, segment_ids, 3))  # scaffolding: called again, re-wrapping the same function
_report({"jit(segment_sum)"}, 2)  # scaffolding
