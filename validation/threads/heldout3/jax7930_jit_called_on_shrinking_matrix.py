# source: https://github.com/jax-ml/jax/issues/7930
# expect: shape-churn at line 51
# runtime: COMPILES 5 CALLS 5
# why: every iteration calls the jitted f on a matrix one row and column smaller, so each call is a new shape and compiles again (5 compiles for 5 calls in the shortened loop).

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


import time  # scaffolding
import jax.numpy as np  # scaffolding
from jax import jit  # scaffolding

def get_gpu_memory():  # scaffolding: not in the thread
    return "n/a"  # scaffolding

def f(x):
    return np.mean(np.dot(x, x.T))

size = 1002
for i in range(5):  # scaffolding: range(1000) in the thread
    if i%100 == 0: print(f"\nROUND #{i}")
    
    size -= 1
    a = np.ones([size, size])
    
    jit_f = None
    time.sleep(0.01)
    # xla._xla_callable.cache_clear()  # scaffolding: internal API removed since
    
    if i%100 == 0: print("MEM:", get_gpu_memory())
    jit_f = jit(f)
    out = jit_f(a)
    if i%100 == 0: print(out)
    if i%100 == 0: print("MEM:", get_gpu_memory())
_report({"jit(f)"}, 5)  # scaffolding
