# source: https://github.com/Ferranoski7/JAX_tutorial/blob/46ad360d380e1005e7f149454a67109571b8478b/JAX_tutorial.ipynb
# expect: trace-time-error at line 34
# runtime: ERROR NonConcreteBooleanIndexError
# why: x[x < 0] works eagerly but under jit the boolean mask gives a data-dependent shape, so tracing raises NonConcreteBooleanIndexError (the notebook demonstrates it).

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
import numpy as np
import jax.numpy as jnp
from jax import jit

def get_negatives(x):
    return x[x < 0]

x = jnp.array(np.random.randn(10))

get_negatives(x)
try:
    jit(get_negatives)(x)
except Exception as e:
    print("Exception! {}".format(e))
    print("ERROR", type(e).__name__)  # scaffolding
