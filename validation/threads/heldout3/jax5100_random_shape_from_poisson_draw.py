# source: https://github.com/jax-ml/jax/issues/5100
# expect: trace-time-error at line 35
# runtime: ERROR TypeError
# why: the number of rows of sub_indices is rand_shape.sum(), a value drawn inside the jitted f, so randint gets a traced shape and raises TypeError (jakevdp: shapes must be static under jit).

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


import jax

@jax.jit
def f(data, rng_key):
    n, m = data.shape
    shape_key, sub_key = jax.random.split(rng_key)
    rand_shape = jax.random.poisson(shape_key, 1, (2,))  # <--- Random Variable
    sub_indices = jax.random.randint(sub_key, (rand_shape.sum(), 3), 0, n)
    subsamples = data[sub_indices, :]
    return subsamples

rng_key = jax.random.PRNGKey(0)
try:  # scaffolding
    f(jax.numpy.arange(10 * 5).reshape((10, 5)), rng_key)
    _report({"jit(f)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
