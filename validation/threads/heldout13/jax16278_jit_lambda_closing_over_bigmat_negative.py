# source: https://github.com/jax-ml/jax/issues/16278
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: foo is jitted once with bigmat as an argument and once through a lambda that closes over bigmat as a constant; each jitted callable is built once and called once, so there is no recompilation (the thread's problem is memory, not compiles).

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
import numpy as np
import jax
import jax.numpy as jnp

np.random.seed(0)  # scaffolding

ns = 9  # scaffolding: 900 in the thread
ne = 10  # scaffolding: 1000 in the thread
nq = 8  # scaffolding: 800 in the thread

bigmat = jnp.array(np.random.random((ne,nq,ns)))

x = jnp.empty(ns)

def foo(x, bigmat):
    
    def body(i, f):
        gx = bigmat[i]@x
        # do some other stuff that isn't important
        f = f.at[i].set(gx.sum())
        return f
    
    f = jnp.zeros(x.shape[0])
    f = jax.lax.fori_loop(0, 1, body, f)
    return f

# this runs fine, no OOM issue
f = foo(x, bigmat)

# this also runs fine, basically the same runtime as expected since the
# fori_loop is already compiled and thats most of the cost
f = jax.jit(foo)(x, bigmat).block_until_ready()

# this causes OOM
f = jax.jit(lambda y: foo(y, bigmat))(x)
_report({"jit(foo)", "jit(<lambda>)"}, 2)  # scaffolding
