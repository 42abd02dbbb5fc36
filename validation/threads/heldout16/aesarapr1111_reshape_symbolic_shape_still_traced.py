# source: https://github.com/aesara-devs/aesara/pull/1111
# expect: trace-time-error at line 54
# runtime: ERROR TypeError
# why: with a non-constant shape input b (the PR's updated test), the shape is still traced inside the jitted graph and jnp.reshape raises TypeError; the PR's test now expects exactly this error.
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


# scaffolding: the PR's updated test graph reshape(a, (b, b)) with b an input (not a Constant);
# the FunctionGraph becomes one jitted function of (a, b) and builds the shape vector from b
node = types.SimpleNamespace(inputs=[None, object()])  # scaffolding
reshape = jax_funcify_Reshape(None, node)  # scaffolding


def fgraph_fn(a, b):  # scaffolding
    return reshape(a, jnp.stack([b, b]))  # scaffolding


try:  # scaffolding
    print(jax.jit(fgraph_fn)(np.r_[1.0, 2.0, 3.0, 4.0], 2))  # scaffolding
    _report({"jit(fgraph_fn)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
