# source: https://github.com/aesara-devs/aesara/pull/1111
# expect: trace-time-error at line 40
# runtime: ERROR TypeError
# why: before the PR, Reshape's JAX translation receives even a constant target shape as a typified jax array inside the jitted graph, so jnp.reshape sees a non-concrete shape and raises TypeError.
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
import jax
import jax.numpy as jnp
import numpy as np


# aesara/link/jax/dispatch.py before PR #1111 (cfc931fae^)
def jax_typify_ndarray(data, dtype=None, **kwargs):
    return jnp.array(data, dtype=dtype)


def jax_funcify_Reshape(op, **kwargs):
    def reshape(x, shape):
        return jnp.reshape(x, shape)

    return reshape


# scaffolding: the test graph reshape(a, (2, 2)) as the JAX linker builds it: the constant shape is
# typified to a JAX array and the FunctionGraph becomes one jitted function of its input a
reshape = jax_funcify_Reshape(None)  # scaffolding
shape_constant = jax_typify_ndarray(np.array([2, 2]))  # scaffolding


def fgraph_fn(a):  # scaffolding
    return reshape(a, shape_constant)  # scaffolding


try:  # scaffolding
    print(jax.jit(fgraph_fn)(np.r_[1.0, 2.0, 3.0, 4.0]))  # scaffolding
    _report({"jit(fgraph_fn)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
