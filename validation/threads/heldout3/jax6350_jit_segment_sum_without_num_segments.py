# source: https://github.com/jax-ml/jax/issues/6350
# expect: trace-time-error at line 36
# runtime: ERROR ConcretizationTypeError
# why: jax.jit(jax.ops.segment_sum) traces segment_ids, and without num_segments segment_sum must compute the segment count from their values, which a tracer does not have, so the jitted call raises.

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
import numpy as np

c = np.array([[1,2,3,4], [4, 3, 2, 1], [5,6,7,8]])
b = np.array([0, 0, 1])
jax.ops.segment_sum(c, b)
jit_fn = jax.jit(jax.ops.segment_sum)
try:  # scaffolding
    jit_fn(c, b)
    _report({"jit(segment_sum)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
