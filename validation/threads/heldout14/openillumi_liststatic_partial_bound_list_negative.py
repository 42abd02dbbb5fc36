# source: https://openillumi.com/en/en-jax-jit-list-static-arg-best-practice
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: binding the list with functools.partial before jit makes it a trace-time constant of one jitted callable; the list is never mutated, so both calls reuse one compile and return the right value.

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


# with functools.partial the error goes away and compilation succeeds
p_dummy = jax.jit(partial(dummy, b=['a', 'b']))
print(p_dummy(1))
print(p_dummy(2))  # scaffolding: a second call
_report({"jit(dummy)"}, 2)  # scaffolding
