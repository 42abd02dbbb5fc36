# source: https://github.com/BasBuller/neurlang/blob/6552baadad27b3136c2eec44e4172eaa572bc343/benchmark.py
# expect: none
# runtime: COMPILES 1 CALLS 11
# why: the first version builds the @jax.jit closure inside jax_function_fast() too, but calls the factory only once and times the warmed-up function it returns, so it compiles once.

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
        return res
    return time_func


def jax_function_slow():
    values = jax.random.normal(jax.random.PRNGKey(0), (500, 500))  # scaffolding: 5000x5000 in the source
    def time_func():
        res = values * values + values * 2
        return res
    return time_func


def jax_function_fast():
    values = jax.random.normal(jax.random.PRNGKey(0), (500, 500))  # scaffolding: 5000x5000 in the source
    @jax.jit
    def time_func():
        res = values * values + values * 2
        return res
    _ = time_func()
    return time_func


if __name__ == "__main__":
    print("Numpy: ", timeit.timeit(numpy_function(), number=10) / 10)
    print("Jax slow: ", timeit.timeit(jax_function_slow(), number=10) / 10)
    print("Jax fast: ", timeit.timeit(jax_function_fast(), number=10) / 10)
    _report({"jit(time_func)"}, 1 + 10)  # scaffolding: 1 warm-up call, 10 timed calls
