# source: https://github.com/jax-ml/jax/issues/2095
# expect: jit-in-loop-or-body at line 40
# runtime: COMPILES 3 CALLS 3
# why: jit(grad(f)) is rebuilt on every timing iteration; grad(f) is a new function object each time, so each call traces and compiles again (3 compiles for 3 calls), unlike grad(jit(f)), whose jit(f) hits one cache entry.
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
import jax.numpy as jnp
from jax import grad, jit

x = jnp.ones([50,50])  # scaffolding: was 5000x5000
f = lambda x: jnp.mean(jnp.dot(x, x.T))

for _ in range(3):  # scaffolding: %timeit -n10 -r3
    grad(jit(f))(x).block_until_ready()
n_before = len(_COMPILED)
print(_COMPILED)

for _ in range(3):  # scaffolding: %timeit -n10 -r3
    jit(grad(f))(x).block_until_ready()
print(_COMPILED[n_before:])
print(f"COMPILES {len(_COMPILED) - n_before} CALLS 3")
