# source: https://theneuralbase.com/jax/learn/beginner/what-jit-compiles-xla-computation/
# expect: none
# runtime: COMPILES 1 CALLS 100
# why: jit_function is built once outside the timing loop and called 100 times with the same scalar shape; the Python for-loop inside slow_function is unrolled once at trace time, so there is one compile for 100 calls (the eager loop over slow_function compiles nothing under this name).

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

def slow_function(x):
    result = 0.0
    for i in range(1000):
        result = result + jnp.sin(x) * 0.001
    return result

jit_function = jax.jit(slow_function)

x = jnp.array(3.14)

import time
start = time.perf_counter()
for _ in range(100):
    slow_function(x)
end = time.perf_counter()
python_time = end - start

start = time.perf_counter()
for _ in range(100):
    jit_function(x)
end = time.perf_counter()
jit_time = end - start

print(f"Python loop time: {python_time:.4f}s")
print(f"JIT loop time: {jit_time:.4f}s")  # scaffolding
_report({"jit(slow_function)"}, 100)  # scaffolding
