# source: https://openillumi.com/?p=112234
# expect: trace-time-error at line 41
# runtime: ERROR TypeError
# why: the fitting points are stored in a dict keyed by tuple(point), but under jit the query point is a tracer, so tuple(x) yields tracers that cannot be hashed for the dictionary lookup.

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

# fitting points and the function values stored at them (dictionary keyed by coordinates)
points = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])  # scaffolding
values = {tuple(p): float(np.sin(p).sum()) for p in points}  # scaffolding: the page's mapping


@jax.jit
def lookup(x):
    return values[tuple(x)]


try:  # scaffolding
    lookup(jnp.array([1.0, 0.0]))
    _report({"jit(lookup)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
