# source: https://github.com/scascin0/mnist_jax/blob/a22cf7d429c618b07d04c9d2076109dfbe4ec8ec/mnist_jax.ipynb
# expect: none
# runtime: COMPILES 2 CALLS 400
# why: update marks the optax optimizer (and, in the haiku half, the hk.Transformed net) as static; both are hashable NamedTuples of functions that stay the same object, so each update compiles once for its whole training loop.
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
import jax
import jax.numpy as jnp
import optax
import numpy as np
# import matplotlib.pyplot as plt  # scaffolding: matplotlib not installed


class plt:  # scaffolding: no-op stand-in
    imshow = plot = show = staticmethod(lambda *a, **k: None)  # scaffolding
from tqdm import tqdm
from functools import partial
# cell 2
def parse_mnist(path):
    with open(path, 'rb') as f:
        contents = f.read()
    assert contents[0] == contents[1] == 0 # magic number
    assert contents[2] == 0x08 # unsigned byte
    dims = contents[3]
    shape = [int.from_bytes(contents[d:d+4], 'big')
             for d in range(4, dims*4+1, 4)]
    return jnp.frombuffer(bytearray(contents), offset=4*dims+4,
                         dtype=np.ubyte).reshape(shape).astype(jnp.float32)
# cell 3
import os, tempfile  # scaffolding: write small random MNIST idx files (6000 images) to a temporary data/ folder
_tmp = tempfile.mkdtemp()  # scaffolding
import atexit, shutil  # scaffolding
atexit.register(shutil.rmtree, _tmp, True)  # scaffolding: remove the stand-in data at exit
os.makedirs(os.path.join(_tmp, 'data'))  # scaffolding
_rs = np.random.RandomState(0)  # scaffolding
with open(os.path.join(_tmp, 'data', 'train-images-idx3-ubyte'), 'wb') as _f:  # scaffolding
    _f.write(bytes([0, 0, 8, 3]) + (6000).to_bytes(4, 'big') + (28).to_bytes(4, 'big') * 2 + _rs.randint(0, 256, 6000 * 784, dtype=np.uint8).tobytes())  # scaffolding
with open(os.path.join(_tmp, 'data', 'train-labels-idx1-ubyte'), 'wb') as _f:  # scaffolding
    _f.write(bytes([0, 0, 8, 1]) + (6000).to_bytes(4, 'big') + _rs.randint(0, 10, 6000, dtype=np.uint8).tobytes())  # scaffolding
os.chdir(_tmp)  # scaffolding
images = parse_mnist('data/train-images-idx3-ubyte').reshape(-1, 784) / 255.0
# cell 4
plt.imshow(images[0].reshape(28, 28))
plt.show()
# cell 5
labels = jax.nn.one_hot(parse_mnist('data/train-labels-idx1-ubyte'), 10)
# cell 6
labels[0]
# cell 7
initializer = jax.nn.initializers.glorot_uniform()
keys = jax.random.split(jax.random.PRNGKey(0), 3)
params = [
    {'w': initializer(keys[0], (784,512), jnp.float32), 'b': jnp.ones((512,), jnp.float32)},
    {'w': initializer(keys[1], (512,256), jnp.float32), 'b': jnp.ones((256,), jnp.float32)},
    {'w': initializer(keys[2], (256,10), jnp.float32), 'b': jnp.ones((10,), jnp.float32)}
]
# cell 8
@jax.jit
def forward(params, x):
    *hidden_layers, last = params
    for hidden_layer in hidden_layers:
        x = jax.nn.relu(x @ hidden_layer['w'] + hidden_layer['b'])
    return x @ last['w'] + last['b']

batch_forward = jax.jit(jax.vmap(forward, in_axes=(None,0)))

@partial(jax.jit, static_argnames=['c'])
def loss_fn(params, xs, ys, c=1e-4):
    preds = batch_forward(params, xs)
    l2_reg = optax.l2_loss(preds).sum().sum()
    cross_entropy = optax.softmax_cross_entropy(preds, ys).mean() 
    return cross_entropy + c*l2_reg
# cell 9
@partial(jax.jit, static_argnames=['optimizer'])
def update(params, xs, ys, optimizer, opt_state):
    loss, grad = jax.value_and_grad(loss_fn)(params, xs, ys)
    updates, opt_state = optimizer.update(grad, opt_state)
    params = optax.apply_updates(params, updates)
    return params, opt_state, loss
# cell 10
ITERATIONS = 200  # scaffolding: 1000 -> 200
BATCH_SIZE = 64
losses = []

batch_indices = np.random.choice(range(len(images)), (ITERATIONS, BATCH_SIZE))

optimizer = optax.adam(0.001)
opt_state = optimizer.init(params)

for i in tqdm(range(ITERATIONS)):
    params, opt_state, loss = update(params,
                               images[batch_indices[i]],
                               labels[batch_indices[i]],
                               optimizer, opt_state)
    losses.append(loss.tolist())
# cell 11
plt.plot(losses)
plt.show()
# cell 12
batch_indices = np.random.choice(range(len(images)), 10000)
accuracy = (jnp.argmax(batch_forward(params, images[batch_indices]), axis=-1) == jnp.argmax(labels[batch_indices], axis=-1)).mean()
accuracy.tolist()
# cell 13
import haiku as hk
# cell 14
images = images.reshape(-1, 28, 28, 1)
# cell 15
def net_fn(x):
    net = hk.Sequential([
        hk.Conv2D(32, 4, 2), jax.nn.relu,
        hk.Flatten(),
        hk.Linear(256), jax.nn.relu,
        hk.Linear(10)
    ])
    return net(x)
# cell 16
net = hk.without_apply_rng(hk.transform(net_fn))
params = net.init(jax.random.PRNGKey(0), images[0:2])
# cell 17
@partial(jax.jit, static_argnames=['net'])
def forward(params, net, xs):
    return net.apply(params, xs)

@partial(jax.jit, static_argnames=['net', 'c'])
def loss_fn(params, net, xs, ys, c=1e-4):
    preds = forward(params, net, xs)
    l2_reg = optax.l2_loss(preds).sum().sum()
    cross_entropy = optax.softmax_cross_entropy(preds, ys).mean() 
    return cross_entropy + c*l2_reg

@partial(jax.jit, static_argnames=['net', 'optimizer'])
def update(params, net, xs, ys, optimizer, opt_state):
    loss, grad = jax.value_and_grad(loss_fn)(params, net, xs, ys)
    updates, opt_state = optimizer.update(grad, opt_state)
    params = optax.apply_updates(params, updates)
    return params, opt_state, loss
# cell 18
ITERATIONS = 200  # scaffolding: 1000 -> 200
BATCH_SIZE = 64
losses = []

batch_indices = np.random.choice(range(len(images)), (ITERATIONS, BATCH_SIZE))

optimizer = optax.adam(0.001)
opt_state = optimizer.init(params)

for i in tqdm(range(ITERATIONS)):
    params, opt_state, loss = update(params, net,
                               images[batch_indices[i]],
                               labels[batch_indices[i]],
                               optimizer, opt_state)
    losses.append(loss.tolist())
# cell 19
plt.plot(losses)
plt.show()
# cell 20
batch_indices = np.random.choice(range(len(images)), 10000)
accuracy = (jnp.argmax(forward(params, net, images[batch_indices]), axis=-1) == jnp.argmax(labels[batch_indices], axis=-1)).mean()
accuracy.tolist()
print(accuracy.tolist())  # scaffolding
_report({"jit(update)"}, 2 * ITERATIONS)  # scaffolding: the two training loops (MLP, haiku CNN)
