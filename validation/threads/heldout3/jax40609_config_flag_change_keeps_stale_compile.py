# source: https://github.com/jax-ml/jax/issues/40609
# expect: stale-closure at line 44
# runtime: COMPILES 2 CALLS 3
# why: jax_high_dynamic_range_gumbel is not part of the jit cache key, so after the flag is switched on the already-compiled f keeps returning the samples of the old mode (stale result, cache size 1); only jax.clear_caches() forces a new compile.

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


import numpy as np
import jax
import jax.random as jr

FLAG = "jax_high_dynamic_range_gumbel"
KEY = jr.PRNGKey(0)

jax.config.update(FLAG, False)
jax.clear_caches()

f = jax.jit(lambda key: jr.gumbel(key, (4,)))

low = np.asarray(f(KEY))

# Change the documented runtime configuration without clearing caches.
jax.config.update(FLAG, True)
after_update = np.asarray(f(KEY))

print("low:                       ", low)
print("same callable, flag=True:  ", after_update)
print("cache size:                ", f._cache_size())

# Force a fresh compilation under flag=True.
jax.clear_caches()
fresh_high = np.asarray(f(KEY))

print("after jax.clear_caches():  ", fresh_high)

# These assertions demonstrate the current behavior.
assert np.array_equal(after_update, low)
assert not np.allclose(fresh_high, low)
_report({"jit(<lambda>)"}, 3)  # scaffolding
