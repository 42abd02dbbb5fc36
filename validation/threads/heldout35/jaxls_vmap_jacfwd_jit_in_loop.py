# source: https://github.com/brentyi/jaxls/blob/40f4a548713ce6689a3db1d25235c615ecfef2bc/scripts/jax_experiments/vmap_jacfwd.py
# expect: none
# runtime: COMPILES 2 CALLS 303
# why: jax.jit(...) is called inside the loops (and a generator expression), but always on the same module-level function objects jacfwd_vmap and jacfwd, so JAX's cache is hit and each compiles once.

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
import time

import jax
import jax.numpy as jnp
from jax import numpy as jnp
import contextlib  # scaffolding

@contextlib.contextmanager
def stopwatch(label):  # scaffolding: stands in for jaxfg.utils.stopwatch
    start = time.time()
    yield
    print(label, time.time() - start)

def func(x):
    return jnp.sin(x + 10.0)

N = 100
iters = 3  # scaffolding: was 100
jacfwd = jax.jacfwd(func)
jacfwd_vmap = jax.vmap(jax.jacfwd(func))

with stopwatch("vmap"):
    for i in range(iters):
        jacobian = jax.jit(jacfwd_vmap)(jnp.zeros((N, 5))).block_until_ready()
        assert jacobian.shape == (N, 5, 5)

with stopwatch("vmap no jit"):
    for i in range(iters):
        jacobian = jacfwd_vmap(jnp.zeros((N, 5))).block_until_ready()
        assert jacobian.shape == (N, 5, 5)

with stopwatch("loop no vec"):
    for i in range(iters):
        jacobian = jnp.array(list(jax.jit(jacfwd)(vec) for vec in jnp.zeros((N, 5)))).block_until_ready()
        assert jacobian.shape == (N, 5, 5)

with stopwatch("loop no vec no jit"):
    for i in range(iters):
        jacobian = jnp.array(list(jacfwd(vec) for vec in jnp.zeros((N, 5)))).block_until_ready()
        assert jacobian.shape == (N, 5, 5)

_report({"jit(func)"}, iters + iters * N)
