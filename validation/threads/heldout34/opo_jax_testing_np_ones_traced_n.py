# source: https://github.com/tathagata-karmakar/OPO_codes/blob/6ae6d530bcc3c7daee953aab00522b62d25d24fd/jax_testing.py
# expect: trace-time-error at line 38
# runtime: ERROR TypeError
# why: fjt = jit(f) traces the integer argument n, and f builds numpy.ones(n) from it, so the first call fails while tracing (a tracer cannot be a NumPy shape).

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
# ---- jax_testing.py (personal experiment script), imports trimmed to those used ----
import numpy as np

import jax
import jax.numpy as jnp
from jax import grad, jit, vmap


def f(n):
    return np.ones(n)
def g(x):
    return np.sum(f(len(x)))
fjt=jit(f)
gjt=jit(g)

# ---- scaffolding: the script defines fjt but never calls it; call it as an experimenter would ----
n_calls = 0  # scaffolding
try:  # scaffolding
    n_calls += 1  # scaffolding
    print(fjt(3))
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
