# source: https://github.com/jax-ml/jax/issues/1141
# expect: stale-closure at line 37
# runtime: COMPILES 1 CALLS 2
# why: int(time.time()) is evaluated once, while tracing, so the key is frozen into the compiled noisy: two calls more than a second apart return the same noise (no recompile, silently stale).
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
def noisy(x):  # scaffolding: a jitted function around the thread's line
    rng = random.PRNGKey(int(time.time()))
    return x + random.normal(rng, x.shape)


x = jnp.zeros(3)  # scaffolding
a = noisy(x)
time.sleep(1.1)  # scaffolding: let time.time() move on by more than a second
b = noisy(x)
print("same noise on both calls:", bool((a == b).all()))
_report({"jit(noisy)"}, 2)
