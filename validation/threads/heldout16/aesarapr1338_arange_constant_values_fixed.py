# source: https://github.com/aesara-devs/aesara/pull/1338
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the PR's translation reads the Constant inputs' NumPy values at build time and ignores the traced copies, so the jitted graph compiles once for 2 calls.
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


class Constant:  # scaffolding: stand-in for aesara.graph.basic.Constant
    def __init__(self, value):  # scaffolding
        self.value = value  # scaffolding


def jax_typify_ndarray(data, dtype=None, **kwargs):
    return jnp.array(data, dtype=dtype)


ARANGE_CONCRETE_VALUE_ERROR = """JAX requires the arguments of `jax.numpy.arange`
to be constants. The graph that you defined thus cannot be JIT-compiled
by JAX. An example of a graph that can be compiled to JAX:

>>> import aesara.tensor basic
>>> at.arange(1, 10, 2)
"""


# aesara/link/jax/dispatch/tensor_basic.py after PR #1338 (7ae18917a)
def jax_funcify_ARange(op, node, **kwargs):
    arange_args = node.inputs
    constant_args = []
    for arg in arange_args:
        if not isinstance(arg, Constant):
            raise NotImplementedError(ARANGE_CONCRETE_VALUE_ERROR)

        constant_args.append(arg.value)

    start, stop, step = constant_args

    def arange(*_):
        return jnp.arange(start, stop, step, dtype=op.dtype)

    return arange


# scaffolding: the same graph at.arange(1, 10, 2); the node's inputs are Constants and the linker
# still passes their typified copies into the jitted graph function
op = types.SimpleNamespace(dtype="int32")  # scaffolding
node = types.SimpleNamespace(inputs=[Constant(np.array(v)) for v in (1, 10, 2)])  # scaffolding
arange = jax_funcify_ARange(op, node)  # scaffolding
typified = [jax_typify_ndarray(c.value) for c in node.inputs]  # scaffolding


def fgraph_fn():  # scaffolding
    return arange(*typified)  # scaffolding


f = jax.jit(fgraph_fn)  # scaffolding
print(f(), f())  # scaffolding
_report({"jit(fgraph_fn)"}, 2)  # scaffolding
