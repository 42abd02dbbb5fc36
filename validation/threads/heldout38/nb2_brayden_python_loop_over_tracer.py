# source: https://github.com/Brayden-Zhang/Learn-JAX/blob/497bb88a7500d03338574610e0d8fbbb8215acef/JAX.ipynb
# expect: none
# runtime: COMPILES 4 CALLS 4
# why: manual_batch_min_max_loop iterates a traced argument with a Python for loop and builds jnp.array from a list of tracers inside @jit, which looks like a trace-time error, but iterating over the leading axis of a tracer is unrolled at trace time with a static length, so each of the four jitted functions compiles once and runs.

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
import jax  # scaffolding: cell 0's imports (its GPU/TPU probing and XLA_FLAGS setup dropped)
import jax.numpy as jnp
from jax import grad, jit, vmap, pmap
import numpy as np

# jit

def relu(x):
    return jnp.maximum(0, x)

relu_jit = jax.jit(relu)

print(relu_jit(jnp.array([-1, 0, 1])))

# vmap

def min_max(x):
    return jnp.array([jnp.min(x), jnp.max(x)])

batch_size = 3
batched_x = np.arange(15).reshape((batch_size, -1))
print(batched_x)

print(min_max(batched_x))

def vmap_min_max(x):
    return vmap(min_max)(x)

print(vmap_min_max(batched_x))


@jit
def manual_batch_min_max_loop(batched_x):
    min_max_result_list = []
    for x in batched_x:
        min_max_result_list.append(min_max(x))
    return jnp.array(min_max_result_list)

print(manual_batch_min_max_loop(batched_x))


@jit
def manual_batch_min_max_axis(batched_x):
    return jnp.stack([jnp.min(batched_x, axis = 1), jnp.max(batched_x, axis = 1)])

print(manual_batch_min_max_axis(batched_x))

# vmap

@jit
def min_max_vmap(batched_x):
    return vmap(min_max)(batched_x)

## We add extra dimention in a single vector, shape changes from (5,) to (1,5), which makes the vmapping possible
x_with_extra_dim = jax.numpy.expand_dims(batched_x, axis = 0)
print(min_max_vmap(x_with_extra_dim))
_report({"jit(relu)", "jit(manual_batch_min_max_loop)", "jit(manual_batch_min_max_axis)", "jit(min_max_vmap)"}, 4)
