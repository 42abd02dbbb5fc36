# source: https://github.com/jax-ml/jax/issues/7930
# expect: jit-in-loop-or-body at line 49; shape-churn at line 50
# runtime: COMPILES 5 CALLS 5
# why: the reporter's second loop defines f anew and jits it on every iteration, on a matrix of a new size each time, so every call traces and compiles a new function (5 compiles for 5 calls).

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

size = 1002
for i in range(5):  # scaffolding: range(1000) in the thread
    if i%100 == 0: print(f"\nROUND #{i}")
    
    size -= 1
    a = np.ones([size, size])
    
    jit_f = None
    time.sleep(0.01)
    # xla._xla_callable.cache_clear()  # scaffolding: internal API removed since
    
    if i%100 == 0: print("MEM:", get_gpu_memory())
    def f(x):
      return np.mean(np.dot(x, x.T))
    jit_f = jit(f)
    out = jit_f(a)
    if i%100 == 0: print(out)
    if i%100 == 0: print("MEM:", get_gpu_memory())
_report({"jit(f)"}, 5)  # scaffolding
