# source: https://github.com/pymc-devs/pymc/issues/6050
# expect: trace-time-error at line 41
# runtime: ERROR TracerBoolConversionError
# why: Aesara's JAX SpecifyShape checks the shape with a Python assert on jnp.all(x.shape == tuple(shape)); inside the jitted logp graph the typified shape constant is traced, so the assert needs a bool of a tracer and raises TracerBoolConversionError.
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


# aesara/link/jax/dispatch.py (aesara at e0d918074, the version in the traceback)
def jax_typify_ndarray(data, dtype=None, **kwargs):
    return jnp.array(data, dtype=dtype)


def jax_funcify_SpecifyShape(op, **kwargs):
    def specifyshape(x, *shape):
        assert x.ndim == len(shape)
        assert jnp.all(x.shape == tuple(shape)), (
            "got shape",
            x.shape,
            "expected",
            shape,
        )
        return x

    return specifyshape


# scaffolding: the traceback's line of the JAX-ified logp graph,
#   auto_82525 = specifyshape(auto_82524, auto_81469)  # SpecifyShape(Reshape{1}.0, TensorConstant{1})
# with the constant typified, and the graph jitted as pymc.sampling_jax's NUTS does (value_and_grad under jit)
specifyshape = jax_funcify_SpecifyShape(None)  # scaffolding
auto_81469 = jax_typify_ndarray(np.array(1))  # scaffolding


def jax_funcified_fgraph(raw_polling_bias):  # scaffolding
    auto_82524 = jnp.reshape(raw_polling_bias, (1,))  # scaffolding
    auto_82525 = specifyshape(auto_82524, auto_81469)
    return jnp.sum(auto_82525 ** 2)  # scaffolding


try:  # scaffolding
    print(jax.jit(jax.value_and_grad(jax_funcified_fgraph))(np.array(0.5)))  # scaffolding
    _report({"jit(jax_funcified_fgraph)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
