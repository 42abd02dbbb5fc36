# source: https://github.com/jax-ml/jax/issues/40609
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: clearing the caches after the flag change, as the reproducer does to force a fresh compilation, makes the next call of f compile under the new mode: 2 compiles for 2 calls, and the samples differ from the low-mode ones.

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

jax.config.update(FLAG, True)
# Force a fresh compilation under flag=True.
jax.clear_caches()
fresh_high = np.asarray(f(KEY))

print("low:                       ", low)
print("after jax.clear_caches():  ", fresh_high)
assert not np.allclose(fresh_high, low)  # scaffolding
_report({"jit(<lambda>)"}, 2)  # scaffolding
