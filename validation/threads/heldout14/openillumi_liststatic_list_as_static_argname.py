# source: https://openillumi.com/en/en-jax-jit-list-static-arg-best-practice
# expect: unhashable-static at line 42
# runtime: ERROR ValueError
# why: b is declared in static_argnames but the caller passes a Python list, which is unhashable, so jit refuses it as a cache key.

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


# trying to make 'b' a static argument with static_argnames...
j_dummy = jax.jit(dummy, static_argnames=['b'])
try:
    j_dummy(1, ['a', 'b'])
    _report({"jit(dummy)"}, 1)  # scaffolding
except ValueError as e:
    print(f"ERROR {type(e).__name__}")  # scaffolding
