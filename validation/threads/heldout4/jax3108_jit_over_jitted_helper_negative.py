# source: https://github.com/jax-ml/jax/issues/3108
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: pv = jax.jit(polyval) calls the already-jitted _polyval inside its trace; on jax 0.10.2 the inner jit is inlined into one computation, so only jit(polyval) compiles, once for two calls.

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


import jax
import jax.lax as lax
import jax.numpy as jnp
import numpy as np


@jax.jit
def _polyval(p, x):
  shape = lax.broadcast_shapes(p.shape[1:], x.shape)
  dtype = jnp.result_type(p, x)
  y = lax.full_like(x, 0, shape=shape, dtype=dtype)
  y, _ = lax.scan(lambda y, p: (y * x + p, None), y, p)
  return y


def polyval(p, x):
  return _polyval(p, x)


x = np.random.rand()
p = np.random.randn(10000)
pv = jax.jit(polyval)
pv(p, x).block_until_ready()
pv(p, x).block_until_ready()
_report({"jit(polyval)", "jit(_polyval)"}, 2)  # scaffolding
