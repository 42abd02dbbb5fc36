# source: https://github.com/deepmodeling/jax-fem/commit/ee8a03250ee651bec2a9cecbfeb4092500a51d9b
# expect: none
# runtime: COMPILES 1 CALLS 10
# why: f is jitted once at module level and f1 only calls it, so the ten calls share one compile.

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


# jax_fem/experimental/when_to_jit.py (after the commit; the f1 test)
import jax.numpy as np
import jax
import time

x = np.ones((1000, 1000), dtype=np.float32)  


@jax.jit
def f(x):
    return x.T @ (x - x.mean(axis=0))

def f1(x):
    return f(x)


print(f"\nTest f1...")
for i in range(10):
    start = time.time()
    a = f1(x).block_until_ready()
    print(time.time() - start)
_report({"jit(f)"}, 10)  # scaffolding
