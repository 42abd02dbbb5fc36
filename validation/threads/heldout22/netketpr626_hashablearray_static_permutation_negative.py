# source: https://github.com/netket/netket/pull/626
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: HashableArray hashes the wrapped array's bytes and compares by value, so three fresh HashableArray permutations with equal content passed as a static argument hit the jit cache: one compile for three calls.
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


import warnings  # scaffolding
from dataclasses import dataclass
from functools import partial  # scaffolding

import numpy as np
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding

Array = np.ndarray  # scaffolding: netket.utils.types aliases
DType = object  # scaffolding
warnings.simplefilter("ignore", DeprecationWarning)  # scaffolding: numpy 2's __array__(copy=...) notice


@dataclass(frozen=True)
class HashableArray:
    """
    This class wraps a numpy or jax array in order to make it hashable and
    equality comparable (which is necessary since a well-defined hashable object
    needs to satisfy :code:`obj1 == obj2` whenever :code:`hash(obj1) == hash(obj2)`.

    The underlying array can also be accessed using :code:`numpy.asarray(self)`.
    """

    wrapped: Array
    """The wrapped array. Note that this array is read-only and modifying it without
    recreating `HashableArray` will result in incorrect behavior."""

    def __post_init__(self):
        if isinstance(self.wrapped, np.ndarray):
            self.wrapped.flags.writeable = False
        object.__setattr__(self, "_HashableArray__hash", hash(self.wrapped.tobytes()))

    def __hash__(self):
        return self.__hash

    def __eq__(self, other):
        return np.all(self.wrapped == other.wrapped)

    def __array__(self, dtype: DType = None):
        if dtype is None:
            dtype = self.wrapped.dtype
        return self.wrapped.__array__(dtype)


@partial(jax.jit, static_argnums=1)  # scaffolding: a symmetry permutation passed as a static argument
def apply_permutation(x, perm):  # scaffolding
    return x[..., np.asarray(perm)]  # scaffolding


x = jnp.arange(12.0).reshape(3, 4)  # scaffolding
for k in range(3):  # scaffolding: a new HashableArray with equal content each call (as RBMSymm rebuilds them)
    perm = HashableArray(np.array([3, 2, 1, 0]))  # scaffolding
    apply_permutation(x * (k + 1), perm)  # scaffolding
_report({"jit(apply_permutation)"}, 3)  # scaffolding
