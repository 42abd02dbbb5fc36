# source: https://github.com/jax-ml/jax/issues/3083
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: The Python loop runs over x.shape[0], which is static under jit, so the jitted decay_sum_jax is unrolled once and a second call with the same shape reuses the compile; the thread is about the slow unrolled compile, answered with lax.scan.

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
import datetime
import sys
import types  # scaffolding

import jax
import numpy
import numpy as np
from jax import numpy as jnp, ops, jit

ops = types.SimpleNamespace(index_update=lambda x, idx, y: x.at[idx].set(y))  # scaffolding: jax.ops.index_update was removed; same semantics


def decay_sum_jax(x, decay):
    y = jnp.zeros(x.shape)
    for t in range(x.shape[0]):
        y = ops.index_update(y, t, x[t] + y[t - 1] * decay)
    return y


decay_sum_jit = jit(decay_sum_jax)


def decay_sum_numpy(x, decay):
    y = np.zeros(x.shape)
    for t in range(x.shape[0]):
        y[t] = x[t] + y[t - 1] * decay
    return y


if __name__ == '__main__':
    print(sys.version)
    x = numpy.random.RandomState(0).randn(30, 30).astype(numpy.float32)  # scaffolding: the reporter's (30, 30) array; the rest of the posted main is cut off
    decay = 0.9  # scaffolding
    decay_sum_numpy(x, decay)  # scaffolding
    decay_sum_jax(x, decay).block_until_ready()  # scaffolding
    for _ in range(2):  # scaffolding
        decay_sum_jit(x, decay).block_until_ready()  # scaffolding
    _report({"jit(decay_sum_jax)"}, 2)  # scaffolding
