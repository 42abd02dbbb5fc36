# source: https://crackedaicode.com/problems/jax-jit-lower-compile
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: jax.jit(jnp.sum).lower(x).compile() compiles once ahead of time and the compiled object runs without further compiles.
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

x = jnp.ones(4)
f = jax.jit(jnp.sum)

# Compile once at "build time"
compiled = f.lower(x).compile()

# Fast path at "inference time"
result = compiled(x)   # → 4.0, no recompilation
_report({"jit(sum)"}, 1)  # scaffolding
