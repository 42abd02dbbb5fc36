# source: https://openillumi.com/en/en-jax-async-dispatch-benchmark-guide
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: vmap is applied outside to an already-jitted function; each unjitted vmap call re-traces, but the inner jit's batched version is cached after the first call, so the second call does not recompile (the page's slowdown is asynchronous dispatch in the timing, not compilation).

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
from time import time
import jax
import numpy as np


@jax.jit
def my_function(x, y):
    # Matrix multiplication
    return x @ y


# Apply vmap to process matrices in batches
vectorized_function = jax.vmap(my_function, in_axes=(0, None))
shape = (1_000, 100)  # scaffolding: the page's (1_000_000, 1_000) cut down
x = np.ones(shape)
y = np.ones(shape[1])

# --- First execution (t_1) ---
start = time()
vectorized_function(x, y)
t_1 = time() - start
# --- Second execution (t_2) ---
start = time()
vectorized_function(x, y)
t_2 = time() - start
print(f'{t_1 = }\n{t_2 = }')
_report({"jit(my_function)"}, 2)  # scaffolding
