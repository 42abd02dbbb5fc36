# source: https://github.com/sandeshkatakam/jax-playground/blob/main/jax_learn_basics.ipynb
# expect: none
# runtime: COMPILES 2 CALLS 1002
# why: fast_func is jitted once outside the timing loop and reused 1000 times; jit(grad(loss_func)) of an already-jitted loss_func compiles once more for the gradient.
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
import jax  # scaffolding: from the notebook's setup cell
import jax.numpy as jnp  # scaffolding
from jax import grad, jit, vmap, pmap  # scaffolding

# 4.1 Basic JIT Example
import time

def slow_func(x):
    """Function without JIT"""
    total = 0.0
    for i in range(1000):
        total = total + jnp.sin(x[i % len(x)])
    return total

def fast_func(x):
    """Function with JIT"""
    return jnp.sum(jnp.sin(x))  

# Compile JIT version
fast_func_jit = jit(fast_func)

x = jnp.ones(100)

# Warm up (compilation happens here)
_ = fast_func_jit(x)

# Time comparison
n_iter = 1000
start = time.time()
for _ in range(n_iter):
    _ = fast_func(x)
time_normal = time.time() - start

start = time.time()
for _ in range(n_iter):
    _ = fast_func_jit(x)
time_jit = time.time() - start

print(f"Time without JIT: {time_normal:.4f}s")
print(f"Time with JIT: {time_jit:.4f}s")
print(f"Speedup: {time_normal / time_jit:.2f}x")

# 4.2 JIT with Grad
@jit
def loss_func(x):
    return jnp.sum((x - 3.0)**2)

grad_jit = jit(grad(loss_func))
x = jnp.array([1.0, 2.0, 3.0])
gradient = grad_jit(x)
print(f"\nJIT compiled gradient: {gradient}")
_report({"jit(fast_func)", "jit(loss_func)"}, 1 + 1000 + 1)  # scaffolding
