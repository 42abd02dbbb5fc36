# source: https://openillumi.com/en/en-jax-jit-cache-size-recompile-debug
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The question counts traces with a global incremented inside the jitted function; with a stable float32 input the counter and _cache_size() both stay at 1.

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
import jax.numpy as jnp  # scaffolding

recompilation_count: int = 0


@jax.jit
def func(z):
    global recompilation_count
    recompilation_count += 1
    return z * z + 100 / z


for _ in range(3):  # scaffolding: same float32 input repeatedly
    func(jnp.float32(2.0))
print(recompilation_count, func._cache_size())  # scaffolding: 1 trace, 1 cache entry
_report({"jit(func)"}, 3)  # scaffolding
