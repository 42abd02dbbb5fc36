# source: https://github.com/eemlcommunity/PracticalSessions2023/blob/e2df7db43ac24e2c5036e2d820c773e7c7d23f55/tensor_parallelism/mega_mlp_full.ipynb
# expect: jit-in-loop-or-body at line 142
# runtime: COMPILES 10 CALLS 5
# why: update_pmap_inside wraps two fresh lambdas in jax.pmap on every call, so each training step recompiles both parameter-update pmaps (the notebook's own 'what's wrong with this implementation?' exercise).

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
# --- cell 1: Imports ---
from typing import Tuple
import dataclasses
import functools

import jax
print(jax.__version__)

import jax.numpy as jnp
import numpy as np

# --- cell 2: Notebook setting ---
USE_MOCK_DEVICES = True #@param {type:"boolean"}
import os

if USE_MOCK_DEVICES:
    print('Using 8 mock devices.')
    # Forces XLA to use `n` CPU threads as host devices.
    os.environ['XLA_FLAGS'] = '--xla_force_host_platform_device_count=8'

    if len(jax.local_devices()) < 8:
        raise Exception("Notebook requires 8 devices to run")

jax.devices()

# --- cell 6 ---
# To be explicit we define parameters here.
@dataclasses.dataclass
class Params:
    W_1:  jnp.ndarray  # "* d_model d_ff"]
    W_2:  jnp.ndarray  # "* d_ff d_model"]


# --- cell 20 ---
def init_params(nrows: int, ncols: int, dtype = np.float32):
    """A simple init function."""
    return lambda rng: jax.random.uniform(rng, shape=(nrows, ncols), dtype=dtype)


def make_sharded_mlp(hidden_dim: int,
                     pmap_axis='pmap_axis'):
    """Create Megatron-style sharded MLP (docstring trimmed)."""

    def init_fn(rng: jax.random.PRNGKey, input_shape: Tuple[int, int, int]):
        num_shards, input_dim, output_dim = input_shape

        key_a, key_b = jax.random.split(rng, 2)

        keys_a = jax.random.split(key_a, num=num_shards)
        param_a = jax.pmap(init_params(input_dim, hidden_dim), 'pmap_axis')(keys_a)

        keys_b = jax.random.split(key_b, num=num_shards)
        param_b = jax.pmap(init_params(hidden_dim, output_dim), 'pmap_axis')(keys_b)

        return input_shape, (param_a, param_b)

    def apply_fn(params: Params, x: jax.Array) -> jax.Array:
        # Each layer's parameters are sharded accross N devices.
        a, b = params
        y = jnp.maximum(jnp.matmul(x, a), 0.0)
        z = jnp.matmul(y, b)
        z = jax.lax.psum(z, 'pmap_axis')  # All-reduce sum (i.e. sum and broadcast).
        return z

    return init_fn, apply_fn

# --- cell 21 ---
def loss_fn(params: Params, inputs: jax.Array,  targets: jax.Array, logits_fn):
    logits = logits_fn(params, inputs)
    logits = jax.nn.log_softmax(logits, axis=-1)
    # Per batch example.
    loss = -jnp.sum(logits * targets, axis=-1)

    # Mean loss per example.
    return np.mean(loss)

# --- cell 22 ---
# On TPU donut (2x2) we have 8 cores.
num_shards = jax.device_count()

batch_size = 2
x_dim = 10
hidden_dim = 240  # hidden size of the MLP
out_dim = 10      # output size of the MLP

# Dummy input data with batch size = 2
x = jnp.arange(x_dim * batch_size).reshape(batch_size, x_dim)
y = jax.nn.one_hot(jnp.arange(1, batch_size + 1), out_dim)

# We broadcast* the data.
x_b = jax.lax.broadcast(x, (num_shards,))
y_b = jax.lax.broadcast(y, (num_shards,))

# --- cell 23 ---
key = jax.random.PRNGKey(0)
init_fn, apply_fn = make_sharded_mlp(1, hidden_dim // num_shards)

# --- cell 24 ---
# Wrap sharded apply_fn with pmap
mlp_sharded =  (
    lambda params, inputs: jax.pmap(apply_fn, axis_name='pmap_axis')(params, inputs)
)

# (cells 25-30: sanity checks and %timeit against the unsharded MLP, cut)

# --- cell 31 ---
loss_with_mlp_sharded = functools.partial(loss_fn, logits_fn=mlp_sharded)


def update_pmap_inside(params, x_b, y_b):
    loss_val, grads = jax.value_and_grad(loss_with_mlp_sharded)(params, x_b, y_b)
    (A, B), (dA, dB) = params, grads

    A_new = jax.pmap(lambda x, dx: x - 0.01 * dx, axis_name = 'pmap_axis')(A, dA)
    B_new = jax.pmap(lambda x, dx: x - 0.01 * dx, axis_name = 'pmap_axis')(B, dB)

    return loss_val, grads, (A_new, B_new)

# --- cell 32 ---
# Can you guess, what's wrong with this implementation?

# Can it be improved?
input_shape, params = init_fn(key, (num_shards, x_dim, out_dim))
print(loss_with_mlp_sharded(params, x_b, y_b))

# Warmstart jitted function and print statistics.
_, grads, _ = update_pmap_inside(params, x_b, y_b)

dw1, dw2 = grads
print(f"Norm of dW_1 %.2f" % np.linalg.norm(dw1))
print(f"Norm of dW_2 %.2f\n" % np.linalg.norm(dw2))

_COMPILED.clear()  # scaffolding: count only the training loop
for i in range(0, 5):  # scaffolding: range(0, 100) in the notebook
    if i < 10 or i % 10 == 0:
        print(i, loss_with_mlp_sharded(params, x_b, y_b))
        loss_val, grads, params = update_pmap_inside(params, x_b, y_b)
_report({"jit(_fun)", "jit(<lambda>)"}, 5)  # scaffolding
