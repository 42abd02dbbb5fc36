# source: https://github.com/jax-ml/jax/issues/10878
# expect: changing-static at line 40
# runtime: COMPILES 3 CALLS 3
# why: n is a static argument and the loop passes a new j on every call, so f is traced and compiled again for each j (the np.random.rand array is baked into each new executable as a constant), which is the executable memory the reporter sees growing.

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



@partial(jax.jit,static_argnums=(1,))
def f(key, n):
    print('function is jitting !')
    z = np.random.rand(3200000)
    x = jax.random.normal(key, (3,))
    return z + x[n]


for j in range(3):
    y = f(key, j)
    # jax.profiler.save_device_memory_profile(f"memory{j}.prof")  # scaffolding: no profile files are written
_report({"jit(f)"}, 3)  # scaffolding
