# source: https://github.com/omron-sinicx/jaxman/blob/37de77d13d43f25aef0440f8b8fdd3cbdeb19db4/notebooks/check_jit_compile.ipynb
# expect: trace-time-error at line 38
# runtime: ERROR ConcretizationTypeError
# why: jnp.where with one argument (nonzero) has a data-dependent output size; r is traced inside the jitted get_neighbor_pos, so it raises ConcretizationTypeError as the notebook's output shows ('this code failed').
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
# cell 1
import jax
import jax.numpy as jnp

from functools import partial
# cell 3
key = jax.random.PRNGKey(0)
# cell 5
# test get only neighbor agnet information. 
# this code failed
@partial(jax.jit, static_argnames=("neighbor_r"))
# @jax.jit
def get_neighbor_pos(pos, r, neighbor_r):
    idx = jnp.where(r<neighbor_r)
    print(idx)
    neighbor_pos = jnp.take(pos, idx)
    return neighbor_pos, idx

pos = jax.random.normal(key, shape=(10,2))
r = jax.random.normal(key, shape=(10,))

try:  # scaffolding
    get_neighbor_pos(pos,r, 0.1)
    _report({"jit(get_neighbor_pos)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
