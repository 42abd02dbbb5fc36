# source: https://github.com/aesara-devs/aesara/pull/393
# expect: bad-static-spec at line 67
# runtime: ERROR TypeError
# why: JAXLinker.jit_compile passes static_argnums to jax.jit positionally, but jax.jit takes the function as its only positional parameter, so building the jitted thunk raises.

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
import jax.numpy as jnp
import numpy as np
from numpy.random import RandomState


class Variable:  # scaffolding: stand-in for aesara.graph.basic.Variable
    def __init__(self, name):
        self.name = name


class Constant(Variable):  # scaffolding: stand-in for aesara.graph.basic.Constant
    def __init__(self, data):
        super().__init__(str(data))
        self.data = data


class FunctionGraph:  # scaffolding: just the inputs the linker reads
    def __init__(self, inputs):
        self.inputs = inputs


class JITLinker:  # scaffolding: the part of aesara.link.basic.JITLinker that jit_compile sees
    def __init__(self, fgraph):
        self.fgraph = fgraph


# aesara/link/jax/linker.py at the parent of commit 0ee5acfed (the PR's change)
class JAXLinker(JITLinker):
    """A `Linker` that JIT-compiles NumPy-based operations using JAX."""

    def jit_compile(self, fn):
        import jax

        # I suppose we can consider `Constant`s to be "static" according to
        # JAX.
        static_argnums = [
            n for n, i in enumerate(self.fgraph.inputs) if isinstance(i, Constant)
        ]
        return jax.jit(fn, static_argnums)

    def create_thunk_inputs(self, storage_map):
        thunk_inputs = []
        for n in self.fgraph.inputs:
            sinput = storage_map[n]
            if isinstance(sinput[0], RandomState):  # (jax_typify branch not exercised here)
                sinput = [sinput[0]]
            thunk_inputs.append(sinput)

        return thunk_inputs


def fgraph_fn(x, reps):  # scaffolding: what jax_funcify would return for tile(x, reps)
    return jnp.tile(x, reps)


x_var, reps_const = Variable("x"), Constant(np.int64(2))  # scaffolding
linker = JAXLinker(FunctionGraph([x_var, reps_const]))  # scaffolding
storage_map = {x_var: [np.arange(3.0)], reps_const: [reps_const.data]}  # scaffolding
try:  # scaffolding
    fgraph_jit = linker.jit_compile(fgraph_fn)  # as create_jitable_thunk does
    thunk_inputs = linker.create_thunk_inputs(storage_map)
    calls = 0
    for _ in range(2):
        out = fgraph_jit(*(i[0] for i in thunk_inputs))
        calls += 1
    _report({"jit(fgraph_fn)"}, calls)
except Exception as e:  # scaffolding
    print("ERROR", type(e).__name__)
