# source: https://openillumi.com/?p=117619
# expect: none
# runtime: COMPILES 2 CALLS 4
# why: the Python if reads only the static input shape, so each distinct shape gets its own correctly specialised compile (1 for the length-8 input, -1 for the length-3 one) and repeated shapes hit the cache.

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


x8 = jnp.ones(8)
x3 = jnp.ones(3)

print(test(x8))  # 1
print(test(x3))  # -1
print(test(jnp.zeros(8)))  # scaffolding: same shapes again, cache hits
print(test(jnp.zeros(3)))  # scaffolding
print(test._cache_size())
_report({"jit(test)"}, 4)  # scaffolding
