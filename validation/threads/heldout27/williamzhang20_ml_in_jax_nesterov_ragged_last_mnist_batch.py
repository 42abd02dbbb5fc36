# source: https://github.com/WilliamZhang20/ML-in-JAX/blob/9246f5ee81277a6ad55229ce54beaf9628942b4b/mnist_nn.py
# expect: shape-churn at line 307
# runtime: COMPILES 2 CALLS 10
# why: the torch DataLoader keeps the short last batch (60000 = 468 x 128 + 96), so the jitted nesterov step gets a second batch shape at the end of the first epoch and compiles twice.
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



# --- train_utils.py ---
import numpy as np
from jax import grad, jit
from jax import vmap
from jax import random
import jax
import jax.numpy as jnp

from jax.scipy.special import logsumexp

def regularized_loss(params, images, targets, l1_lambda):
    return loss(params, images, targets) + l1_reg(params, l1_lambda) # lambda around 1e-4 or 1e-5 works well

@jit # update conducting gradient descent
def update(params, x, y, step_size):
    grads = grad(loss)(params, x, y)
    return [(w - step_size * dw, b-step_size * db)
            for (w, b), (dw, db) in zip(params, grads)]

def relu(x):
    return jnp.maximum(0, x)

def predict(params, image):
    activations = image
    for w, b in params[:-1]: # Forward Propagation through the neural network
        outputs = jnp.dot(w, activations) + b # <- Application of each layer's linear transformation
        activations = relu(outputs)

    final_w, final_b = params[-1]
    logits = jnp.dot(final_w, activations) + final_b
    return logits - logsumexp(logits)

# Initialize a vectorized function to predict batches
batched_predict = vmap(predict, in_axes=(None, 0))

def dropout(x, rate, key=None, training=True):
    if training:
        keep_prob = 1.0 - rate
        mask = jax.random.bernoulli(key, p=keep_prob, shape=x.shape)
        x = jnp.multiply(x, mask) / keep_prob
    return x

def l1_reg(params, l1_lambda):
    l1_reg = 0
    for w, _ in params:
        l1_reg += jnp.sum(jnp.abs(w))
    l1_reg_term = l1_lambda * l1_reg
    return l1_reg_term

def loss(params, images, targets):
    preds = batched_predict(params, images)
    return -jnp.mean(preds*targets) # jnp.mean() is final step of cross-entropy loss

def add_noise(x, noise_std, rng_key): 
    """
    Params:
    - x: input
    - noise_std: noise standard deviation
    - rng_key: random num gen key
    Returns: x with Gaussian Noise
    """
    noise = jax.random.normal(rng_key, shape=x.shape) * noise_std
    noisy_x = x + noise
    return noisy_x


# --- optimized_sgd.py ---
import numpy as np
from jax import grad, jit
import jax
import jax.numpy as jnp
# from train_utils import loss, regularized_loss # for now, is cross entropy loss!  # scaffolding: train_utils.py inlined above

"""
Applying optimizations to gradient descent such as:
- Momentum with SGD
- RMSProp
- Learning Rate Scheduling
- Adam
- Nesterov
"""

@jit
def sgd_momentum(params, x, y, velocities, step_size, momentum=0.9):
    grads = grad(loss)(params, x, y)
    new_velocities = [
        (momentum * v_w + step_size * g_w, momentum * v_b + step_size * g_b)
        for (v_w, v_b), (g_w, g_b) in zip(velocities, grads)
    ]
    new_params = [
        (w - v_w, b - v_b) for (w, b), (v_w, v_b) in zip(params, new_velocities)
    ]
    return new_params, new_velocities

@jit
def rmsprop(params, x, y, squared_grads, step_size=0.01, decay=0.88, epsilon=1e-8):
    grads = grad(loss)(params, x, y)

    new_squared_grads = [ # also considered to be the second moment from statistics
        (decay * c_w + (1 - decay) * (g_w ** 2),
         decay * c_b + (1 - decay) * (g_b ** 2))
        for (c_w, c_b), (g_w, g_b) in zip(squared_grads, grads)
    ]
    new_params = [
        (w - (step_size / (jnp.sqrt(c_w) + epsilon)) * g_w,
         b - (step_size / (jnp.sqrt(c_b) + epsilon)) * g_b)
        for (w, b), (c_w, c_b), (g_w, g_b) in zip(params, new_squared_grads, grads)
    ]

    return new_params, new_squared_grads

@jit
def adam(params, x, y, m, v, t, step_size=0.001, beta1=0.9, beta2=0.9, epsilon=1e-9):
    grads = grad(loss)(params, x, y)
    # t: timestep (to help with bias correction)
    t += 1
    # Update biased first moment estimate
    new_m = [
        (beta1 * m_w + (1 - beta1) * g_w, beta1 * m_b + (1 - beta1) * g_b)
        for (m_w, m_b), (g_w, g_b) in zip(m, grads)
    ]
    # Update biased second moment estimate
    new_v = [
        (beta2 * v_w + (1 - beta2) * (g_w ** 2), beta2 * v_b + (1 - beta2) * (g_b ** 2))
        for (v_w, v_b), (g_w, g_b) in zip(v, grads)
    ]
    # Bias correction
    m_hat = [
        (m_w / (1 - beta1**t), m_b / (1 - beta1**t))
        for m_w, m_b in new_m
    ]
    v_hat = [
        (v_w / (1 - beta2**t), v_b / (1 - beta2**t))
        for v_w, v_b in new_v
    ]
    # Update parameters using corrected moments
    new_params = [
        (w - step_size * m_hat_w / (jnp.sqrt(v_hat_w) + epsilon),
         b - step_size * m_hat_b / (jnp.sqrt(v_hat_b) + epsilon))
        for (w, b), (m_hat_w, m_hat_b), (v_hat_w, v_hat_b) in zip(params, m_hat, v_hat)
    ]
    return new_params, new_m, new_v, t

@jit
def nesterov(params, x, y, v, step_size=0.001, momentum=0.9):
    lookahead = [ # lookahead guess given velocities!
        (w - momentum * v_w, b - momentum * v_b)
        for (w, b), (v_w, v_b) in zip(params, v)
    ]
    grads = grad(loss)(lookahead, x, y) # gradient with respect to lookahead prediction - so accelerated convergence!
    new_v = [
        (momentum * v_w + step_size * g_w, momentum * v_b + step_size * g_b)
        for (v_w, v_b), (g_w, g_b) in zip(v, grads)
    ]
    new_params = [
        (w - v_w, b - v_b) for (w, b), (v_w, v_b) in zip(params, new_v)
    ]
    return new_params, new_v

# --- mnist_nn.py ---
import numpy as np

import jax
from jax import grad, jit
from jax import vmap
from jax import random
import jax.numpy as jnp
# from train_utils import batched_predict, update  # scaffolding: train_utils.py inlined above

# random weights & biases
def random_layer_params(m, n, key, scale=1e-2):
    w_key, b_key = random.split(key)
    return scale * random.normal(w_key, (n, m)), scale * random.normal(b_key, (n, ))

# initialize layers
def init_network_params(sizes, key):
    keys = random.split(key, len(sizes))
    return [random_layer_params(m, n, k) for m, n, k in zip(sizes[:-1], sizes[1:], keys)]

layer_sizes = [784, 512, 256, 10]
step_size = 0.01 # learning rate
num_epochs = 2  # scaffolding: 20 in the repo
batch_size = 128 # for mini-batched GD
n_targets = 10
params = init_network_params(layer_sizes, random.key(0))

def one_hot(x, k, dtype=jnp.float32):
    """create one-hot encoding of x of size k"""
    return jnp.array(x[:, None] == jnp.arange(k), dtype)

def accuracy(params, images, targets):
    target_class = jnp.argmax(targets, axis=1)
    predicted_class = jnp.argmax(batched_predict(params, images), axis=1)
    return jnp.mean(predicted_class == target_class)

# from torch.utils import data  # scaffolding: torch/torchvision not installed; stand-ins below
# from torchvision.datasets import MNIST  # scaffolding
# import torchvision.transforms as transforms  # scaffolding


class _T:  # scaffolding: a torch tensor stand-in with .numpy()
    def __init__(self, a): self.a = a  # scaffolding
    def numpy(self): return self.a  # scaffolding
    def __len__(self): return len(self.a)  # scaffolding
    def __array__(self, dtype=None, copy=None): return self.a  # scaffolding


class MNIST:  # scaffolding: 600 train / 100 test random digits (60000 = 468 x 128 + 96 keeps a ragged last batch; so does 600 = 4 x 128 + 88)
    def __init__(self, root, train=True, download=True, transform=None):  # scaffolding
        rs = np.random.RandomState(0 if train else 1); n = 600 if train else 100  # scaffolding
        self.data = _T(rs.randint(0, 256, (n, 28, 28)).astype(np.uint8))  # scaffolding
        self.targets = _T(rs.randint(0, 10, n))  # scaffolding
        self.transform = transform  # scaffolding
    def __len__(self): return len(self.targets)  # scaffolding
    def __getitem__(self, i): return self.transform(self.data.a[i]), int(self.targets.a[i])  # scaffolding


class data:  # scaffolding: torch.utils.data stand-in
    class DataLoader:  # scaffolding: default collate stacks samples; drop_last=False
        def __init__(self, ds, batch_size=1, shuffle=False): self.ds, self.bs, self.shuffle = ds, batch_size, shuffle  # scaffolding
        def __iter__(self):  # scaffolding
            idx = np.random.permutation(len(self.ds)) if self.shuffle else np.arange(len(self.ds))  # scaffolding
            for s in range(0, len(idx), self.bs):  # scaffolding
                items = [self.ds[int(j)] for j in idx[s:s + self.bs]]  # scaffolding
                yield np.stack([a for a, _ in items]), np.array([b for _, b in items])  # scaffolding


class transforms:  # scaffolding
    Compose = staticmethod(lambda fs: fs[0])  # scaffolding
    Lambda = staticmethod(lambda f: f)  # scaffolding


transform = transforms.Compose([transforms.Lambda(lambda x: np.ravel(np.array(x, dtype=np.float32)))])

# Load MNIST dataset with transformation
mnist_dataset = MNIST(root='./data', train=True, download=True, transform=transform)
mnist_dataset_test = MNIST(root='./data', train=False, download=True, transform=transform)

train_images = np.array(mnist_dataset.data.numpy().reshape(len(mnist_dataset.data), -1), dtype=np.float32)
train_labels = one_hot(jnp.array(mnist_dataset.targets), n_targets)

test_images = np.array(mnist_dataset_test.data.numpy().reshape(len(mnist_dataset_test.data), -1), dtype=np.float32)
test_labels = one_hot(jnp.array(mnist_dataset_test.targets), n_targets)

training_generator = data.DataLoader(mnist_dataset, batch_size=batch_size, shuffle=True)

# from optimized_sgd import sgd_momentum, rmsprop, adam, nesterov  # scaffolding: optimized_sgd.py inlined above
# from train_utils import add_noise  # scaffolding

# Initialize velocities - list of tuples of matrices
velocities = [(jnp.zeros_like(w), jnp.zeros_like(b)) for w, b in params]

# Initialize RMSprop cache (same shape as params, initialized to zeros)
cache = [(jnp.zeros_like(w), jnp.zeros_like(b)) for w, b in params]

# Initialize first moment (m) and second moment (v) for Adam
m = [(jnp.zeros_like(w), jnp.zeros_like(b)) for w, b in params]
v = [(jnp.zeros_like(w), jnp.zeros_like(b)) for w, b in params]
t = 0  # Time step counter

# training loop
import time

# Fuzzing data for regularization
initial_noise_std = 0.015  # Adjust as needed
final_noise_std = 0.01  # Reduce over time
rng_key = random.PRNGKey(42)  # Fixed seed for reproducibility

for epoch in range(num_epochs): # 10 epochs
    start_time = time.time()
    noise_std = initial_noise_std * (final_noise_std / initial_noise_std) ** (epoch / num_epochs)
    for x, y in training_generator:
        x = jnp.array(x)

        # Generate a new key for each batch to ensure different noise
        #rng_key, subkey = random.split(rng_key)
        #x_noisy = add_noise(x, noise_std, subkey)  # Apply Gaussian noise

        y = one_hot(jnp.array(y), n_targets)
        params, velocities = nesterov(params, x, y, velocities, step_size)
    epoch_time = time.time() - start_time

    train_acc = accuracy(params, train_images, train_labels)
    test_acc = accuracy(params, test_images, test_labels)

    print("Epoch {} in {:0.2f} sec".format(epoch, epoch_time))
    print("Training set accuracy {}".format(train_acc))
    print("Test set accuracy {}".format(test_acc))
_report({"jit(nesterov)"}, 10)  # scaffolding: 2 epochs x 5 batches
