# source: https://openillumi.com/?p=112234
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the page's recommendation replaces the hash lookup with an array search (the index of the nearest stored point), which jit traces once for any query point.

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
import numpy as np  # scaffolding

import jax
import jax.numpy as jnp

points = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])  # scaffolding
point_array = jnp.asarray(points)
value_array = jnp.asarray(np.sin(points).sum(axis=1))


@jax.jit
def lookup(x):
    idx = jnp.argmin(jnp.sum((point_array - x) ** 2, axis=1))
    return value_array[idx]


calls = 0  # scaffolding
for q in ([1.0, 0.0], [0.0, 1.0], [1.0, 1.0]):  # scaffolding
    lookup(jnp.array(q))
    calls += 1  # scaffolding
_report({"jit(lookup)"}, calls)  # scaffolding
