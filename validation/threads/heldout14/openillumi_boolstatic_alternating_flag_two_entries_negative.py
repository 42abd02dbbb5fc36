# source: https://openillumi.com/?p=109598
# expect: none
# runtime: COMPILES 2 CALLS 6
# why: a boolean static argument has only two values, and jit keeps both compiled versions in its cache, so alternating True and False compiles twice and then only hits the cache.

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

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=["flag"])
def compute(x, flag):
    if flag:
        return x * 2
    return x + 1


x = jnp.arange(4.0)
calls = 0  # scaffolding
for flag in [True, False, True, False, True, False]:
    compute(x, flag=flag)
    calls += 1  # scaffolding
print(compute._cache_size())
_report({"jit(compute)"}, calls)  # scaffolding
