# source: https://docs.jax.dev/en/latest/aot.html
# expect: trace-time-error at line 46
# runtime: ERROR TypeError
# why: jax.vmap(g_jit) retraces g for the batched shape, but g_aot is compiled for one signature and refuses the BatchTracer with TypeError.
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
import numpy as np  # scaffolding
import jax.numpy as jnp  # scaffolding

def g(x):
  assert x.shape == (3, 2)
  return x @ jnp.ones(2)

def make_z(*shape):
  return jnp.arange(np.prod(shape)).reshape(shape)

z, zs = make_z(3, 2), make_z(4, 3, 2)

g_jit = jax.jit(g)
g_aot = jax.jit(g).trace(z).lower().compile()

print(jax.vmap(g_jit)(zs))  # scaffolding: print

try:  # scaffolding
    jax.vmap(g_aot)(zs)
    _report({"jit(g)"}, 2)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
