# source: https://github.com/pjs902/jax-demo/blob/8de44c2a5a1409f128231b08e2303a29d35f640d/jax_intro.ipynb
# expect: trace-time-error at line 128
# runtime: ERROR TracerIntegerConversionError
# why: add_loop runs `for _ in range(increments)` on its second argument, which jax.jit traces, so range() calls __index__ on a tracer and raises TracerIntegerConversionError (as the notebook's saved output shows).
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
import numpy as np
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

# %config InlineBackend.figure_format = 'retina'  # scaffolding: IPython shell/magic line
# import seaborn as sns  # scaffolding: seaborn is not installed; styling calls are no-ops
class sns:  # scaffolding
    set_context = set_style = staticmethod(lambda *a, **k: None)  # scaffolding

sns.set_context("notebook")
sns.set_style("ticks")

import jax

# by default, jax uses 32-bit precision, which is a trade off that ML people are often willing to
# make, but for most of our purposes, we want 64-bit precision
jax.config.update("jax_enable_x64", True)
# cell 2
# define some arbitrary function
def plummer_dispersion(rs, sigma0, a):
    return np.sqrt(sigma0**2 / np.sqrt(1 + rs**2 / a**2))


# define the same function but with jax
# import the jax version of numpy
import jax.numpy as jnp


# now define the function in the exact same way
def plummer_dispersion_jax(rs, sigma0, a):
    return jnp.sqrt(sigma0**2 / jnp.sqrt(1 + rs**2 / a**2))


# now do some basic benchmarking

# use an absurd resolution, for demonstration purposes
rs = np.linspace(0, 1000, 10_000)  # scaffolding: 1_000_000 points in the notebook

# first the numpy version
print("numpy:")
plummer_dispersion(rs, 15, 200)  # scaffolding: IPython %timeit magic removed
print()


# now the jax version
print("jax:")
plummer_dispersion_jax(rs, 15, 200)  # scaffolding: IPython %timeit magic removed
print()

# now turn on JIT:
plummer_dispersion_jax_jit = jax.jit(plummer_dispersion_jax)

# The first time we evaluate the function, it will be compiled
print("jax jit compilation:")
_ = plummer_dispersion_jax_jit(rs, 15, 200)  # scaffolding: IPython %time magic removed
print()

# all subsequent calls will be faster
print("jax jitted:")
plummer_dispersion_jax_jit(rs, 15, 200)  # scaffolding: IPython %timeit magic removed

2.3e-3 / 350e-6

# cell 3
def function_with_if(x):
    if x > 0:
        return -x
    return x


print(function_with_if(5))
print(function_with_if(-5))
# cell 4  # scaffolding: cell cut (see the note)
# cell 5
# can rewrite the same function to be more jax-friendly

def function_with_if_jax(x):
    return jnp.where(x > 0, -x, x)


print(function_with_if_jax(5))
print(jax.jit(function_with_if_jax)(-5))
# cell 6
# static_argnums example


def add_loop(starting_val, increments):
    val = starting_val
    for _ in range(increments):
        val += 1
    return val


print(add_loop(5, 10))
# cell 7
# try to JIT this function

try:  # scaffolding
    jax.jit(add_loop)(5, 10)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding

# fails with a big ugly error message, because the behavior of the function depends on the value of the second argument


