# source: https://github.com/tathagata-karmakar/OPO_codes/blob/0961b4d40893ca6688b068c847c3eb22e0e5655f/jax_demo.ipy
# expect: shape-churn at line 134
# runtime: COMPILES 2 CALLS 16
# why: The NumpyLoader keeps drop_last=False, so the last batch of each epoch is smaller (104 of 128 here; 96 for real MNIST) and the jitted update is compiled a second time for that shape.

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
# ---- jax_demo.ipy (JAX MNIST demo in a personal experiment repo); unused imports dropped ----
import time
import numpy as np

import jax
import jax.numpy as jnp
from jax import grad, jit, vmap
from jax import random
from jax.scipy.special import logsumexp

from torch.utils import data

def random_layer_params(m,n,key,scale=1e-2):
    w_key,b_key=random.split(key)
    return scale*random.normal(w_key,(n,m)),scale*random.normal(b_key,(n,))
def init_network_params(sizes,key):
    keys=random.split(key,len(sizes))
    return [random_layer_params(m,n,k) for m,n,k in zip(sizes[:-1],sizes[1:],keys)]

def relu(x):
    return jnp.maximum(0,x)

def predict(params, image):
    activations =image
    for w,b in params[:-1]:
        outputs = jnp.dot(w,activations)+b
        activations = relu(outputs)
    final_w,final_b=params[-1]
    logits=jnp.dot(final_w,activations)+final_b
    return logits - logsumexp(logits)

def one_hot(x,k,dtype=jnp.float32):
    return jnp.array(x[:, None] == jnp.arange(k),dtype)

def accuracy(params, images, targets):
    target_class = jnp.argmax(targets,axis=1)
    predicted_class = jnp.argmax(batched_predict(params,images),axis=1)
    return jnp.mean(predicted_class == target_class)

def loss(params, images, targets):
    preds = batched_predict(params, images)
    return -jnp.mean(preds * targets)

@jit 
def update(params, x, y):
    grads = grad(loss)(params, x, y)
    return [(w-step_size*dw,b-step_size*db) for (w,b), (dw, db) in zip(params, grads)]

layer_sizes=[784,512,512,10]
step_size=0.01
num_epochs=10
batch_size=128
n_targets=10
params=init_network_params(layer_sizes,random.PRNGKey(0))

batched_predict = vmap(predict,in_axes=(None,0))

def numpy_collate(batch):
  if isinstance(batch[0], np.ndarray):
    return np.stack(batch)
  elif isinstance(batch[0], (tuple,list)):
    transposed = zip(*batch)
    return [numpy_collate(samples) for samples in transposed]
  else:
    return np.array(batch)

class NumpyLoader(data.DataLoader):
  def __init__(self, dataset, batch_size=1,
                shuffle=False, sampler=None,
                batch_sampler=None, num_workers=0,
                pin_memory=False, drop_last=False,
                timeout=0, worker_init_fn=None):
    super(self.__class__, self).__init__(dataset,
        batch_size=batch_size,
        shuffle=shuffle,
        sampler=sampler,
        batch_sampler=batch_sampler,
        num_workers=num_workers,
        collate_fn=numpy_collate,
        pin_memory=pin_memory,
        drop_last=drop_last,
        timeout=timeout,
        worker_init_fn=worker_init_fn)

class FlattenAndCast(object):
  def __call__(self, pic):
    return np.ravel(np.array(pic, dtype=jnp.float32))

# Define our dataset, using torch datasets
_rng = np.random.default_rng(0)  # scaffolding: stand-in for MNIST (1000 images; 1000 % 128 = 104)
_imgs = _rng.integers(0, 256, size=(1000, 28, 28), dtype=np.uint8)  # scaffolding
_labels = _rng.integers(0, 10, size=1000)  # scaffolding
mnist_dataset = [(FlattenAndCast()(im), int(lb)) for im, lb in zip(_imgs, _labels)]  # scaffolding (was MNIST('/tmp/mnist/', download=True, transform=FlattenAndCast()))
training_generator = NumpyLoader(mnist_dataset, batch_size=batch_size, num_workers=0)

# Get the full train dataset (for checking accuracy while training)
train_images = _imgs.reshape(len(_imgs), -1)  # scaffolding (was mnist_dataset.train_data)
train_labels = one_hot(_labels, n_targets)  # scaffolding

num_epochs = 2  # scaffolding: cut from 10
n_calls = 0  # scaffolding
for epoch in range(num_epochs):
  start_time = time.time()
  for x, y in training_generator:
    y = one_hot(y, n_targets)
    params = update(params, x, y)
    n_calls += 1  # scaffolding
  epoch_time = time.time() - start_time

  train_acc = accuracy(params, train_images, train_labels)
  print("Epoch {} in {:0.2f} sec".format(epoch, epoch_time))
  print("Training set accuracy {}".format(train_acc))
_report({"jit(update)"}, n_calls)
