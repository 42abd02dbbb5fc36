# source: https://github.com/lucapqg/Deep-Learning/blob/12b761d62e56b7a8b2a0719258f904fb2643f9fa/jax_mnist.ipynb
# expect: shape-churn at line 147
# runtime: COMPILES 2 CALLS 256
# why: get_train_batches calls jnp.array_split(x, batch_size), which makes 128 parts of unequal size (60000 rows give parts of 469 and 468), so the jitted update sees two batch shapes and compiles twice.
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



# cell 1
# https://teddykoker.com/2022/04/learning-to-learn-jax/
# cell 2
# !pip install optax flax  # scaffolding: IPython shell/magic line
# cell 3
import jax.numpy as jnp
from jax import grad, jit, vmap
from jax.scipy.special import logsumexp
from jax import random
import jax
import optax
import flax
from flax import linen as nn
import time

# import tensorflow_datasets as tfds  # scaffolding: tensorflow/tfds are not installed and MNIST needs a download; stand-in below
# import tensorflow as tf  # scaffolding
import numpy as _np  # scaffolding
from types import SimpleNamespace as _NS  # scaffolding


class tfds:  # scaffolding: tfds.load(batch_size=-1) stand-in: random uint8 images; 576 train rows (128 * 4 + 64, so array_split into 128 parts gives parts of 5 and 4 rows, as 60000 gives 469 and 468), 100 test rows
    @staticmethod
    def load(name, data_dir=None, batch_size=None, with_info=False):  # scaffolding
        rs = _np.random.RandomState(0)  # scaffolding
        split = lambda n: {'image': rs.randint(0, 256, (n, 28, 28, 1)).astype(_np.uint8), 'label': rs.randint(0, 10, n)}  # scaffolding
        info = _NS(features={'label': _NS(num_classes=10), 'image': _NS(shape=(28, 28, 1))})  # scaffolding
        return {'train': split(576), 'test': split(100)}, info  # scaffolding

    @staticmethod
    def as_numpy(x):  # scaffolding
        return x  # scaffolding

# import matplotlib.pyplot as plt  # scaffolding: not installed; stand-in below
class _PltStandIn:  # scaffolding: matplotlib is not installed; every plotting call is a no-op
    def __getattr__(self, name):  # scaffolding
        return self  # scaffolding
    def __call__(self, *args, **kwargs):  # scaffolding
        return self  # scaffolding
    def __getitem__(self, key):  # scaffolding
        return self  # scaffolding
    def __iter__(self):  # scaffolding
        return iter((self, self))  # scaffolding


plt = _PltStandIn()  # scaffolding

# cell 4
data_dir = '/tmp/tfds'

mnist_data, info = tfds.load(name="mnist", data_dir=data_dir, batch_size=-1, with_info=True)
mnist_data = tfds.as_numpy(mnist_data)
train_data, test_data = mnist_data['train'], mnist_data['test']
num_labels = info.features['label'].num_classes

# cell 5
# DATA 
def one_hot(x, k, dtype=jnp.float32):
  """Create a one-hot encoding of x of size k."""
  return jnp.array(x[:, None] == jnp.arange(k), dtype)
# cell 6
# MODEL 

## INICIALIZA UMA CAMADA DENSA
def random_layer_params(m, n, key, scale=1e-2):
  w_key, b_key = random.split(key)
  return scale * random.normal(w_key, (n, m)), scale * random.normal(b_key, (n,))

## INICIALIZA A REDE 
def init_network_params(sizes, key):
  keys = random.split(key, len(sizes))
  return [random_layer_params(m, n, k) for m, n, k in zip(sizes[:-1], sizes[1:], keys)]

## SEPARA OS DADOS DE TREINAMENTO E TESTE EM BATCHES
def get_train_batches(x,y,batch_size):
  return zip(jnp.array_split(x,batch_size),jnp.array_split(y,batch_size))

## FUNÇÃO DE SCORE DE TREINAMENTO 
def accuracy(params, images, targets):
  target_class = jnp.argmax(targets, axis=1)
  predicted_class = jnp.argmax(batched_predict(params, images), axis=1)
  return jnp.mean(predicted_class == target_class)

## FUNÇÃO DE PERDA
def loss(params, images, targets):
  preds = batched_predict(params, images)
  return -jnp.mean(preds * targets)

## FUNÇÃO DE ATUALIZAÇÃO DE PARAMETROS 
@jit
def update(params,step_size, x, y): 
  grads = grad(loss)(params, x, y)
  return [(w - step_size * dw, b - step_size * db)
          for (w, b), (dw, db) in zip(params, grads)]

## FUNÇÃO DE ATIVAÇÃO RELU
def relu(x):
  return jnp.maximum(0, x)

## FUNÇÃO DE SAÍDA DE PREDIÇÃO
def predict(params, image):
  activations = image
  for w, b in params[:-1]:
    outputs = jnp.dot(w, activations) + b 
    activations = relu(outputs)
  
  final_w, final_b = params[-1]
  logits = jnp.dot(final_w, activations) + final_b
  return logits - logsumexp(logits)

## FUNÇÃO DE PREDIÇÃO POR BATCH
batched_predict = vmap(predict, in_axes=(None, 0))

## FUNÇÃO DE TREINAMENTO
def train(num_epochs,train,test,num_labels,batch_size,step_size,params):
  for epoch in range(num_epochs):
    start_time = time.time()
    for x, y in get_train_batches(train[0],train[1],batch_size):
      _calls.append(1)  # scaffolding
      params = update(params,step_size, x, y)

    epoch_time = time.time() - start_time
    
    train_acc = accuracy(params, train[0],train[1])
    test_acc = accuracy(params, test[0],test[1])
    print(f"Epoch {epoch} in {epoch_time:0.2f} sec -> Training set accuracy {train_acc} - Test set accuracy {test_acc}")
  return params
# cell 7
h, w, c = info.features['image'].shape
num_pixels = h * w * c

print(f'Numero de pixels:{num_pixels}')
print(f'h = {h}, w = {w}, c = {c}')
# cell 8
# Full train set
train_images, train_labels = train_data['image'], train_data['label']
train_images = jnp.reshape(train_images, (len(train_images), num_pixels))
train_labels = one_hot(train_labels, num_labels)

# Full test set
test_images, test_labels = test_data['image'], test_data['label']
test_images = jnp.reshape(test_images, (len(test_images), num_pixels))
test_labels = one_hot(test_labels, num_labels)

# cell 9
## PARAMETROS
layer_sizes = [784, 512, 512, 10]
step_size = 0.01
num_epochs = 2  # scaffolding: 10 in the notebook
_calls = []  # scaffolding
batch_size = 128
n_targets = 10
# cell 10
# TREINAMENTO
params = init_network_params(layer_sizes, random.PRNGKey(0))
params = train(num_epochs = num_epochs,
               train =(train_images,train_labels),
               test = (test_images,test_labels),
               num_labels = num_labels,
               batch_size = batch_size,
               step_size = step_size,
               params = params)
# cell 11
## PREDIÇÃO
batched_preds = batched_predict(params, test_images)
# cell 12
## ACURACIA
accuracy(params, test_images, test_labels)
# cell 13
for i in range(10):
  print(f"""Predict:{jnp.argmax(batched_preds[i])} Label true:{jnp.argmax(test_labels[i])}""")
# cell 14
imgplot = plt.imshow(test_images[3].reshape(h, w, c))
plt.show()

print(sorted(set(_COMPILED)), file=__import__("sys").stderr)  # scaffolding
_report({"jit(update)"}, len(_calls))  # scaffolding
