# source: https://github.com/HughMcDougall/HughMcDougall.github.io/blob/f5680681794b973bb2872958f6eaa03e63fa99b1/blog/03_stats/05_JAXexample/_JaxExample.md
# expect: none
# runtime: COMPILES 2 CALLS 5
# why: jax.jit(f_vmap, static_argnames=['N']) wraps a vmapped function; jit reads f's signature through vmap's functools.wraps, so the positional N is static and the shape=(N,) in jax.random.choice works, compiling once for four seed batches.

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
import jax
import jax.numpy as jnp
from jax.random import PRNGKey

from functools import partial

import numpy as np


def f(X, N, a, seed):
    '''
    For a vector X, draw 'N' samples from a*X and return the mean
    '''
    out = jax.random.choice(jax.random.key(seed), a=a*X, shape=(N,))
    return(out.mean())

#---------------
X = np.linspace(0,1,512)
N = 32
a = 5
#---------------

# Standard Run
print(
    f(X, N=N, a=a, seed = 1)
)

# Jitted run
f_jit = jax.jit(f, static_argnames=['N'])
print(
    f_jit(X, N=N, a=a, seed = 1)
)

# Vmapped run. Indicates that we vmap over the zeroth axis of the fourth arg. No way to feed this by name without a dict input ATM
f_vmap = jax.vmap(f, (None, None, None, 0))
print(
    f_vmap( X, N, a, jnp.arange(5)) # Once vmapped, we can no longer feed args by keyword
)

# Both
f_vjit = jax.jit(f_vmap, static_argnames=['N'])
print(
    f_vjit( X, N, a, jnp.arange(5))
)
for s in range(1, 4):  # scaffolding: three more seed batches
    f_vjit(X, N, a, jnp.arange(5) + 5 * s)  # scaffolding
_report({"jit(f)"}, 5)  # scaffolding
