# source: https://github.com/aesara-devs/aesara/pull/1338
# expect: trace-time-error at line 39
# runtime: ERROR ConcretizationTypeError
# why: at.arange(a) with a a graph input: a is traced in the jitted graph and jnp.arange needs a concrete stop, so it raises ConcretizationTypeError (the test the PR turns from xfail into an explicit NotImplementedError).
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


# aesara/link/jax/dispatch/tensor_basic.py before PR #1338 (7ae18917a^)
def jax_funcify_ARange(op, **kwargs):
    # XXX: This currently requires concrete arguments.
    def arange(start, stop, step):
        return jnp.arange(start, stop, step, dtype=op.dtype)

    return arange


# scaffolding: the xfail test test_arange_nonconcrete, out = at.arange(a) with a an input
# (test value 10), as the JAX linker runs it: one jitted function of a
op = types.SimpleNamespace(dtype="int32")  # scaffolding
arange = jax_funcify_ARange(op)  # scaffolding


def fgraph_fn(a):  # scaffolding
    return arange(0, a, 1)  # scaffolding


try:  # scaffolding
    print(jax.jit(fgraph_fn)(np.array(10)))  # scaffolding
    _report({"jit(fgraph_fn)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
