# source: https://github.com/kajuna0amendez/Class_MachineLearning_Jax/blob/7fd6a4bab757f9d6a1a974aaef028d7b9aa51ad2/notebook/Neural_Networks_Adendum/MLP_Jax.ipynb
# expect: shape-churn at line 204
# runtime: COMPILES 2 CALLS 16
# why: NeuralNetwork.update is jitted with static self and fed tfds batches of 128 without drop_remainder, so the last, shorter batch of each epoch (MNIST's 60000 leaves 96) compiles update a second time.
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
# notebook/Neural_Networks_Adendum/MLP_Jax.ipynb of a machine-learning course taught with JAX (cells 1-4, 6-10); tensorflow_datasets and jax_metrics are stood in
# cell 1
import jax
import numpy as np  # scaffolding


class jm:  # scaffolding: stand-in for jax_metrics (not installed); only jm.losses.crossentropy is used
    class losses:  # scaffolding
        @staticmethod  # scaffolding
        def crossentropy(preds, targets):  # scaffolding
            return -jnp.sum(targets * jnp.log(preds + 1e-9), axis=-1)  # scaffolding
import jax.numpy as jnp
from jax import grad, jit, vmap
from functools import partial
from jax import random
from jax.scipy.special import logsumexp
import os
os.environ['XLA_PYTHON_CLIENT_PREALLOCATE'] = 'false'
os.environ['XLA_PYTHON_CLIENT_ALLOCATOR'] = 'platform'
# cell 2
class NeuralNetwork():
    """
    We have a basic netwrk implementation
    """
    def __init__(self, network_params):
        layers, step_size, epochs, batch, n_targets = network_params
        self.layer_sizes = layers
        self.step_size = step_size
        self.num_epochs = epochs
        self.batch_size = batch
        self.n_targets = n_targets
        self.params = self._init_network_params(self.layer_sizes, random.PRNGKey(0))
        self.batched_predict = vmap(self.predict, in_axes=(None, 0))

    @staticmethod
    def _random_layer_params(m, n, key, scale=1e-2):
        w_key, b_key = random.split(key)
        return scale * random.normal(w_key, (n, m)), scale * random.normal(b_key, (n,))

    # Initialize all layers for a fully-connected neural network with sizes "sizes"
    def _init_network_params(self, sizes, key):
        keys = random.split(key, len(sizes))
        return [self._random_layer_params(m, n, k) for m, n, k in zip(sizes[:-1], sizes[1:], keys)]

    @staticmethod
    def relu(x):
        return jnp.maximum(0, x)

    def predict(self, params, image):
        # Layer calculations using 
        # [Layer1, Layer2, Layer3] = [:-1]
        activations = image
        for w, b in params[:-1]:
            outputs = jnp.dot(w, activations) + b
            activations = self.relu(outputs)
        # Output Layer
        final_w, final_b = params[-1]
        logits = jnp.dot(final_w, activations) + final_b
        return jax.nn.softmax(logits)
    
    def batch_predict(self, params, batched_images):
        return self.batched_predict(params, batched_images)
    
    @staticmethod
    def one_hot(x, k, dtype=jnp.float32):
        """Create a one-hot encoding of x of size k."""
        return jnp.array(x[:, None] == jnp.arange(k), dtype)
    
    def accuracy(self, images, targets):
        target_class = jnp.argmax(targets, axis=1)
        predicted_class = jnp.argmax(self.batched_predict(self.params, images), axis=1)
        return jnp.mean(predicted_class == target_class)

    def loss(self, params, images, targets):
        preds = self.batched_predict(params, images)
        return jnp.mean(jm.losses.crossentropy(preds, targets))

    @partial(jit, static_argnums=(0,))
    def update(self, params, x, y):
        grads = grad(self.loss)(params, x, y)
        return [(w - self.step_size * dw, b - self.step_size * db)
                      for (w, b), (dw, db) in zip(params, grads)] 
    
    #@partial(jit, static_argnums=(0,))
    def dloss(self, params, x, y):
        return grad(self.loss)(params, x, y)
# cell 3
layer_sizes = [784, 512, 512, 10]
step_size = 0.01
num_epochs = 2  # scaffolding: 30 in the notebook
batch_size = 128
n_targets = 10
network_params = (layer_sizes, step_size, num_epochs, batch_size, n_targets)
# cell 4
network = NeuralNetwork(network_params)
# cell 5
# import tensorflow as tf  # scaffolding: tensorflow is not installed here
# tf.config.set_visible_devices([], device_type='GPU')  # scaffolding
# import tensorflow_datasets as tfds  # scaffolding: stood in below
data_dir = '/home/remote_code/Jax_Excercises/tfds'
_rng = np.random.default_rng(0)  # scaffolding: random stand-in for MNIST (1000 train / 200 test examples instead of 60000 / 10000)
_MNIST = {"train": (_rng.integers(0, 256, (1000, 28, 28, 1), dtype=np.uint8), _rng.integers(0, 10, 1000)),  # scaffolding
          "test": (_rng.integers(0, 256, (200, 28, 28, 1), dtype=np.uint8), _rng.integers(0, 10, 200))}  # scaffolding


class _Info:  # scaffolding: stand-in for tfds' DatasetInfo
    class features:  # scaffolding
        _label = type("L", (), {"num_classes": 10})()  # scaffolding
        _image = type("I", (), {"shape": (28, 28, 1)})()  # scaffolding

        def __class_getitem__(cls, k):  # scaffolding
            return {"label": cls._label, "image": cls._image}[k]  # scaffolding


class _DS:  # scaffolding: stand-in for a tf.data.Dataset of (image, label)
    def __init__(self, split):  # scaffolding
        self.x, self.y = _MNIST[split]  # scaffolding

    def batch(self, n):  # scaffolding: like tf.data's batch(), the last batch keeps the remainder
        self.n = n  # scaffolding
        return self  # scaffolding

    def prefetch(self, k):  # scaffolding
        return self  # scaffolding

    def __iter__(self):  # scaffolding
        for i in range(0, len(self.x), self.n):  # scaffolding
            yield self.x[i:i + self.n], self.y[i:i + self.n]  # scaffolding


class tfds:  # scaffolding: stand-in for tensorflow_datasets (not installed)
    @staticmethod  # scaffolding
    def load(name, split=None, batch_size=None, data_dir=None, with_info=False, as_supervised=False):  # scaffolding
        if split is None:  # scaffolding: batch_size=-1 form, whole splits as arrays
            d = {k: {"image": v[0], "label": v[1]} for k, v in _MNIST.items()}  # scaffolding
            return (d, _Info) if with_info else d  # scaffolding
        return _DS(split)  # scaffolding

    @staticmethod  # scaffolding
    def as_numpy(ds):  # scaffolding
        return ds  # scaffolding
# cell 6
mnist_data, info = tfds.load(name="mnist", batch_size=-1, data_dir=data_dir, with_info=True)
mnist_data = tfds.as_numpy(mnist_data)
train_data, test_data = mnist_data['train'], mnist_data['test']
# cell 7
train_data, test_data = mnist_data['train'], mnist_data['test']
num_labels = info.features['label'].num_classes
h, w, c = info.features['image'].shape
num_pixels = h * w * c
# cell 8
train_images, train_labels = train_data['image'], train_data['label']
train_images = jnp.reshape(train_images, (len(train_images), num_pixels))
train_labels = network.one_hot(train_labels, num_labels)
# cell 9
test_images, test_labels = test_data['image'], test_data['label']
test_images = jnp.reshape(test_images, (len(test_images), num_pixels))
test_labels = network.one_hot(test_labels, num_labels)
# cell 10
import time

def get_train_batches():
    # as_supervised=True gives us the (image, label) as a tuple instead of a dict
    ds = tfds.load(name='mnist', split='train', as_supervised=True, data_dir=data_dir)
    # You can build up an arbitrary tf.data input pipeline
    ds = ds.batch(batch_size).prefetch(1)
    # tfds.dataset_as_numpy converts the tf.data.Dataset into an iterable of NumPy arrays
    return tfds.as_numpy(ds)

n_calls = 0  # scaffolding
for epoch in range(num_epochs):
    start_time = time.time()
    for x, y in get_train_batches():
        x = x.astype(jnp.float32)
        x = jnp.reshape(x, (len(x), num_pixels))
        y = network.one_hot(y, num_labels)
        network.params = network.update(network.params, x, y)
        n_calls += 1  # scaffolding
    epoch_time = time.time() - start_time

    train_acc = network.accuracy(train_images, train_labels)
    test_acc = network.accuracy(test_images, test_labels)
    print("Epoch {} in {:0.2f} sec".format(epoch, epoch_time))
    print("Training set accuracy {}".format(train_acc))
    print("Test set accuracy {}".format(test_acc))
_report({"jit(update)"}, n_calls)  # scaffolding
