# source: https://github.com/jax-ml/jax/pull/2508
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: With num_sections and axis declared static, split sees the concrete 2 and 0; repeated calls with the same statics reuse one compilation.

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
import jax.numpy as np  # scaffolding

split_jit = jax.jit(np.split, static_argnums=(1, 2))  # scaffolding: the FAQ calls it inline
for _ in range(3):  # scaffolding
    split_jit(np.zeros(4), 2, 0)
_report({"jit(split)"}, 3)  # scaffolding
