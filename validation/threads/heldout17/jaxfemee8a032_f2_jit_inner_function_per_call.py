# source: https://github.com/deepmodeling/jax-fem/commit/ee8a03250ee651bec2a9cecbfeb4092500a51d9b
# expect: jit-in-loop-or-body at line 39
# runtime: COMPILES 10 CALLS 10
# why: f2 wraps a freshly defined inner function in jax.jit on every call, so each of the ten loop iterations traces and compiles it again.

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


# jax_fem/experimental/when_to_jit.py (after the commit; the f1 and f3 tests are in the twin files)
import jax.numpy as np
import jax
import time

x = np.ones((1000, 1000), dtype=np.float32)  


def f2(x):
    def f(x): 
        return x.T @ (x - x.mean(axis=0))
    f = jax.jit(f)
    return f(x)


print(f"\nTest f2...")
for i in range(10):
    start = time.time()
    a = f2(x).block_until_ready()
    print(time.time() - start)
_report({"jit(f)"}, 10)  # scaffolding
