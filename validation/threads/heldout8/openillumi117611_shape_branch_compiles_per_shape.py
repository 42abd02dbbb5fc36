# source: https://openillumi.com/?p=117611
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: the Python if tests x.shape[0], which is static under jit, so each input shape gets its own trace and result (1 for length 8, -1 for length 3); test compiles once per distinct shape, 2 compiles for 2 calls, which is the expected cache behaviour, not a retrace on every call.

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

@jax.jit
def test(x):
    if x.shape[0] > 4:
        return 1
    else:
        return -1

print(test(jnp.ones(8,)))
print(test(jnp.ones(3,)))

print(f"Cache size: {test._cache_size()}") # 形状が変わるたびに増加
_report({"jit(test)"}, 2)  # scaffolding
