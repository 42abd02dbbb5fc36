# source: https://github.com/deepmodeling/jax-fem/commit/ee8a03250ee651bec2a9cecbfeb4092500a51d9b
# expect: none
# runtime: COMPILES 2 CALLS 1
# why: s jits a closure over its argument but is called once under jax.grad; the two compiles are the forward and backward halves of that single call, not a retrace.

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


# jax_fem/experimental/when_to_jit.py (before the commit; g and h are defined but only the commented-out loop calls them)
import numpy as np
import jax.numpy as jnp
import jax
import time


@jax.jit
def g(x):
    def f():  # function we're benchmarking (works in both NumPy & JAX)
        return x.T @ (x - x.mean(axis=0))
    return f()

x = jnp.ones((1000, 1000), dtype=jnp.float32)  # same as JAX default dtype


@jax.jit
def h(x):  
    return x.T @ (x - x.mean(axis=0))
    



def s(x):
    def f():  # function we're benchmarking (works in both NumPy & JAX)
        return np.sum(x**2)
    return jax.jit(f)()
 
# for i in range(10):
#     start = time.time()
#     a = g(x).block_until_ready()
#     # a = h(x).block_until_ready()
#     print(time.time() - start)


print(jax.grad(s)(1.))
_report({"jit(f)"}, 1)  # scaffolding
