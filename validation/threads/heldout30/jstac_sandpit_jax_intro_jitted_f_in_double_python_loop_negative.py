# source: https://github.com/jstac/sandpit/blob/f9d7e774e9bf255d91832ec6b2a17a90dc4df2b4/jax_intro.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 6400
# why: cell 63 calls the jitted f(x, y) 6400 times from a double Python loop, one pair of 0-d array elements at a time; slow per call, but every call has the same scalar signature, so f compiles once (the notebook then shows vmap and meshgrid versions).
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
# !nvidia-smi  # scaffolding: IPython shell/magic line
# cell 2
import jax
import jax.numpy as jnp
# cell 3
a = jnp.asarray((1.0, 3.2, -1.5))
# cell 4
print(a)
# cell 5
print(jnp.sum(a))
# cell 6
print(jnp.mean(a))
# cell 7
print(jnp.dot(a, a))
# cell 8
a
# cell 9
type(a)
# cell 10
jnp.sum(a)
# cell 11
A = jnp.ones((2, 2))
B = jnp.identity(2)
A @ B
# cell 12
from jax.numpy import linalg
# cell 13
linalg.inv(B)   # Inverse of identity is identity
# cell 14
linalg.eigh(B)  # Computes eigenvalues and eigenvectors
# cell 15
jax.config.update("jax_enable_x64", True)
# cell 16
jnp.ones(3)
# cell 17
import numpy as np
a = np.linspace(0, 1, 3)
a
# cell 18
a[0] = 1
a
# cell 19
a = jnp.linspace(0, 1, 3)
a
# cell 20  # scaffolding: cell cut (see the note)
# cell 21
a = np.array((2, 1))
a.sort()
a
# cell 22
a = jnp.array((2, 1))
a_new = a.sort()
a, a_new
# cell 23
a = jnp.linspace(0, 1, 3)
id(a)
# cell 24
a
# cell 25
a.at[0].set(1)
# cell 26
id(a)
# cell 27
import jax.random as random
# cell 28
key = random.PRNGKey(1)
# cell 29
type(key)
# cell 30
print(key)
# cell 31
x = random.normal(key, (3, 3))
x
# cell 32
random.normal(key, (3, 3))
# cell 33
key, subkey = random.split(key)
# cell 34
random.normal(key, (3, 3))
# cell 35
random.normal(subkey, (3, 3))
# cell 36
def gen_random_matrices(key, n, k):
    matrices = []
    for _ in range(k):
        key, subkey = random.split(key)
        matrices.append(random.uniform(subkey, (n, n)))
    return matrices
# cell 37
matrices = gen_random_matrices(key, 2, 2)
for A in matrices:
    print(A)
# cell 38
random.normal(key, (5, ))
# cell 39
def f(x):
    a = 3*x + jnp.sin(x) + jnp.cos(x**2) - jnp.cos(2*x) - x**2 * 0.4 * x**1.5
    return jnp.sum(a)
# cell 40
n = 500_000  # scaffolding: 50_000_000 in the notebook
x = jnp.ones(n)
# cell 41
f(x).block_until_ready()  # scaffolding: IPython %time magic removed
# cell 42
f(x).block_until_ready()  # scaffolding: IPython %time magic removed
# cell 43
m = 500_001  # scaffolding: 50_000_001 in the notebook
y = jnp.ones(m)
# cell 44
f(y).block_until_ready()  # scaffolding: IPython %time magic removed
# cell 45
f(y).block_until_ready()  # scaffolding: IPython %time magic removed
# cell 46
f(x).block_until_ready()  # scaffolding: IPython %time magic removed
# cell 47
f_jit = jax.jit(f)   # target for JIT compilation
# cell 48
f_jit(x)
# cell 49
f_jit(x).block_until_ready()  # scaffolding: IPython %time magic removed
# cell 50
@jax.jit
def f(x):
    a = 3*x + jnp.sin(x) + jnp.cos(x**2) - jnp.cos(2*x) - x**2 * 0.4 * x**1.5
    return jnp.sum(a)
# cell 51  # scaffolding: cell cut (see the note)
# cell 52  # scaffolding: cell cut (see the note)
# cell 53  # scaffolding: cell cut (see the note)
# cell 54  # scaffolding: cell cut (see the note)
# cell 55  # scaffolding: cell cut (see the note)
# cell 56  # scaffolding: cell cut (see the note)
# cell 57  # scaffolding: cell cut (see the note)
# cell 58
def f(x):
    return (x**2) / 2
# cell 59
f_prime = jax.grad(f)
# cell 60
f_prime(10.0)
# cell 61
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

fig, ax = plt.subplots()
x_grid = jnp.linspace(-4, 4, 200)
ax.plot(x_grid, f(x_grid), label="$f$")
ax.plot(x_grid, [f_prime(x) for x in x_grid], label="$f'$")
ax.legend(loc='upper center')
plt.show()
# cell 62
del _COMPILED[:]  # scaffolding: from here on count only the compiles of the cell-62 f (earlier cells also define functions named f)
@jax.jit
def f(x, y):
    return jnp.cos(x**2 + y**2) / (1 + x**2 + y**2)

n = 80
x = jnp.linspace(-2, 2, n)
y = x

z_loops = np.empty((n, n))
# cell 63
# %%time  # scaffolding: IPython shell/magic line
for i in range(n):
    for j in range(n):
        z_loops[i, j] = f(x[i], y[j])

_report({"jit(f)"}, n * n)  # scaffolding: the double loop calls f n * n times
