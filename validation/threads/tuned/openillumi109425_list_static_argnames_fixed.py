# source: https://openillumi.com/?p=109425
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: With the list converted to a tuple (the page's recommended fix), the static argument is hashable: dummy compiles once per distinct tuple and a repeated call hits the cache.

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
j_dummy = jax.jit(dummy, static_argnames=['b'])
data_list = ["x", "y"]  # scaffolding
j_dummy(1, tuple(data_list))
j_dummy(2, tuple(data_list))  # scaffolding
_report({"jit(dummy)"}, 2)  # scaffolding
