# source: https://github.com/jax-ml/jax/issues/968
# expect: trace-time-error at line 40
# runtime: ERROR TracerBoolConversionError
# why: the jitted compare chains four traced comparisons with Python 'and', which calls bool() on a tracer, so the first compare(z, i, j) in the loop raises TracerBoolConversionError.
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



import numpy as original_numpy
import jax.numpy as np
import jax.random as random
import time
from jax import jit  # scaffolding: the comment's jit import was not shown

z = random.normal(random.PRNGKey(123123), shape=[100, 100])
# z = original_numpy.asarray(z) # Adding this reduces running time from 28.2714s to 0.0153s


@jit
def compare(z, i, j):
    return z[j, i] <= z[j - 1, i] and z[j, i] <= z[j + 1, i] and z[j, i] <= z[j, i - 1] and z[j, i] <= z[j, i + 1]


points = []
start_time = time.time()
calls = 0  # scaffolding
try:  # scaffolding
    for i in range(100):
        if i in [0, 99]: continue
        for j in range(100):
            if j in [0, 99]: continue
            calls += 1  # scaffolding
            if compare(z, i, j):
                points.append([i, j])
    total_time = time.time() - start_time
    print('Elapsed Time = %.4f' % total_time)
    _report({"jit(compare)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
