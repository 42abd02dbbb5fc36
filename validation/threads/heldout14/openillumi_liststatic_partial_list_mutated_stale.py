# source: https://openillumi.com/en/en-jax-jit-list-static-arg-best-practice
# expect: stale-closure at line 41
# runtime: COMPILES 1 CALLS 2
# why: the list bound with functools.partial is read once while jit traces, so after the caller appends to it the cached program still returns the old length (3 instead of 4), the stale result the page warns about.

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


data_list = ['a', 'b']
# with functools.partial the error goes away and compilation succeeds
p_dummy = jax.jit(partial(dummy, b=data_list))
print(p_dummy(1))  # 3
data_list.append('c')  # scaffolding: the underlying data changes
print(p_dummy(1))  # still 3: the cached trace saw the old list
_report({"jit(dummy)"}, 2)  # scaffolding
