# source: https://github.com/aesara-devs/aesara/pull/1111
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the PR's translation reshapes to the Constant's NumPy data and ignores the traced copy, so the jitted graph compiles once for 2 calls.
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


class Constant:  # scaffolding: stand-in for aesara.graph.Constant
    def __init__(self, data):  # scaffolding
        self.data = data  # scaffolding


# aesara/link/jax/dispatch.py after PR #1111 (cfc931fae)
def jax_typify_ndarray(data, dtype=None, **kwargs):
    return jnp.array(data, dtype=dtype)


def jax_funcify_Reshape(op, node, **kwargs):

    # JAX reshape only works with constant inputs, otherwise JIT fails
    shape = node.inputs[1]
    if isinstance(shape, Constant):
        constant_shape = shape.data

        def reshape(x, _):
            return jax.numpy.reshape(x, constant_shape)

    else:

        def reshape(x, shape):
            return jax.numpy.reshape(x, shape)

    return reshape


# scaffolding: the test graph reshape(a, (2, 2)); the node's shape input is a Constant, the linker
# still passes the typified constant, and the FunctionGraph becomes one jitted function of a
node = types.SimpleNamespace(inputs=[None, Constant(np.array([2, 2]))])  # scaffolding
reshape = jax_funcify_Reshape(None, node)  # scaffolding
shape_constant = jax_typify_ndarray(node.inputs[1].data)  # scaffolding


def fgraph_fn(a):  # scaffolding
    return reshape(a, shape_constant)  # scaffolding


f = jax.jit(fgraph_fn)  # scaffolding
print(f(np.r_[1.0, 2.0, 3.0, 4.0]), f(np.r_[5.0, 6.0, 7.0, 8.0]))  # scaffolding
_report({"jit(fgraph_fn)"}, 2)  # scaffolding
