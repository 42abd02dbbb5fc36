# source: https://openillumi.com/en/en-jax-jit-iterator-vs-lax-foriloop
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the question's working variant: a plain Python for loop over range(10) inside @jit is unrolled while tracing, so next(iterator) runs on every iteration and the jitted function returns 45 as without jit.
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
from jax import jit


@jit
def func():  # scaffolding: the page describes this function in words; reconstructed from that description
    iterator = iter(range(10))
    total = 0
    for i in range(10):
        total += next(iterator) + jnp.zeros(())  # scaffolding: makes the sum a traced value
    return total


print(func())  # 45
_report({"jit(func)"}, 1)  # scaffolding
