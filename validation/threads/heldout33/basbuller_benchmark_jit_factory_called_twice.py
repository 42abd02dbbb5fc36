# source: https://github.com/BasBuller/neurlang/blob/06a27e6db8fb2b6892e2d479e10b7cad7cc99559/benchmark.py
# expect: jit-in-loop-or-body at line 51
# runtime: COMPILES 2 CALLS 53
# why: jax_function_fast() builds a fresh @jax.jit closure on every call; the script warms it up with jax_function_fast()() and then calls the factory again for the timed run, so the warm-up is thrown away and the timed function compiles a second time.

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
import timeit

import numpy as np
import jax


def numpy_function():
    values = np.random.randn(500, 500)  # scaffolding: 5000x5000 in the source
    def time_func():
        res = values * values + values * 2
    return time_func


def jax_function_slow():
    values = jax.random.normal(jax.random.PRNGKey(0), (500, 500))  # scaffolding: 5000x5000 in the source
    def time_func():
        res = values * values + values * 2
    return time_func


def jax_function_fast():
    values = jax.random.normal(jax.random.PRNGKey(0), (500, 500))  # scaffolding: 5000x5000 in the source
    @jax.jit
    def time_func():
        res = values * values + values * 2
    _ = time_func()
    return time_func


def time_results(prefix, func):
    print(f"{prefix}: {timeit.timeit(func, number=N_ITER) / N_ITER * 100000:.1f} micro seconds")


if __name__ == "__main__":
    N_ITER = 50

    jax_function_fast()()

    time_results("Numpy", numpy_function())
    time_results("Jax slow", jax_function_slow())
    time_results("Jax fast", jax_function_fast())
    _report({"jit(time_func)"}, 2 + 1 + N_ITER)  # scaffolding: 2 factory warm-ups, 1 warm-up call, 50 timed calls
