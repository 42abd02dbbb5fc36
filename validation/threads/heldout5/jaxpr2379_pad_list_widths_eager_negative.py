# source: https://github.com/jax-ml/jax/pull/2379
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: jnp.pad called eagerly in a loop with a fresh list of pad widths each time: on 0.10.2 the widths are hashed by value, so the pad computation compiles once for 5 calls (the 2020 recompile per list is fixed).
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
import jax.numpy as jnp

x = jnp.ones((3, 3))  # scaffolding
for _ in range(5):  # scaffolding
    pad_widths = [(1, 1), (2, 2)]  # a new list object on every iteration
    y = jnp.pad(x, pad_widths, mode='constant', constant_values=0)
print(sorted(set(_COMPILED)))
_report({n for n in _COMPILED if "pad" in n}, 5)
