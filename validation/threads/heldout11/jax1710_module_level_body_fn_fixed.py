# source: https://github.com/jax-ml/jax/issues/1710
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: with body_fn pulled out to a module-level function (the comparison in the thread) the same callable reaches fori_loop every iteration, so the staged loop is compiled once and reused.

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
import gc
from collections import Counter

import jax; jax.config.update('jax_platform_name', 'cpu')
from jax import numpy as np
from jax import lax, random

def body_fn(i, key):  # fixed: the body function pulled out of the class
    key, _ = random.split(key)
    return key

for i in range(3):
    value = lax.fori_loop(0, 10, body_fn, random.PRNGKey(0))

    print("\nGC OBJECTS:")
    cnt = Counter()
    # force gc collection
    gc.collect()
    for x in gc.get_objects():
        if isinstance(x, list):
            if len(x) > 1:
                cnt[type(x[0])] += 1
    print(cnt.most_common(10))
_report({"jit(scan)"}, 3)  # scaffolding
