# source: https://github.com/jax-ml/jax/issues/3620
# expect: trace-time-error at line 42
# runtime: ERROR ConcretizationTypeError
# why: pad_size is a traced argument of the jitted pad_last_dim, so the pad widths handed to jnp.pad are traced and jnp.pad raises (mattjj: the result size depends on the value of pad_size).

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
from jax import jit as jjit
import jax.numpy as jnp
import numpy as np
import types  # scaffolding
ops = types.SimpleNamespace(index=jnp.index_exp, index_update=lambda x, idx, y: x.at[idx].set(y))  # scaffolding: jax.ops of 2020

vals = np.random.randn(50, 100)

def pad_last_dim(array, pad_size):
    ndim = jnp.ndim(array)
    npad = jnp.zeros((ndim, 2), dtype=jnp.int32)
    axis = ndim - 1
    npad = ops.index_update(npad, ops.index[axis, 1], pad_size)
    return jnp.pad(array, npad, 'constant', constant_values=0)

print(pad_last_dim(vals, 1).shape)  # All good
try:  # scaffolding
    print(jjit(pad_last_dim)(vals, 1).shape)  # raises
    _report({"jit(pad_last_dim)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
