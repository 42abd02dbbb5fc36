# source: https://github.com/omron-sinicx/jaxman/blob/37de77d13d43f25aef0440f8b8fdd3cbdeb19db4/notebooks/check_jit_compile.ipynb
# expect: shape-churn at line 47
# runtime: COMPILES 3 CALLS 6
# why: the user's working replacement (argsort, static n_neighbor) no longer raises, but the cell times it on 10, 100 and 1000 agents, so each new pos shape compiles again: 3 compiles for 6 calls.
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
# cell 6
# test code. get n closest agent position

@partial(jax.jit, static_argnames=("n_neighbor"))
def get_neighbor_pos(pos, n_neighbor):
    dist = jnp.sum(pos**2, axis=-1)
    neighbor_index = jnp.argsort(dist)[:n_neighbor]
    neighbor_pos = jnp.take(pos, neighbor_index, axis=0)
    return neighbor_pos

pos1 = jax.random.normal(key, shape=(10,2))
pos2 = jax.random.normal(key, shape=(100,2))
pos3 = jax.random.normal(key, shape=(1000,2))
get_neighbor_pos(pos1,5)
get_neighbor_pos(pos1,5)  # scaffolding: the cell's %time magic dropped
get_neighbor_pos(pos2,5)
get_neighbor_pos(pos2,5)  # scaffolding: the cell's %time magic dropped
get_neighbor_pos(pos3,5)
get_neighbor_pos(pos3,5)  # scaffolding: the cell's %time magic dropped
# この計算はそこまでボトルネックにならなさそう
_report({"jit(get_neighbor_pos)"}, 6)  # scaffolding
