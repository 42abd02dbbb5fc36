# source: https://crackedaicode.com/problems/jax-compilation-cache-key
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The jitted helper is defined once at module level and jit_cached_call reuses it, so repeated calls with the same shape hit the cache (one compile for three calls).

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

# GOOD — stable cache key
@jax.jit
def _stable_sum_sq(x):
    return jnp.sum(x ** 2)

def jit_cached_call(x):  # scaffolding
    return _stable_sum_sq(x)  # scaffolding

x = jnp.array([1.0, 2.0, 3.0])
print(jit_cached_call(x))  # 14.0 — compiled once
print(jit_cached_call(x))  # 14.0 — cache hit, no recompile
jit_cached_call(jnp.array([3.0, 4.0, 5.0]))  # scaffolding
_report({"jit(_stable_sum_sq)"}, 3)  # scaffolding
