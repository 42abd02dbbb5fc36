# source: https://github.com/jax-ml/jax/issues/1141
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the time-based seed is made outside jit and the key passed in as an argument, so each call gets fresh noise from one compile.
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
import time

import jax
import jax.numpy as jnp
from jax import random


@jax.jit
def noisy(x, rng):
    return x + random.normal(rng, x.shape)


x = jnp.zeros(3)  # scaffolding
a = noisy(x, random.PRNGKey(int(time.time())))
time.sleep(1.1)  # scaffolding
b = noisy(x, random.PRNGKey(int(time.time())))
print("same noise on both calls:", bool((a == b).all()))
_report({"jit(noisy)"}, 2)
