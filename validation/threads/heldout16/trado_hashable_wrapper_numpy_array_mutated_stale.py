# source: https://github.com/takayama-rado/trado_samples
# expect: stale-closure at line 41
# runtime: COMPILES 1 CALLS 2
# why: the notebook's workaround wraps a NumPy array as a hashable static argument, but arr is then mutated in place (arr[5:] = 0); the cached entry's key wraps the same buffer, so it now compares equal, the second call hits the cache and returns ten 4s instead of the notebook's five (1 compile for 2 calls on jax 0.10.2).
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


# Standard modules.
import sys

# CV/ML.
import numpy as np

import jax
import jax.numpy as jnp
from jax import jit

# Enable float64.
jax.config.update("jax_enable_x64", True)

def example_fun3(array, val):
    length = array.sum().astype(jnp.int32)
    return jnp.ones([length,]) * val

from typing import Generic, TypeVar
from functools import partial

T = TypeVar('T')      # Declare type variable

# Workaround to avoid unhashable error.
# https://github.com/google/jax/issues/4572
class HashableArrayWrapper(Generic[T]):
    def __init__(self, val: T):
        self.val = val

    def __getattribute__(self, prop):
        if prop == 'val' or prop == "__hash__" or prop == "__eq__":
            return super(HashableArrayWrapper, self).__getattribute__(prop)
        return getattr(self.val, prop)

    def __getitem__(self, key):
        return self.val[key]

    def __setitem__(self, key, val):
        self.val[key] = val

    def __hash__(self):
        return hash(self.val.tobytes())

    def __eq__(self, other):
        if isinstance(other, HashableArrayWrapper):
            return self.__hash__() == other.__hash__()

        f = getattr(self.val, "__eq__")
        return f(self, other)

example_jit3 = jit(example_fun3, static_argnums=(0,))
arr = np.ones([10])
print(arr)
print(example_jit3(HashableArrayWrapper(arr), 4))
arr[5:] = 0
print(example_jit3(HashableArrayWrapper(arr), 4))
_report({"jit(example_fun3)"}, 2)  # scaffolding
