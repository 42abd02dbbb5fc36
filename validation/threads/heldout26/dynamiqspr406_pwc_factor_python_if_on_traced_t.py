# source: https://github.com/dynamiqs/dynamiqs/pull/406
# expect: trace-time-error at line 81
# runtime: ERROR TracerBoolConversionError
# why: _PWCFactor.__call__ branches in Python on t < self.times[0] or t >= self.times[-1]; jitted, t is a tracer and the if raises TracerBoolConversionError.
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




# dynamiqs/time_array.py at 4b022e83 (PR #406 merged): imports and the PWC factor
# from __future__ import annotations  # scaffolding: must be the first statement, which the harness occupies

from abc import abstractmethod

import numpy as np
from jax import Array
from jax import numpy as jnp

Scalar = float  # scaffolding: from .types import Scalar (dynamiqs is not installed)
_Factor = object  # scaffolding: forward name for the return annotations, which the __future__ import made lazy


class _Factor:
    @property
    @abstractmethod
    def shape(self) -> tuple[int, ...]:
        pass

    @abstractmethod
    def conj(self) -> _Factor:
        pass

    @abstractmethod
    def __call__(self, t: Scalar) -> Array:
        pass

    @abstractmethod
    def reshape(self, *args: int) -> _Factor:
        pass


class _PWCFactor(_Factor):
    # Defined by a tuple of 2 arrays (times, values), where
    # - times: (nv+1) are the time points between which the PWC factor takes constant
    #          values, where nv is the number of time intervals
    # - values: (..., nv) are the constant values for each time interval, where (...)
    #           is an arbitrary batching size

    def __init__(self, times: Array, values: Array):
        self.times = times  # (nv+1)
        self.values = values  # (..., nv)
        self.nv = self.values.shape[-1]

    @property
    def shape(self) -> tuple[int, ...]:
        return self.values.shape[:-1]  # (...)

    def conj(self) -> _Factor:
        return _PWCFactor(self.times, self.values.conj())

    def __call__(self, t: Scalar) -> Array:
        if t < self.times[0] or t >= self.times[-1]:
            return jnp.zeros_like(self.values[..., 0])  # (...)
        else:
            # find the index $k$ such that $t \in [t_k, t_{k+1})$
            idx = jnp.searchsorted(self.times, t, side='right') - 1
            return self.values[..., idx]  # (...)

    def reshape(self, *args: int) -> _Factor:
        return _PWCFactor(self.times, self.values.reshape(*args, self.nv))



import jax  # scaffolding

factor = _PWCFactor(jnp.array([1.0, 2.0, 3.0]), jnp.array([[1.0, 3.0]]))  # scaffolding: the thread's dq.totime(([1, 2, 3], [1, 3], ...)) PWC values
jitted = jax.jit(factor)  # scaffolding: as the follow-up test_jit does with jax.jit(self.x)
try:  # scaffolding
    for t in (0.5, 1.5, 2.5):  # scaffolding
        jitted(t)  # scaffolding
    _report({"jit(_PWCFactor)", "jit(<unnamed function>)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
