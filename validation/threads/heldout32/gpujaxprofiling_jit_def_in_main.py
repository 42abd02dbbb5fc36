# source: https://github.com/pmocz/gpu-jax-profiling-demo/blob/6b983525267c9f5d88943a78420a0e5c5206ae1b/main_nsys.py
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: main() defines @jax.jit my_func inside its body, but main runs once and calls my_func twice (warm-up, then timed), so it compiles once and the timed call hits the cache.

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
import time

"""
GPU JAX Profiling Demo on Rusty
with Nvidia NSight Systems
Philip Mocz (2025)
"""


def main():
    # with jax.profiler.trace("logs"):
    # generate large random matrix
    key = jax.random.key(0)
    x = jax.random.normal(key, (256, 256))  # scaffolding: (8192, 8192) in the script

    # warm-up
    y = x @ x + 1

    # time
    start = time.time()
    y = x @ x + 1
    y.block_until_ready()
    elapsed = time.time() - start
    print(f"Time: {elapsed:.4f}s")

    # JIT version
    @jax.jit
    def my_func(a, b):
        return a @ b + 1

    # warm-up
    y = my_func(x, x)

    # time
    start_jit = time.time()
    y = my_func(x, x)
    y.block_until_ready()
    elapsed_jit = time.time() - start_jit
    print(f"JIT Time: {elapsed_jit:.4f}s")


if __name__ == "__main__":
    main()
    _report({"jit(my_func)"}, 2)  # scaffolding
