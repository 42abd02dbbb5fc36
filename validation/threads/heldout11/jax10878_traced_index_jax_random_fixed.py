# source: https://github.com/jax-ml/jax/issues/10878
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the reporter's two remedies applied: n is no longer static (x[n] with a traced index is fine) and the random array comes from jax.random, so f compiles once for all three j.

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
import jax.random as rd
import numpy as np
import jax.numpy as jnp
import jax.profiler
from functools import partial

key = rd.PRNGKey(233)



@jax.jit  # fixed: "do not use argnum to avoid re-jitting f"
def f(key, n):
    print('function is jitting !')
    z = jax.random.uniform(key, (3200000,))  # fixed: "use jax.random instead of numpy.random in f"
    x = jax.random.normal(key, (3,))
    return z + x[n]


for j in range(3):
    y = f(key, j)
    # jax.profiler.save_device_memory_profile(f"memory{j}.prof")  # scaffolding: no profile files are written
_report({"jit(f)"}, 3)  # scaffolding
