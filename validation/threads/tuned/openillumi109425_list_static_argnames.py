# source: https://openillumi.com/?p=109425
# expect: unhashable-static at line 37
# runtime: ERROR ValueError
# why: b is named in static_argnames, so jit hashes the list passed for it and raises ValueError (non-hashable static argument); the page's recommended fix passes a tuple.

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
from functools import partial
from typing import List
def dummy(a: int, b: List[str]):
    return a + len(b)
# static_argnames を使って 'b' を静的引数にしようとすると...
j_dummy = jax.jit(dummy, static_argnames=['b'])
try:
    j_dummy(1, ["x", "y"])  # scaffolding: the call is cut off on the page
    _report({"jit(dummy)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
