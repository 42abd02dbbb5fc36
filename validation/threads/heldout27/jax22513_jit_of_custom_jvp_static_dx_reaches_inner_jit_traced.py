# source: https://github.com/jax-ml/jax/issues/22513
# expect: unhashable-static at line 33
# runtime: ERROR ValueError
# why: jitting the custom_jvp function from outside (dfm's suggestion) makes custom_jvp trace all its arguments, so dx reaches the inner jit's static_argnums=2 as a tracer and hashing it raises ValueError.
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
import functools

@jax.custom_jvp
@functools.partial(jax.jit, static_argnums=2)
def fun(x, n, dx):
    """The dx th derivative of the function x^n."""
    if dx == 0:
        return x**n
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

@functools.partial(jax.jit, static_argnums=2)
def fun2(x, n, dx):
    """Same function without custom_jvp decorator."""
    if dx == 0:
        return x**n
    out = x**(n-dx)
    coef = fori_loop(0, dx, lambda i, x: x*(n-i), 1)
    return coef*out

x = jnp.arange(1000)
n = 10
dx = 0

assert fun(x, n, dx).all() == fun2(x, n, dx).all()

try:  # scaffolding
    # dfm: "I believe that `jax.jit(fun, static_argnums=...)` should work fine"
    jax.jit(fun, static_argnums=2)(x, n, dx).block_until_ready()
    _report({"jit(fun)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
