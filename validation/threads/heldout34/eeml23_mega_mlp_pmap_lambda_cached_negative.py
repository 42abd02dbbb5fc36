# source: https://github.com/eemlcommunity/PracticalSessions2023/blob/e2df7db43ac24e2c5036e2d820c773e7c7d23f55/tensor_parallelism/mega_mlp_full.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: mlp_sharded is a lambda that calls jax.pmap(apply_fn, ...) on every invocation, which looks like a pmap rebuilt per call, but apply_fn is the same function object each time so the compiled pmap is reused.

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


# --- cell 13: Sharding utils ---
def shard_on_columns(x: jnp.ndarray, N: int) -> jax.Array:
    """Splits matrix on column axis by number of shards."""
    assert len(x.shape) == 2
    x = jnp.expand_dims(x, axis=0)  # [1, H_1, H_2]
    x = jnp.split(x, N, axis=2)     # [1, H_1, H_2/N] N times
    x = np.concatenate(x, axis=0)   # [N, H_1, H_2/N]
    return x


def shard_on_rows(x: jnp.ndarray, N: int) -> jax.Array:
    """Splits matrix on column axis by number of shards."""
    assert len(x.shape) == 2
    x = jnp.expand_dims(x, axis=0)  # [1, H_1,   H_2]
    x = jnp.split(x, N, axis=1)     # [1, H_1/N, H_2] N times
    x = np.concatenate(x, axis=0)   # [N, H_1,   H_2/N]
    return x

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

# --- cell 25 ---
# Sanity check if the sharded version is close to the unsharded.
hidden_dim = num_shards*2048

# Create weights on device
W_1_single = np.random.normal(size=(x_dim, hidden_dim))
W_2_single = np.random.normal(size=(hidden_dim, x_dim))
print(W_1_single.shape, W_2_single.shape)

# 'Shard' the data manally for pmap.
W_1_sharded = shard_on_columns(W_1_single, num_shards)
W_2_sharded = shard_on_rows(W_2_single, num_shards)
print(W_1_sharded.shape, W_2_sharded.shape)

# --- cell 29 (%timeit, as a plain loop) ---
# Compare running times: 2-layer MLP sharded on 8 devices.
_COMPILED.clear()  # scaffolding
for _ in range(5):  # scaffolding: stands in for %timeit
    mlp_sharded((W_1_sharded, W_2_sharded), x_b)[0]
_report({"jit(_fun)", "jit(apply_fn)"}, 5)  # scaffolding
