# source: https://github.com/jax-ml/jax/issues/9714
# expect: jit-in-loop-or-body at line 49
# runtime: COMPILES 4 CALLS 4
# why: with USE_JIT = False the un-jitted jax.scipy.sparse.linalg.cg builds fresh closures for its lax.while_loop on every call, so the staged while loop is traced and compiled again in every iteration of the Python loop (the growth the thread reports without jit).

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
import os, psutil

import jax
USE_JIT = False
cg = jax.jit(jax.scipy.sparse.linalg.cg, static_argnames=("maxiter")) if USE_JIT else jax.scipy.sparse.linalg.cg
print(jax.__version__)
size = 200  # scaffolding: 2000 in the comment

def print_live_buffers():
    bs = jax.lib.xla_bridge.get_backend().live_buffers()
    print('-----', len(bs))
    for b in bs:
        print(b.shape, ';', b.size, ';', id(b))

for kk in range(4):  # scaffolding: range(10) in the comment
    key = jax.random.PRNGKey(0)
    key1, key2 = jax.random.split(key)
    A = jax.random.normal(key1, shape=(size, size))
    F = jax.random.normal(key2, shape=(size,))
    S = A @ A.T
    update, _ = cg(S, F, tol=1e-5, maxiter=5000)
    update.block_until_ready()
    print(psutil.Process(os.getpid()).memory_info().rss / 1024 ** 2)
    # print_live_buffers() # comment out when using CPU
_report({"jit(while)"}, 4)  # scaffolding
