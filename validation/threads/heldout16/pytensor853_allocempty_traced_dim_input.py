# source: https://github.com/pymc-devs/pytensor/issues/853
# expect: trace-time-error at line 77
# runtime: ERROR TypeError
# why: the generated graph allocates with AllocEmpty(a), where a (the length of a model dimension) is an ordinary input of the jitted function, so jnp.empty gets a traced shape and raises TypeError.
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


# pytensor/link/jax/dispatch at 7a00b8851 (the day of the report)
def jax_funcify_AllocEmpty(op, **kwargs):
    def allocempty(*shape):
        return jnp.empty(shape, dtype=op.dtype)

    return allocempty


def jax_funcify_DeepCopyOp(op, **kwargs):
    def deepcopyop(x):
        return jnp.copy(x)  # scaffolding: jnp_safe_copy

    return deepcopyop


def jax_funcify_AdvancedIncSubtensor(op, node, **kwargs):
    if getattr(op, "set_instead_of_inc", False):

        def jax_fn(x, indices, y):
            return x.at[indices].set(y)

    else:

        def jax_fn(x, indices, y):
            return x.at[indices].add(y)

    def advancedincsubtensor(x, y, *ilist, jax_fn=jax_fn):
        return jax_fn(x, ilist, y)

    return advancedincsubtensor


# scaffolding: the Ops of the reported graph, and the generated function from the traceback
allocempty = jax_funcify_AllocEmpty(types.SimpleNamespace(dtype="float32"))  # scaffolding
deepcopyop = jax_funcify_DeepCopyOp(None)  # scaffolding
advancedincsubtensor = jax_funcify_AdvancedIncSubtensor(types.SimpleNamespace(set_instead_of_inc=True), None)  # scaffolding
tensor_constant = np.array([False, False, True])  # scaffolding


def jax_funcified_fgraph(y_unobserved, a):
    tensor_variable = deepcopyop(y_unobserved)
    # AllocEmpty{dtype='float64'}(a)
    tensor_variable_1 = allocempty(a)
    # AdvancedSetSubtensor(AllocEmpty{dtype='float64'}.0, y_unobserved, [False False  True])
    tensor_variable_2 = advancedincsubtensor(tensor_variable_1, y_unobserved, tensor_constant)
    return tensor_variable, tensor_variable_2  # scaffolding


# scaffolding: pytensor's JAXLinker.jit_compile makes only Constant inputs static; `a` (the length
# of dim "a", a shared variable) is an ordinary input, and func(np.ones(1)) supplies y_unobserved
fn = jax.jit(jax_funcified_fgraph, static_argnums=[])  # scaffolding
try:  # scaffolding
    print(fn(np.ones(1), np.array(3)))  # scaffolding
    _report({"jit(jax_funcified_fgraph)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
