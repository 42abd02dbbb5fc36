# source: https://github.com/avilay/learn-ai-act-1
# expect: stale-closure at line 35
# runtime: COMPILES 2 CALLS 3
# why: powerof reads the global power at trace time; after power = 10 the second jit(powerof)(2) hits the cache and still returns 32 (2**5), and only a new input shape retraces with the new value (2 compiles, 3 calls).
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


import jax
import numpy as np
import jax.numpy as jnp
from jax import random, jit, lax, vmap, pmap, grad, value_and_grad

power = 5

def powerof(x):
    return x ** power

powerof(2)

power = 10
powerof(2)

power = 5
print(jit(powerof)(2))  # scaffolding: print

power = 10
print(jit(powerof)(2))  # scaffolding: print (32, not 1024)

power = 10
print(jit(powerof)(jnp.array([2., 2.])))  # scaffolding: print
_report({"jit(powerof)"}, 3)  # scaffolding
