# source: https://github.com/jax-ml/jax/issues/12028
# expect: trace-time-error at line 42
# runtime: ERROR TypeError
# why: The BCOO shape is passed as a jitted (traced) array argument, so the shape is not concrete at trace time.
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
import jax.numpy as jnp
from jax.experimental.sparse import BCOO

mk_bcoo = lambda data, indices, shape: BCOO((data, indices), shape=shape)

data = jnp.array([1, 1])
indices = jnp.array([[0], [1]])
shape = jnp.array([99])

mk_bcoo(data, indices, shape).todense()
# Works!
try:  # scaffolding
    jax.jit(mk_bcoo)(data, indices, shape)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
