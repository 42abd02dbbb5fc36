# source: https://github.com/rdyro/intro-to-jax-and-nnx/blob/main/main.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: jax.jit(linear_model) is written inline at each call site, but every wrapper wraps the same function, so the three calls share one compile ('this jit is cached').
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
from jax import numpy as jnp
from jax import random

def linear_model(A, x, y):
  return jnp.mean((jnp.tanh(x @ A) - y) ** 2)

keys = iter(random.split(jax.random.key(17), 1024))
x = random.normal(next(keys), (1024,))
A = random.normal(next(keys), (1024, 16)) / 1024
y = random.normal(next(keys), (16,))
print(linear_model(A, x, y))

jax.jit(linear_model)(A, x, y).block_until_ready()  # scaffolding: was %timeit
jit_fn = jax.jit(linear_model)
jax.block_until_ready(jit_fn(A, x, y))  # scaffolding: was %time
# or simply
jax.jit(linear_model)(A, x, y)  # this jit is cached
_report({"jit(linear_model)"}, 3)  # scaffolding
