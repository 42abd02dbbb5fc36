# source: https://github.com/pymc-devs/pymc/issues/7286
# expect: trace-time-error at line 98
# runtime: ERROR TypeError
# why: with mode='JAX' the size of the normal RV is JAXShapeTuple(a), where a (the length of a model dim, a shared variable) is an argument of the jitted graph, so jax.random.normal receives a traced shape and raises TypeError.
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


# pytensor/link/jax/dispatch/shape.py at db7346149
def jax_funcify_JAXShapeTuple(op, **kwargs):
    def shape_tuple_fn(*x):
        return tuple(x)

    return shape_tuple_fn


# pytensor/link/jax/dispatch/random.py at db7346149 (docstrings cut)
def jax_funcify_RandomVariable(op, node, **kwargs):
    rv = node.outputs[1]
    out_dtype = rv.type.dtype
    out_size = rv.type.shape

    if op.ndim_supp > 0:
        out_size = node.outputs[1].type.shape[: -op.ndim_supp]

    # If one dimension has unknown size, either the size is determined
    # by a `Shape` operator in which case JAX will compile, or it is
    # not and we fail gracefully.
    if None in out_size:
        assert_size_argument_jax_compatible(node)

        def sample_fn(rng, size, dtype, *parameters):
            return jax_sample_fn(op)(rng, size, out_dtype, *parameters)

    else:

        def sample_fn(rng, size, dtype, *parameters):
            return jax_sample_fn(op)(rng, out_size, out_dtype, *parameters)

    return sample_fn


def jax_sample_fn_loc_scale(op):
    name = op.name
    jax_op = getattr(jax.random, name)

    def sample_fn(rng, size, dtype, *parameters):
        rng_key = rng["jax_state"]
        rng_key, sampling_key = jax.random.split(rng_key, 2)
        loc, scale = parameters
        sample = loc + jax_op(sampling_key, size, dtype) * scale
        rng["jax_state"] = rng_key
        return (rng, sample)

    return sample_fn


# scaffolding: the normal RV of the report (size given by the length of dim "a", a shared variable);
# its size comes from JAXShapeTuple, so assert_size_argument_jax_compatible lets it through
jax_sample_fn = jax_sample_fn_loc_scale  # scaffolding: the singledispatch picks this for NormalRV
assert_size_argument_jax_compatible = lambda node: None  # scaffolding: passes for JAXShapeTuple sizes
op = types.SimpleNamespace(name="normal", ndim_supp=0)  # scaffolding
node = types.SimpleNamespace(outputs=[None, types.SimpleNamespace(type=types.SimpleNamespace(dtype="float32", shape=(None,)))])  # scaffolding
shape_tuple_fn = jax_funcify_JAXShapeTuple(None)  # scaffolding
sample_fn = jax_funcify_RandomVariable(op, node)  # scaffolding
tensor_constant, tensor_constant_1, tensor_constant_2 = 11, 0.0, 1.0  # scaffolding


# the generated function shown in the traceback
def jax_funcified_fgraph(random_generator_shared_variable, a):
    # JAXShapeTuple(a)
    tensor_variable = shape_tuple_fn(a)
    # normal_rv{0, (0, 0), floatX, False}(RandomGeneratorSharedVariable(<Generator(PCG64) at 0x29A781FC0>), JAXShapeTuple.0, 11, 0, 1.0)
    variable, x = sample_fn(random_generator_shared_variable, tensor_variable, tensor_constant, tensor_constant_1, tensor_constant_2)
    return x, variable


# scaffolding: JITLinker jits with only Constant inputs static; the rng state and `a` are arguments
fgraph_jit = jax.jit(jax_funcified_fgraph, static_argnums=[])  # scaffolding
try:  # scaffolding
    outputs = fgraph_jit({"jax_state": jax.random.PRNGKey(0)}, np.array(3))  # scaffolding
    _report({"jit(jax_funcified_fgraph)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
