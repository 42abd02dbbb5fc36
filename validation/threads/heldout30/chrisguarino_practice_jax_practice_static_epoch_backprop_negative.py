# source: https://github.com/ChrisGuarino/practice/blob/56a5d76953550d3bdfd9700edc2433b5226e4b87/jax_practice.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: jit(backprop, static_argnums=2) marks the Python int epoch static; it is hashable and the same on every call, so the unrolled training loop compiles once and the repeated timing calls reuse it (the prints inside only show tracers at trace time).
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
from jax import grad, jit, vmap
from jax import random

print("JAX version:", jax.__version__)
print("Devices:", jax.devices())
# cell 2
# Creating arrays (just like numpy)
a = jnp.array([1.0, 2.0, 3.0])
b = jnp.zeros((3, 3))
c = jnp.linspace(50, 100, 11)

print("a:", a)
print("b:\n", b)
print("c:", c)
# cell 3
# Immutable updates — use .at[].set()
x = jnp.zeros(5)
x_updated = x.at[2].set(99.0)

print("original:", x)
print("updated: ", x_updated)
# cell 4
x = jnp.eye(4)
x_updated = x.at[0,0].set(7.0)
print(x)
print(x_updated)
# cell 5
key = random.PRNGKey(42)

# Split the key to get independent sub-keys
key, subkey1, subkey2 = random.split(key, 3)

x = random.normal(subkey1, shape=(3,))
y = random.uniform(subkey2, shape=(3,))

print("normal samples:", x)
print("uniform samples:", y)
# cell 6
key = random.PRNGKey(1)
key,subkey = random.split(key,2)

x = random.randint(subkey,(2,3),0,10)
print(x)

key,subkey = random.split(key,2)
x = random.randint(subkey,(2,3),0,10)
print(x)

key,subkey = random.split(key,2)
x = random.randint(subkey,(2,3),0,10)
print(x)
# cell 7
def f(x): 
    return x ** 2

df = grad(f)
print(df(3.0))

# cell 8
def f(x):
    return x ** 3 + 2 * x ** 2 - 5 * x + 1

df = grad(f)        # first derivative
ddf = grad(grad(f))  # second derivative

x = 2.0
print(f"f({x})   = {f(x)}")
print(f"f'({x})  = {df(x)}")    # 3x^2 + 4x - 5 => 15
print(f"f''({x}) = {ddf(x)}")   # 6x + 4 => 16
# cell 9
def g(x):
    return jnp.sin(x) * jnp.exp(-x)

x=1.0
print("Output: ", g(x))

dv = grad(g)
print("Derivative: ", dv(x))

# cell 10
def slow_fn(x):
    for _ in range(50):
        x = x @ x
    return x

fast_fn = jit(slow_fn)

mat = random.normal(random.PRNGKey(0), (100, 100))

slow_fn(mat).block_until_ready()  # scaffolding: IPython %timeit magic removed
fast_fn(mat).block_until_ready()  # scaffolding: IPython %timeit magic removed
# cell 11
def l2_norm(x):
    return jnp.sqrt(jnp.sum(x ** 2))

batch_l2 = vmap(l2_norm)

batch = random.normal(random.PRNGKey(1), (5, 3))
print("batch shape:", batch.shape)
print("norms:", batch_l2(batch))
# cell 12  # scaffolding: cell cut (see the note)
# cell 13  # scaffolding: cell cut (see the note)
# cell 14
key = random.PRNGKey(42)

# Split the key to get independent sub-keys
key, subkey = random.split(key, 2)
X = random.normal(subkey,shape=(20,3))

key, subkey = random.split(key, 2)
w_true = random.normal(subkey,shape=(3,))
y = X @ w_true 

print(f'X:\n{X}\nw_true:\n{w_true}\ny:\n{y}')

def loss(w):
    return jnp.mean((X @ w - y) ** 2)

grad_loss = grad(loss)

w = jnp.zeros(3)
lr = 0.01
epoch = 50  # scaffolding: 2000 in the notebook (the loop is unrolled at trace time; 2000 unrolled grad steps take minutes to compile, and the notebook run was interrupted)

def backprop(w,lr,epoch):
    for i in range(epoch):
        w = w - lr * grad_loss(w)
        if i % 5 == 0:
            print(f"step {i:2d}: w = {w}, loss = {loss(w)}")
    return w

fast_backprop = jit(backprop,static_argnums=2)
backprop(w,lr,epoch).block_until_ready()  # scaffolding: %timeit magic removed (one run)
_calls = 0  # scaffolding
for _ in range(3):  # scaffolding: %timeit runs the statement repeatedly
    _calls += 1  # scaffolding
    fast_backprop(w,lr,epoch).block_until_ready()  # scaffolding: the notebook's %timeit line, magic removed

print(sorted(set(_COMPILED)), file=__import__("sys").stderr)  # scaffolding
_report({"jit(backprop)"}, _calls)  # scaffolding
