# source: https://github.com/cgarciae/treeo/issues/22
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: a module-level jitted f called five times in a loop with the same input: the cache size goes 0 1 1 1 1 and f compiles once (the reported second compile, 0 1 2 2 2 on jax 0.3.15, does not reproduce on 0.10.2).

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


@jax.jit
def f(Y):
    return jnp.sum(Y**2)

Y = jnp.ones(2)

for i in range(5):
    print(f._cache_size())
    f(Y)

_report({"jit(f)"}, 5)  # scaffolding
