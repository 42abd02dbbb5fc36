# source: https://github.com/aesara-devs/aesara/issues/702
# expect: trace-time-error at line 54
# runtime: ERROR TypeError
# why: the RandomVariable translation passes the typified size constant (a DeviceArray, [10000]) as jax.random.normal's shape inside the jitted graph, where it is traced, so normal raises TypeError (shapes must be concrete), as in the traceback.
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


# aesara/link/jax/dispatch.py at 79961a625 (the day of the report)
def jax_typify_ndarray(data, dtype=None, **kwargs):
    return jnp.array(data, dtype=dtype)


def jax_funcify_RandomVariable(op, node, **kwargs):
    name = op.name

    if not hasattr(jax.random, name):
        raise NotImplementedError(
            f"No JAX conversion for the given distribution: {name}"
        )

    dtype = node.outputs[1].dtype

    def random_variable(rng, size, dtype_num, *args):
        if not op.inplace:
            rng = rng.copy()
        prng = rng["jax_state"]
        data = getattr(jax.random, name)(key=prng, shape=size)
        smpl_value = jnp.array(data, dtype=dtype)
        rng["jax_state"] = jax.random.split(prng, num=1)[0]
        return (rng, smpl_value)

    return random_variable


# scaffolding: test_random_stats' normal RV as the linker runs it: the traceback's line
#   auto_41, auto_42 = random_variable(auto_36, auto_37, auto_38, auto_39, auto_40)
# inside one jitted graph function, with the size constant typified
op = types.SimpleNamespace(name="normal", inplace=False)  # scaffolding
node = types.SimpleNamespace(outputs=[None, types.SimpleNamespace(dtype="float32")])  # scaffolding
random_variable = jax_funcify_RandomVariable(op, node)  # scaffolding
size_constant = jax_typify_ndarray(np.array([10000]))  # scaffolding: DeviceArray([10000])


def jax_funcified_fgraph(auto_36, auto_39, auto_40):  # scaffolding
    auto_41, auto_42 = random_variable(auto_36, size_constant, 11, auto_39, auto_40)
    return auto_41, auto_42  # scaffolding


rng_input = {"jax_state": jax.random.PRNGKey(0)}  # scaffolding
try:  # scaffolding
    rng_out, smpl = jax.jit(jax_funcified_fgraph)(rng_input, 0.0, 1.0)  # scaffolding
    _report({"jit(jax_funcified_fgraph)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
