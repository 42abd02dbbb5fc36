# source: https://github.com/ayushgabani/learn-jax/blob/251dc49675e2cd7363ae641516e2ee0bfe4ab19f/01%20Just-In-Time%20Compilation.ipynb
# expect: jit-in-loop-or-body at line 39
# runtime: COMPILES 20 CALLS 20
# why: g_temporary_inner_function wraps a fresh lambda in jax.jit on every while-loop iteration, so each of the 20 calls traces and compiles a new function (20 compiles for 20 calls).
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
import jax
import jax.numpy as jnp
import time  # scaffolding: imported in cell 5, which is cut
# cells 2-9 (jaxpr, print and static-argument examples) cut  # scaffolding
# cell 10
def loop_body(i):
    return i + 1


def g_temporary_inner_function(x, n):
    i = 0
    while i < n:
        i = jax.jit(lambda x: loop_body(x))(i)  # Bad! Recompilation on each iteration.
    return x + i


# (g_inner_function, the cached version, is the fixed file)  # scaffolding

start = time.time()
g_temporary_inner_function(10, 20).block_until_ready()
print(time.time() - start)

_report({"jit(<lambda>)"}, 20)  # scaffolding: one jitted call per loop iteration (n = 20)
