# source: https://github.com/shadowfax92/mnist_jax_test/blob/6534a36cc9ace75b6a1b9ab73a4da934a7f32138/training.py
# expect: none
# runtime: COMPILES 1 CALLS 40
# why: train_step makes the equinox static partition and the optax optimizer static; both hash stably and the batches keep one shape, so it compiles once for 40 calls.
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


# file: model.py
import equinox as eqx
import jax
import jax.numpy as jnp

class Model(eqx.Module):
    layer1: eqx.nn.Linear
    layer2: eqx.nn.Linear

    def __init__(self, key):
        key1, key2 = jax.random.split(key, 2)
        self.layer1 = eqx.nn.Linear(in_features=784, out_features=16, key=key1, use_bias=False)
        self.layer2 = eqx.nn.Linear(in_features=16, out_features=10, key=key2, use_bias=False)

    def __call__(self, x):
        x = jax.nn.relu(self.layer1(x))
        x = self.layer2(x)
        return x

# file: data.py
import numpy as np  # scaffolding: tensorflow is not installed; stand-ins for the two tf loaders below
import jax.numpy as jnp

def load_mnist():  # scaffolding: stand-in for tf.keras.datasets.mnist (+ the repo's /255 flattening and one-hot), 640 train / 128 test rows
    r = np.random.RandomState(0)  # scaffolding
    x_train = r.randint(0, 256, (640, 28 * 28)) / 255.0  # scaffolding
    x_test = r.randint(0, 256, (128, 28 * 28)) / 255.0  # scaffolding
    y_train = np.eye(10)[r.randint(0, 10, 640)]  # scaffolding
    y_test = np.eye(10)[r.randint(0, 10, 128)]  # scaffolding
    return (x_train, y_train), (x_test, y_test)  # scaffolding


def create_data_iterators(x_train, y_train, x_test, y_test, batch_size=64):  # scaffolding: tf.data repeat().shuffle().batch(64) as a numpy generator
    def _it(x, y, repeat):  # scaffolding
        r = np.random.RandomState(1)  # scaffolding
        while True:  # scaffolding
            p = r.permutation(len(x))  # scaffolding
            for i in range(0, len(x), batch_size):  # scaffolding
                yield x[p[i:i + batch_size]], y[p[i:i + batch_size]]  # scaffolding
            if not repeat:  # scaffolding
                return  # scaffolding
    return _it(x_train, y_train, True), _it(x_test, y_test, False)  # scaffolding


def get_batch(iterator):
    images, labels = next(iterator)
    return jnp.array(images), jnp.array(labels, dtype=jnp.float32)

# file: training.py
import jax
import equinox as eqx
import optax
import functools
from jax.experimental import mesh_utils
from jax.sharding import Mesh, NamedSharding, PartitionSpec as PS

def forward_pass(model, batch):
    inputs, labels = batch
    logits = jax.vmap(model, in_axes=(0), out_axes=(0))(inputs)
    loss = optax.softmax_cross_entropy(logits=logits, labels=labels)
    return loss.mean(), logits

def backward_pass(model, opt, opt_state, batch):
    grad_fn = jax.value_and_grad(forward_pass, argnums=(0), has_aux=True)
    (loss, _), grads = grad_fn(model, batch)
    updates, opt_state = opt.update(grads, opt_state, eqx.filter(model, eqx.is_array))
    model = eqx.apply_updates(model, updates)
    return model, opt_state, loss

@functools.partial(jax.jit, static_argnums=(1, 2))
def train_step(params, static, opt, opt_state, batch):
    model = eqx.combine(params, static)
    return backward_pass(model, opt, opt_state, batch)

def setup_training(model, learning_rate=0.001):
    params, static = eqx.partition(model, eqx.is_array)
    opt = optax.sgd(learning_rate=learning_rate)
    opt_state = opt.init(params)
    return params, static, opt, opt_state

def setup_mesh_sharding(params):
    # Get number of available devices
    num_devices = len(jax.devices())
    devices = mesh_utils.create_device_mesh((num_devices,))
    mesh = Mesh(devices, axis_names=('x',))
    
    params = eqx.tree_at(
        lambda tree: tree.layer1.weight,
        params,
        replace_fn=lambda node: jax.device_put(node, NamedSharding(mesh, PS('x')))
    )
    params = eqx.tree_at(
        lambda tree: tree.layer2.weight,
        params,
        replace_fn=lambda node: jax.device_put(node, NamedSharding(mesh, PS('x')))
    )
    
    return params, mesh

# file: main.py
import jax
import jax.random as jr
# from config import configure_xla  # scaffolding: inlined above
# from data import load_mnist, create_data_iterators, get_batch  # scaffolding: inlined above
# from model import Model  # scaffolding: inlined above
# from training import setup_training, setup_mesh_sharding, train_step  # scaffolding: inlined above
from jax.sharding import NamedSharding, PartitionSpec as PS

def main():
    # Configure XLA
    # configure_xla()
    
    # Print available devices
    print("Available devices:")
    print(jax.devices())
    
    # Load data
    (x_train, y_train), (x_test, y_test) = load_mnist()
    batch_size = 32
    train_iterator, test_iterator = create_data_iterators(x_train, y_train, x_test, y_test)
    
    # Initialize model
    model = Model(jr.PRNGKey(99))
    
    # Setup training
    params, static, opt, opt_state = setup_training(model)
    
    # Setup mesh sharding
    params, mesh = setup_mesh_sharding(params)
    
    # Training hyperparameters
    num_epochs = 2  # scaffolding: 10 in the repo
    steps_per_epoch = len(x_train) // batch_size  # Use batch_size variable instead of accessing it from iterator

    # Training loop
    for epoch in range(num_epochs):
        epoch_loss = 0.0
        for step in range(steps_per_epoch):
            images, labels = get_batch(train_iterator)
            images_sharded = jax.device_put(images, NamedSharding(mesh, PS('x')))
            labels_sharded = jax.device_put(labels, NamedSharding(mesh, PS('x')))
            
            params, opt_state, loss = train_step(params, static, opt, opt_state, 
                                               (images_sharded, labels_sharded))
            epoch_loss += loss
        
        # Print epoch results
        avg_loss = epoch_loss / steps_per_epoch
        print(f"Epoch {epoch+1}/{num_epochs}, Average Loss: {avg_loss:.4f}")

    print("Training completed!")

if __name__ == "__main__":
    main()
    _report({"jit(train_step)"}, 2 * (640 // 32))  # scaffolding: num_epochs * steps_per_epoch