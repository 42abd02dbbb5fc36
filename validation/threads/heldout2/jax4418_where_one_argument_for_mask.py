# source: https://github.com/jax-ml/jax/issues/4418
# expect: trace-time-error at line 33
# runtime: ERROR ConcretizationTypeError
# why: the one-argument jnp.where returns index arrays whose length depends on the data; under jit it has no size= and raises ConcretizationTypeError (jakevdp: use the three-argument where).

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
    ax1, ax2 = np_jax.where(~Dataset[:, 0].any(axis=2)) # Returns axes where Dataset is 0 for dimension 2 for column 0
    mask = np_jax.ones(Dataset.shape)
    mask = mask.at[ax1, ax2].set(0)  # jax.ops.index_update(mask, jax.ops.index[ax1,ax2], 0) in 2020
    return mask  # scaffolding

Dataset = np_jax.zeros((3, 3, 3, 2)).at[0, 0, 1].set(1.0)  # scaffolding
try:  # scaffolding
    make_mask(Dataset)  # scaffolding
    _report({"jit(make_mask)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
