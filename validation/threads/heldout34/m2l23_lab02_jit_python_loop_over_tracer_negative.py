# source: https://github.com/M2Lschool/tutorials2023/blob/96f4eb5a259b4ab58e067a5ea05c38bce7b47e41/0_intro_material/Lab_02_Intro_JAX.ipynb
# expect: none
# runtime: COMPILES 3 CALLS 9
# why: manual_batched is jitted and iterates a Python list comprehension over the traced argument, which looks like it should fail or recompile, but iterating a tracer with a static leading dimension unrolls at trace time and compiles once.

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
# --- cell 2 ---
import jax.numpy as jnp
from jax import random

# Generating a single key will result in duplicate pseudo-random numbers
key = random.PRNGKey(0)

# --- cell 7 ---
from jax import jit

# Function and input definition
def selu(x, alpha=1.67, lmbda=1.05):
    return lmbda * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)

x = random.normal(key, (1000000,))

# Execute the function without jit
for _ in range(3):  # scaffolding: stands in for %timeit
    selu(x).block_until_ready()

# Execute the function with jit
selu_jit = jit(selu)
for _ in range(3):  # scaffolding: stands in for %timeit
    selu_jit(x).block_until_ready()

# --- cell 11 ---
from jax import grad, jit

# Function definition
def simple_fun(x):
    return jnp.sin(x) / x

# Get the gradient of simple_fun with respect to its input x
grad_simple_fun = grad(simple_fun)

# --- cell 13 (plotting dropped) ---
x_range = jnp.arange(-8, 8, .1)

# --- cell 15 (plots dropped) ---
from jax import vmap

# --- cell 16 ---
# Let's time them!

# naive batching
def naively_batched(x):
    return jnp.stack([grad_simple_fun(xi) for xi in x])

# manual batching with jit
@jit
def manual_batched(x):
    return jnp.stack([grad_simple_fun(xi) for xi in x])

# Batching using vmap and jit
@jit
def vmap_batched(x):
    return vmap(grad_simple_fun)(x)

print('Naively batched')
naively_batched(x_range).block_until_ready()  # (%timeit dropped: eager, one call)
print('jit batched')
for _ in range(3):  # scaffolding: stands in for %timeit
    manual_batched(x_range).block_until_ready()
print('With jit vmap')
for _ in range(3):  # scaffolding: stands in for %timeit
    vmap_batched(x_range).block_until_ready()
_report({"jit(selu)", "jit(manual_batched)", "jit(vmap_batched)"}, 9)  # scaffolding
