# source: https://github.com/jax-ml/jax/issues/4418
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: jakevdp's three-argument where gives a mask of static shape, so the jitted function compiles once and runs.

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


import jax  # scaffolding
import jax.numpy as np_jax  # scaffolding

@jax.jit  # scaffolding
def make_mask(Dataset):  # scaffolding
    mask = np_jax.where(~Dataset[:, 0].any(axis=2), 0, 1)
    return mask  # scaffolding

Dataset = np_jax.zeros((3, 3, 3, 2)).at[0, 0, 1].set(1.0)  # scaffolding
make_mask(Dataset)  # scaffolding
_report({"jit(make_mask)"}, 1)  # scaffolding
