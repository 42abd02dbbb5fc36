# source: https://github.com/Dawntown/numerical-analysis-and-deep-learning/blob/45e51a87f1c268b6b470c16c45c5e42718d41c7e/pml/pmlintro_ch1.ipynb
# expect: shape-churn at line 131
# runtime: COMPILES 2 CALLS 20
# why: update2 is jitted and fed batches from a torch DataLoader with batch_size=64 and the default drop_last=False, so the last, shorter batch of every epoch (MNIST's 60000 leaves 32) compiles update2 a second time (and batch_accuracy once per ragged shape too).
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
# pml/pmlintro_ch1.ipynb (a learner working through the MNIST MLP of chapter 1 of "JAX in Action", formerly "Deep Learning with JAX"); plotting cells cut
# cell 1
import numpy as np
import jax
import jax.numpy as jnp
import torch  # scaffolding: torchvision is not importable here; MNIST is stood in by random tensors below
from torch.utils.data import TensorDataset  # scaffolding
# cell 6
HEIGHT = 28 
WIDTH = 28 
CHANNELS = 1 
NUM_PIXELS = HEIGHT * WIDTH * CHANNELS 
NUM_LABELS = 10
# cell 7
_g = torch.Generator().manual_seed(0)  # scaffolding: stand-ins for datasets.MNIST(train=True/False)
data_train = TensorDataset(torch.rand(600, 1, 28, 28, generator=_g), torch.randint(0, 10, (600,), generator=_g))  # scaffolding: 600 examples, last batch 24 (MNIST's 60000 leaves 32 with batch_size=64)
data_test = TensorDataset(torch.rand(100, 1, 28, 28, generator=_g), torch.randint(0, 10, (100,), generator=_g))  # scaffolding: 100 examples, last batch 36 (MNIST's 10000 leaves 16)
# cell 10
from jax import random
LAYER_SIZES = [28*28, 512, 10]
PARAM_SCALE = 0.01

def init_nn_params(sizes, key=random.PRNGKey(0), scale=1e-2):
    def random_layer_params(m, n, key, scale=1e-2):
        w_key, b_key = random.split(key)
        return scale * random.normal(w_key, (n, m)), scale * random.normal(b_key, (n,))
    keys = random.split(key, len(sizes))
    return [random_layer_params(m, n, k, scale) for m, n, k in zip(sizes[:-1], sizes[1:], keys)]
# cell 11
params = init_nn_params(LAYER_SIZES, random.PRNGKey(0), scale=PARAM_SCALE)
# cell 12
import jax.numpy as jnp
from jax.nn import swish

def predict(params, image):
    activations  = image
    for w, b in params[:-1]:
        outputs = jnp.dot(w, activations) + b
        activations = swish(outputs)
        
    final_w, final_b = params[-1]
    logits = jnp.dot(final_w, activations) + final_b
    return logits
# cell 14
from jax import vmap
batched_predict = vmap(predict, in_axes=(None, 0))
# cell 16
from jax.nn import logsumexp

def loss(params, images, targets):
    logits = batched_predict(params, images)
    log_preds = logits - logsumexp(logits)
    return - jnp.mean(targets * log_preds)
# cell 17
from jax import  grad, value_and_grad

INIT_LR = 1.0
DECAY_RATE = 0.95
DECAY_STEPS = 5
# cell 19
from jax.nn import one_hot
from torch.utils.data import DataLoader
import time

train_loader = DataLoader(data_train, batch_size=64, num_workers=0)  # scaffolding: num_workers=16 in the notebook
test_loader = DataLoader(data_test, batch_size=64, num_workers=0)  # scaffolding: num_workers=16 in the notebook

num_epochs = 2  # scaffolding: 100 in the notebook


# cell 20
def accuracy(params, data):
    accs = []
    for images, targets in data:
        images = jnp.array(images.numpy())
        targets = jnp.array(targets.numpy())
        accs.append(batch_accuracy(params, images, targets))
    return jnp.mean(jnp.array(accs))
    
import time
# cell 22
from jax import jit

@jit
def update2(params, x, y, epoch_number):
    loss_value, grads = value_and_grad(loss)(params, x, y)
    lr = INIT_LR * DECAY_RATE ** (epoch_number / DECAY_STEPS)
    return [(w - lr * dw, b - lr * db) for (w, b), (dw, db) in zip (params, grads)], loss_value


@jit
def batch_accuracy(params, images, targets):
    images = jnp.reshape(images, (len(images), NUM_PIXELS))
    predicted_class = jnp.argmax(batched_predict(params, images), axis=1)
    return jnp.mean(predicted_class == targets)
# cell 23
n_calls = 0  # scaffolding
for epoch in range(num_epochs):
    start_time = time.time()
    losses = []
    for x, y in train_loader:
        x = jnp.reshape(jnp.array(x.numpy()), (len(x), NUM_PIXELS))
        y = one_hot(jnp.array(y.numpy()), NUM_LABELS)
        params, loss_value = update2(params, x, y, epoch)
        n_calls += 1  # scaffolding
        losses.append(loss_value)
        
    epoch_time = time.time() - start_time
    
    start_time = time.time()
    train_acc = accuracy(params, train_loader)
    test_acc = accuracy(params, test_loader)
    eval_time = time.time() - start_time
    
    print("Epoch {} in {:0.2f} sec".format(epoch, epoch_time)) 
    print("Eval in {:0.2f} sec".format(eval_time)) 
    print("Training set loss {}".format(jnp.mean(jnp.array(losses)))) 
    print("Training set accuracy {}".format(train_acc)) 
    print("Test set accuracy {}".format(test_acc))
_report({"jit(update2)"}, n_calls)  # scaffolding
