# source: https://github.com/jax-ml/jax/issues/15924
# expect: shape-churn at line 62
# runtime: COMPILES 2 CALLS 4
# why: The same-shape, same-dtype input is passed once as an uncommitted array and once as an array committed by device_put(x, sharding); the committed sharding is part of jit's cache key, so test compiles a second time for an identical computation.

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
from contextlib import contextmanager

import numpy as np
import jax, jax.numpy as jnp

@contextmanager
def print_barrier(name: str):
    import sys
    print(f"--- ENTER {name} ---", file=sys.stderr)
    yield
    print(f"--- EXIT  {name} ---", file=sys.stderr)

@jax.jit
def test(x):
    return x

x_jax = jnp.zeros((1,))
x_np = np.zeros((1,))
x_np2jax = jax.device_put(x_np)
x_np2jax_sharded = jax.device_put(x_np, x_jax.sharding)

jax.config.update("jax_log_compiles", True)

with print_barrier("jax.Array"):
    test(x_jax)

with print_barrier("np.ndarray"):
    test(x_np)

with print_barrier("np.ndarray -> jax.Array"):
    test(x_np2jax)

with print_barrier("np.ndarray -> jax.Array (with sharding)"):
    test(x_np2jax_sharded)

jax.config.update("jax_log_compiles", False)

test_aot = test.lower(x_jax).compile()
test_aot(x_jax)
test_aot(x_np)
test_aot(x_np2jax)
test_aot(x_np2jax_sharded)
_report({"jit(test)"}, 4)  # scaffolding: the four jitted calls
