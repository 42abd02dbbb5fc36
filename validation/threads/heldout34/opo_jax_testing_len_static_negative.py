# source: https://github.com/tathagata-karmakar/OPO_codes/blob/6ae6d530bcc3c7daee953aab00522b62d25d24fd/jax_testing.py
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: gjt = jit(g) also calls numpy.ones inside jit, but with len(x), which is a static Python int at trace time, so it traces and compiles once for same-shaped inputs.

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

# ---- scaffolding: the script defines gjt but never calls it; call it on same-shaped inputs ----
n_calls = 0  # scaffolding
for k in range(4):  # scaffolding
    print(gjt(jnp.arange(5.0) + k))
    n_calls += 1  # scaffolding
_report({"jit(g)"}, n_calls)
