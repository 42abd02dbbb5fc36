# source: https://github.com/bobflagg/30-days-of-jax-on-tpu/blob/8b1c906eb3a1db6f539fe5347505f9d6799b695a/d2l/03-Linear-Networks/softmax-regression-scratch.ipynb
# expect: shape-churn at line 44
# runtime: COMPILES 2 CALLS 6
# why: the hand-written DataLoader yields a final smaller batch, so the jitted sgd step compiles a second time for the remainder shape.
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
import jax  # scaffolding
from jax import numpy as jnp, random
import numpy as np
import optax
from tqdm import tqdm  # scaffolding (notebook used tqdm.notebook)

class DataLoader:
    def __init__(self, X, Y, batch_size):
        self.X = X
        self.Y = Y
        self.batch_size = batch_size
        self.batch = -1
        self.batches = jnp.arange((X.shape[0] // batch_size) + 1)
        self.len = len(self.batches)
    def __iter__(self): return self
    def __next__(self):
        self.batch += 1
        if self.batch < self.len:
            start = int(self.batch * self.batch_size)
            if self.batch == self.batches[-1]: end = None
            else: end = int((self.batch + 1) * self.batch_size)
            return self.X[start:end], self.Y[start:end]        
        raise StopIteration

_rng = np.random.default_rng(0)  # scaffolding: stand-in for Fashion-MNIST
X_train = jnp.array(_rng.random((600, 28, 28, 1), dtype=np.float32))  # scaffolding
X_test = jnp.array(_rng.random((100, 28, 28, 1), dtype=np.float32))  # scaffolding
Y_train = _rng.integers(0, 10, 600)  # scaffolding
Y_test = _rng.integers(0, 10, 100)  # scaffolding
classes =  np.unique(Y_train)

def net(x, W, b): 
    x = x.reshape((-1, 784))
    x = jnp.dot(x, W) + b
    return x
    #return linen.softmax(x)
    
def cross_entropy_loss(W, b, x_batched, y_batched):
    def pointwise(x, y):
        logits = net(x, W, b)
        one_hot_y = jax.nn.one_hot(y, num_classes=len(classes))
        return optax.softmax_cross_entropy(logits, one_hot_y)
    return jnp.mean(jax.vmap(pointwise)(x_batched, y_batched), axis=0)[0]

@jax.jit
def sgd(W, b, x, y, learning_rate):
    W, b = W - learning_rate * jax.grad(cross_entropy_loss, 0)(W, b, x, y), b - learning_rate * jax.grad(cross_entropy_loss, 1)(W, b, x, y)
    return W, b

def train_epoch(dl, W, b, learning_rate):
    with tqdm(total=dl.len) as pbar:  
        for X_batch, Y_batch in dl:  
            pbar.update()
            W, b = sgd(W, b, X_batch, Y_batch, learning_rate)
    return W, b

def train(W, b, X_train, X_test, Y_train, Y_test, num_epochs, batch_size, learning_rate):
    for epoch in range(num_epochs):
        dl = DataLoader(X_train, Y_train, batch_size)
        W, b = train_epoch(dl, W, b, learning_rate)
        loss = cross_entropy_loss(W, b, X_test, Y_test)
        print(f'epoch {epoch + 1}, loss {loss:f}')
    return W, b

num_inputs = 784
num_outputs = 10

batch_size = 256
learning_rate = 0.01
num_epochs = 2  # scaffolding (was 10)


key = random.PRNGKey(0)
k1, k2 = random.split(key)
key = k1
W = 0.01 * random.normal(k2, (num_inputs, num_outputs))
b = jnp.zeros((num_outputs,))
W, b = train(W, b, X_train, X_test, Y_train, Y_test, num_epochs, batch_size, learning_rate)
_report({"jit(sgd)"}, 6)  # scaffolding
