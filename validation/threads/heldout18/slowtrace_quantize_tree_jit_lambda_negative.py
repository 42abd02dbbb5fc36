# source: https://docs.jax.dev/en/latest/debugging/slow_tracing_compilation.html
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the lambda is wrapped in jax.jit once at module level and called once, so the whole tree.map compiles as one program (1 compile).
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
import jax.numpy as jnp

params = {"w1": jnp.ones((4, 4)), "w2": jnp.ones((8,)), "b": jnp.ones((3, 2))}  # scaffolding

def quantize(x):
  scale = jnp.max(jnp.abs(x))
  return jnp.round(x * scale)

# ✔️ GOOD: Compiles a single fused XLA graph for the entire PyTree
params = jax.jit(lambda p: jax.tree.map(quantize, p))(params)
_report({"jit(<lambda>)"}, 1)  # scaffolding
