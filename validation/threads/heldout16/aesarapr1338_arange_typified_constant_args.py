# source: https://github.com/aesara-devs/aesara/pull/1338
# expect: trace-time-error at line 44
# runtime: ERROR TracerArrayConversionError
# why: before the PR the ARange translation hands jnp.arange the graph's typified constants (JAX arrays) inside the jitted graph, so even at.arange(1, 10, 2) cannot get concrete bounds and raises TracerArrayConversionError on jax 0.10.2.
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
import types  # scaffolding

import jax
import jax.numpy as jnp
import numpy as np


# aesara/link/jax/dispatch/basic.py: constants are typified to JAX arrays
def jax_typify_ndarray(data, dtype=None, **kwargs):
    return jnp.array(data, dtype=dtype)


# aesara/link/jax/dispatch/tensor_basic.py before PR #1338 (7ae18917a^)
def jax_funcify_ARange(op, **kwargs):
    # XXX: This currently requires concrete arguments.
    def arange(start, stop, step):
        return jnp.arange(start, stop, step, dtype=op.dtype)

    return arange


# scaffolding: the PR's new test graph at.arange(1, 10, 2) (no inputs) as the JAX linker runs it:
# the three constants are typified and the FunctionGraph becomes one jitted function
op = types.SimpleNamespace(dtype="int32")  # scaffolding
arange = jax_funcify_ARange(op)  # scaffolding
start, stop, step = (jax_typify_ndarray(np.array(v)) for v in (1, 10, 2))  # scaffolding


def fgraph_fn():  # scaffolding
    return arange(start, stop, step)  # scaffolding


try:  # scaffolding
    print(jax.jit(fgraph_fn)())  # scaffolding
    _report({"jit(fgraph_fn)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
