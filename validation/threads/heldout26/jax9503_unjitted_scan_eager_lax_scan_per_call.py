# source: https://github.com/jax-ml/jax/issues/9503
# expect: jit-in-loop-or-body at line 41
# runtime: COMPILES 3 CALLS 3
# why: scan() calls jax.lax.scan eagerly with an update closure made inside it, so every un-jitted call traces and compiles the scan again (3 compiles for 3 calls).
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
import jax.numpy as np

# Fake function
def scan(a):
    
    b0 = 5.
    
    def update(b_prev, a):
        b_next = np.log(a) + b_prev
        return b_next, a * np.sqrt(b_prev)
    
    b_last, b = jax.lax.scan(update, b0, a)

    return b

N = 1000
dummy = np.ones((N,))
a = np.ones((N,)) * 2.   # 'real' data

# Time the function that is not jitted:
# %timeit scan(a)
for _ in range(3):  # scaffolding: stands in for %timeit
    scan(a).block_until_ready()  # scaffolding

_report({"jit(scan)"}, 3)  # scaffolding
