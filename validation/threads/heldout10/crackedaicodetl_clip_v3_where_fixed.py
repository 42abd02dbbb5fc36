# source: https://crackedaicode.com/problems/jax-tracer-leak-detection
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: The page's fix: clip_v3 uses jnp.where, which works on traced values; it compiles once and a second call with the same shape hits the cache.

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


# ✅ Vectorized & jit-safe
def clip_v3(x):
    return jnp.where(x < 0, 0, x)


clip = jax.jit(clip_v3)  # scaffolding
clip(jnp.array([-1.0, 2.0, -3.0]))  # scaffolding
clip(jnp.array([4.0, -5.0, 6.0]))  # scaffolding
_report({"jit(clip_v3)"}, 2)  # scaffolding
