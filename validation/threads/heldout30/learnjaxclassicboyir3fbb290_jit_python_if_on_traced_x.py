# source: https://github.com/classicboyir/learn-jax/blob/3fbb2906507dc800f34b08f6e4b117d98337e43a/basics.ipynb
# expect: trace-time-error at line 160
# runtime: ERROR TracerBoolConversionError
# why: b is decorated with @jit and branches with a Python `if x > 0` on its traced argument, so b(2.3) raises TracerBoolConversionError (the notebook's saved output shows the ConcretizationTypeError of its jax version); the same function under grad alone (f, cell 16-18) works.
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

class _Plt:  # scaffolding: matplotlib is not installed; plotting calls are no-ops
    def __getattr__(self, name):  # scaffolding
        return _Plt()  # scaffolding

    def __call__(self, *a, **k):  # scaffolding
        return _Plt()  # scaffolding


_err = None  # scaffolding

# cell 1
import jax
# cell 2
jax.devices()
# cell 3
# index of the device
jax.process_index()
# cell 4
import jax.numpy as jnp
from jax import random
import jax
# cell 5
x = jax.random.normal(random.PRNGKey(0), (500, 500))  # scaffolding: (5_000, 5_000) in the notebook

print(x.shape)
print(x.dtype)
# cell 6
size = 300  # scaffolding: 3000 in the notebook
x = random.normal(random.PRNGKey(0), (size, size), dtype=jnp.float32)
jnp.dot(x, x.T).block_until_ready()  # scaffolding: %timeit dropped, one call kept

# cell 7
import numpy as np
x = np.random.normal(size=(size, size)).astype(np.float32)
jnp.dot(x, x.T).block_until_ready()  # scaffolding: %timeit dropped, one call kept

# cell 8
from jax import device_put

x = np.random.normal(size=(size, size)).astype(np.float32)
x = device_put(x)
jnp.dot(x, x.T).block_until_ready()  # scaffolding: %timeit dropped, one call kept

# cell 9
# x.device()  # scaffolding: Array.device is a property now; calling it raises
# cell 10
y = jnp.dot(x, jnp.cos(x))
z = y[[0, 2, 1, 0], ..., None, ::-1]

print(z)
# cell 11
# import matplotlib.pyplot as plt  # scaffolding: stand-in above
plt = _Plt()  # scaffolding

plt.plot(x[0])
# cell 12
jnp.dot(x, x).block_until_ready()  # scaffolding: %timeit dropped, one call kept
# cell 13
import numpy as np
x_cpu = np.array(x)
# cell 14
np.dot(x, x)  # scaffolding: %timeit dropped, one call kept
# cell 15
from jax import grad
# cell 16
def f(x, y):
    if x > 0:
        return 2 * x ** 3
    else:
        return 3 * x
# cell 17
2 * 3 * 2 ** 2
# cell 18
x = 2.0
y=2

print(grad(f)(x, y))
print(grad(f)(-x, y))
# cell 19
def predict(params, inputs):
    for W, b in params:
        outputs = jnp.dot(inputs, W) + b
        inputs = jnp.maximum(outputs, 0)
    return outputs

def loss(params, batch):
    print("compiled")
    inputs, targets = batch
    predictions = predict(params, inputs)
    return jnp.sum((predictions - targets) ** 2)

# cell 20
def init_layer(key, n_in, n_out):
    k1, k2 = random.split(key)
    W = random.normal(k1, (n_in, n_out)) / jnp.sqrt(n_in)
    b = random.normal(k2, (n_out, ))
    return W, b

def init_model(key, layer_sizes, batch_sizes):
    key, *keys = random.split(key, len(layer_sizes))
    params = list(map(init_layer, keys, layer_sizes[:-1], layer_sizes[1:]))

    key, *keys = random.split(key, 3)
    inputs = random.normal(keys[0], (batch_sizes, layer_sizes[0]))
    targets = random.normal(keys[0], (batch_sizes, layer_sizes[-1]))

    return params, (inputs, targets)

layer_sizes = [768, 256, 256, 10]  # scaffolding: [768, 2048, 2048, 10] in the notebook
batch_sizes = 128

params, batch = init_model(random.PRNGKey(0), layer_sizes, batch_sizes)

# cell 21
print(loss(params, batch))
# cell 22
step_size = 1e-5

for _ in range(30):
    grads = grad(loss)(params, batch)
    params = [[W - step_size * dW, b - step_size * db] for (W, b), (dW, db) in zip(params, grads)]
# cell 23
print(loss(params, batch))
# cell 24
from jax import jit

loss_jit = jit(loss)
# cell 25
loss(params, batch).block_until_ready()  # scaffolding: %timeit dropped, one call kept
# cell 26
loss_jit(params, batch).block_until_ready()  # scaffolding: %timeit dropped, one call kept
# cell 27
@jit
def b(x):
    if x > 0:
        return 2 * x ** 3
    else:
        return 3 * x
# cell 28
try:  # scaffolding
    b(2.3)
except Exception as e:  # scaffolding: the notebook shows the traceback and goes on
    _err = e  # scaffolding
# cell 29
@jit
def test_c(x):
    print('compilation!')
    return x + 1
# cell 30
test_c(1)
# cell 31
test_c(1)
# cell 32
test_c(jnp.ones(2,))
# cell 33
test_c(jnp.ones(2,))
# cells 34-50 (vmap, make_jaxpr, pmap/pjit sharding demos) cut  # scaffolding
print(f"ERROR {type(_err).__name__}") if _err is not None else _report({"jit(b)"}, 1)  # scaffolding
