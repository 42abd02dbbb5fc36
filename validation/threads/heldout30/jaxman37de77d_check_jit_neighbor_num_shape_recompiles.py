# source: https://github.com/omron-sinicx/jaxman/blob/37de77d13d43f25aef0440f8b8fdd3cbdeb19db4/notebooks/check_jit_compile.ipynb
# expect: shape-churn at line 49
# runtime: COMPILES 2 CALLS 6
# why: _check_jit is called with comm arrays whose neighbour dimension is 5 and then 10, so the second shape compiles again (the notebook's note: it seems to recompile every time the dim=1 size changes).
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
# cell 2
@jax.jit
def _check_jit(state, comm):
    comm = jnp.sum(comm, axis=1)
    state_com = jnp.concatenate((state, comm), axis=-1)
    return jnp.mean(state_com, axis=-1)
# cell 3
key = jax.random.PRNGKey(0)
# (batch_size, neighbor_agent_num, obs_dim)
state = jax.random.normal(key, shape=(1000,500))
comm1 = jax.random.normal(key, shape=(1000,5,500))
comm2 = jax.random.normal(key, shape=(1000,10,500))
# cell 4
# dim=1のサイズが異なるとその度にrecompileしているみたい。サイズが変わる前の情報も保有しているのである程度時間が経つと早くなる
# てっきり、エラーが出るかと思ったら普通に通った
# なので、うまくvmapすれば、データごとに neighbor_agent_numが異なってもうまくいきそう
# →やっぱ無理だった。batch_dimに対してarray_shapeは一緒でなければエラー出るはず。for_i_loopを使うとましになる？
results = _check_jit(state,comm1)  # scaffolding: the cell's %time magic dropped
results = _check_jit(state,comm1)  # scaffolding: the cell's %time magic dropped
results = _check_jit(state,comm2)  # scaffolding: the cell's %time magic dropped
results = _check_jit(state,comm2)  # scaffolding: the cell's %time magic dropped

results = _check_jit(state,comm1)  # scaffolding: the cell's %time magic dropped
results = _check_jit(state,comm2)  # scaffolding: the cell's %time magic dropped
_report({"jit(_check_jit)"}, 6)  # scaffolding
