# source: https://github.com/hghcomphys/pantea/blob/24c0da1ce7a80f44b60a50a560758e8a08c5a5ec/examples/experiments/jax-jit-and-grad.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the jitted kernel takes a dict of Python numbers as an ordinary (traced) argument, with the static_argnums variant commented out; a dict is a pytree, and d1 and d2 have the same keys and value types, so kernel compiles once for both calls.
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
# cell 2
def f(x, y):
    return (x + 2 *y).sum()

def f2(ps, x, y):
    z, l = ps
    return (x + 2*y + 3*z + 4*l).sum()

def f3_1(arr, a=1):
    return a * arr


def f3_2(arr, a=2):
    return a * arr

def f3(arr):
    x = f3_1(arr)
    y = f3_2(arr)
    return (x + y).sum()

x = jnp.array([1., 2, 3])
y = jnp.array([4., 5, 6])

df = jax.grad(f)
dfdy = jax.grad(f, argnums=1)
df = jax.grad(f, argnums=(0, 1))
# cell 3
jax.grad(f3)(x)
# cell 4
from typing import Dict
from functools import partial
# cell 5
@jax.jit
# @partial(jax.jit, static_argnums=(0,))
def kernel(input_dict: Dict[str, int]):
    return sum(v for v in input_dict.values())
# cell 6
d1 = {'a': 1, 'b': 2.}
d2 = {'a': 1, 'b': 1.}
# cell 7
kernel(d1)  # scaffolding: IPython %timeit magic removed
# cell 8
kernel(d2)  # scaffolding: IPython %timeit magic removed
# cell 9

# cell 10
x = jnp.array(range(9)).reshape(3, 3)
x
# cell 11
jnp.sqrt(jnp.mean(x**2, axis=1))
# cell 12

# cell 13
x1 = jnp.atleast_2d(jnp.array([1, 2, 3., 4, 5, 6, 7, 8, 9]).reshape(3, 3))
x2 = jnp.atleast_2d(jnp.array([1., 2., 3.]))
dx = x2 - x1
x1, x2
dx
# cell 14
jnp.allclose(dx, jnp.zeros_like(dx))
# cell 15
def func2(x1, x2):
    dx = x1 - x2
    is_zero =  dx.sum(axis=1) == 0.0
    dx = jnp.where(is_zero, jnp.ones_like(dx), dx) 
    dist = jnp.linalg.norm(dx, ord=2, axis=1)
    dist = jnp.where(is_zero, 0., dist)  
    return dist.sum()

func2(x1, x2)
# cell 16
jax.grad(func2, argnums=1)(x1, x2)
# cell 17
is_zero =  dx.sum(axis=1, keepdims=True) == 0.0
is_zero
# cell 18
dx_ = jnp.where(is_zero, jnp.ones_like(dx), dx) 
dx_
# cell 19
dist = jnp.linalg.norm(dx_, ord=2, axis=1)
dist = jnp.where(jnp.squeeze(is_zero), 0., dist)  
dist
# cell 20

_report({"jit(kernel)"}, 2)  # scaffolding: kernel(d1) and kernel(d2), the two %timeit lines run once each
