# source: https://openillumi.com/en/en-jax-jit-iterator-vs-lax-foriloop
# expect: stale-closure at line 36
# runtime: COMPILES 2 CALLS 2
# why: lax.fori_loop traces its body once, so next(iterator) on the closed-over Python iterator runs a single time at trace time and its first value (0) is baked in as a constant; the loop returns 0 instead of 45, silently.
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


import jax.numpy as jnp
import jax.lax as lax
from jax import jit

# lax.fori_loop
array = jnp.arange(10)
print(lax.fori_loop(0, 10, lambda i,x: x+array[i], 0)) # outputs 45

iterator = iter(range(10))
print(lax.fori_loop(0, 10, lambda i,x: x+next(iterator), 0)) # outputs 0
_report({"jit(scan)"}, 2)  # scaffolding: one jit(scan) per fori_loop
