# source: https://github.com/hyungkwonko/jax-tutorial/blob/dffae7058a9d8540025ecd03afa0b411d920ac4a/e2_jit.py
# expect: none
# runtime: COMPILES 0 CALLS 111
# why: selu_jit only wraps the global selu_jax in jit on every timeit call and never calls the wrapper, so nothing is traced or compiled (0 compiles), although jit is created inside a repeatedly called function.
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

import numpy as np
import jax.numpy as jnp
from jax import jit, random
from timeit import timeit


N = [1, 10, 100]
SIZE = 1000  # scaffolding: 1000000 in the repository

def selu_npy(size=SIZE, alpha=1.67, lmbda=1.05, key = random.PRNGKey(0)):
    x = random.normal(key, (size,))
    out = lmbda * np.where(x > 0, x, alpha * np.exp(x) - alpha)
    return out

def selu_jax(size=SIZE, alpha=1.67, lmbda=1.05, key = random.PRNGKey(0)):
    x = random.normal(key, (size,))
    out = lmbda * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)
    return out.block_until_ready()

def selu_jit(func=selu_jax):
    return jit(func)

if __name__ == '__main__':
    for n in N:
        print(f"time taken for {n} times: {timeit(selu_npy, number=n)} sec...")
        print(f"time taken for {n} times: {timeit(selu_jax, number=n)} sec...")
        print(f"time taken for {n} times: {timeit(selu_jit, number=n)} sec...")
    _report({"jit(selu_jax)"}, 111)  # scaffolding: timeit called selu_jit 1 + 10 + 100 times
