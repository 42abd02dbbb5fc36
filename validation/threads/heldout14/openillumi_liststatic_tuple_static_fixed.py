# source: https://openillumi.com/en/en-jax-jit-list-static-arg-best-practice
# expect: none
# runtime: COMPILES 2 CALLS 3
# why: the page's fix converts the list to a tuple before passing it as the static argument, so it hashes; equal tuples reuse the cache and a changed tuple recompiles, which is what a static argument is for.

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
from functools import partial
from typing import List

import jax


def dummy(a: int, b: List[str]):
    return a + len(b)


j_dummy = jax.jit(dummy, static_argnames=['b'])
data_list = ['a', 'b']
print(j_dummy(1, b=tuple(data_list)))
print(j_dummy(2, b=tuple(data_list)))  # scaffolding: same tuple, cache hit
data_list.append('c')  # scaffolding: the list changes
print(j_dummy(1, b=tuple(data_list)))
_report({"jit(dummy)"}, 3)  # scaffolding
