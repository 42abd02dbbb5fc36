# source: https://github.com/google/learn-oss-with-google/pull/5
# expect: none
# runtime: COMPILES 2 CALLS 4
# why: after the PR the adam update runs inside the pmapped update_fun; jax.pmap(update_fun) is re-created every batch but reuses its cache; the one extra compile comes from the first outputs returning with a NamedSharding instead of the initial SingleDeviceSharding.
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
# google/learn-oss-with-google pull request #5: main.py after the PR (optimizer update moved into the pmapped update_fun)
from typing import Any, Tuple
import jax
import jax.lax
import jax.numpy as jnp
import numpy as np  # scaffolding

import flax.linen as nn
import optax

NUM_EPOCHS = 2   # scaffolding: 8 in the example
BATCH_SIZE = 128 # dataset batch size; each batch gets evenly distributed across hosts and local devices per host

# Define the neural network model
class MLP(nn.Module):

    @nn.compact
    def __call__(self, x):
        x = x.reshape((x.shape[0], -1))
        x = nn.Dense(256)(x)
        x = nn.relu(x)
        x = nn.Dense(128)(x)
        x = nn.relu(x)
        x = nn.Dense(10)(x)
        return x

model = MLP()
optimizer = optax.adam(learning_rate=0.001)

# Define the training functions
def cross_entropy_loss(logits: jnp.ndarray, labels: jnp.ndarray) -> jnp.ndarray:
    one_hot_labels = jax.nn.one_hot(labels, logits.shape[-1])
    return -jnp.mean(jnp.sum(one_hot_labels * jax.nn.log_softmax(logits), axis=-1))

# Computes the loss for the given model using the provided inputs and labels.
@jax.jit
def loss_fn(params: Any, inputs: jnp.ndarray, labels: jnp.ndarray) -> jnp.ndarray:
    logits = model.apply({'params': params}, inputs)
    return cross_entropy_loss(logits, labels)

# Splits the first axis of `arr` evenly across the number of local devices.
def split(arr: jnp.ndarray) -> jnp.ndarray:
    n_local_devices = jax.local_device_count()
    return arr.reshape(n_local_devices, arr.shape[0] // n_local_devices, *arr.shape[1:])

# Computes gradients on the given mini-batch, then averages gradients across devices and updates the model parameters
# jit annotation is optional as the function is only used in the pmap context
@jax.jit
def update_fun(params: Any, optimizer_state: Any, inputs: jnp.ndarray, labels: jnp.ndarray) -> Any:
    loss, grads = jax.value_and_grad(loss_fn)(params, inputs, labels)
    avg_loss, avg_grads = jax.lax.pmean((loss, grads), axis_name='i')
    updates, optimizer_state = optimizer.update(avg_grads, optimizer_state)
    params = optax.apply_updates(params, updates)
    return params, optimizer_state, avg_loss

# Main function for running the training
def run(rank, world_size):
    rs = np.random.RandomState(0)  # scaffolding: 256 random 28x28 images instead of the MNIST shard (tensorflow_datasets)
    train_ds_shard_in_batches = [(rs.rand(BATCH_SIZE // world_size, 28, 28, 1).astype(np.float32),
                                  rs.randint(0, 10, BATCH_SIZE // world_size).astype(np.int32)) for _ in range(2)]  # scaffolding

    # Initialize random number generation
    rng = jax.random.PRNGKey(0)
    rng, init_rng = jax.random.split(rng)

    input_shape = (1, 28, 28, 1)  # scaffolding: train_ds_info.features['image'].shape
    params = model.init(init_rng, jnp.ones(input_shape, jnp.float32))['params']

    # Initialize the optimizer
    optimizer_state = optimizer.init(params)

    # Replicate parameters across the local devices on each host
    replicated_params = jax.tree_util.tree_map(lambda x: jnp.array([x] * jax.local_device_count()), params)
    replicated_optimizer_state = jax.tree_util.tree_map(lambda x: jnp.array([x] * jax.local_device_count()), optimizer_state)

    # Train the model
    for epoch in range(NUM_EPOCHS):
        avg_epoch_loss = 0
        for batch_num, batch in enumerate(train_ds_shard_in_batches):
            batch_inputs_np, batch_labels_np = batch  # scaffolding: tfds.as_numpy(batch)

            split_inputs = split(jnp.array(batch_inputs_np))
            split_labels = split(jnp.array(batch_labels_np))

            replicated_params, replicated_optimizer_state, replicated_avg_loss = jax.pmap(update_fun, axis_name="i")(replicated_params, replicated_optimizer_state, split_inputs, split_labels)

            avg_epoch_loss += replicated_avg_loss[0]

        avg_epoch_loss /= len(train_ds_shard_in_batches)

run(0, 1)  # scaffolding: one host

_report({"jit(update_fun)", "pmap(update_fun)", "jit(_fun)"}, 4)  # scaffolding
