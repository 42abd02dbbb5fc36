# source: https://github.com/jax-ml/jax/issues/22513
# expect: none
# runtime: COMPILES 2 CALLS 8
# why: custom_jvp wrapped around an already-jitted fun is slower per call (the reporter's timeit), but fun and fun2 each compile once for repeated calls: dispatch overhead, not recompilation.
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


import jax
import jax.numpy as jnp
from jax.lax import fori_loop

@jax.custom_jvp
@jax.jit
def fun(x, n, dx):
    """The dx th derivative of the function x^n."""
    out = x**(n-dx)
    coef = fori_loop(0, dx, lambda i, x: x*(n-i), 1)
    return coef*out

@fun.defjvp
def _fun_jvp(a, adot):
    """Custom derivative rule for the function.
    
    This is just the same function called with dx+1.
    """
    (x, n, dx) = a
    (xdot, ndot, dxdot) = adot
    f = fun(x, n, dx)
    df = fun(x, n, dx+1)
    return f, df

@jax.jit
def fun2(x, n, dx):
    """Same function without custom_jvp decorator."""
    out = x**(n-dx)
    coef = fori_loop(0, dx, lambda i, x: x*(n-i), 1)
    return coef*out

x = jnp.arange(1000)
n = 10
dx = 0

assert fun(x, n, dx).all() == fun2(x, n, dx).all()

# %timeit fun(x, n, dx).block_until_ready()
# %timeit fun2(x, n, dx).block_until_ready()
for _ in range(3):  # scaffolding: a few timed calls in place of the two %timeit cells
    fun(x, n, dx).block_until_ready()  # scaffolding
    fun2(x, n, dx).block_until_ready()  # scaffolding
_report({"jit(fun)", "jit(fun2)"}, 8)  # scaffolding
