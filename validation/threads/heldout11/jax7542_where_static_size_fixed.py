# source: https://github.com/jax-ml/jax/issues/7542
# expect: none
# runtime: COMPILES 0 CALLS 1
# why: giving the one-argument jnp.where a static size (two nonzeros per row here) makes its output shape fixed, so apply_along_axis can vmap it.

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
import numpy as np
import jax.numpy as jnp

x = np.array([[0, 0, 1, 1], [1, 1, 0, 0], [0, 1, 1, 0]])
print(np.apply_along_axis(np.where, 1, x).squeeze())
out = jnp.apply_along_axis(lambda row: jnp.where(row, size=2)[0], 1, x)
print(out.squeeze())
_report(set(), 1)  # scaffolding: nothing is jitted here; the line only closes the run
