# source: https://github.com/jax-ml/jax/issues/2095
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the transformed function is built once (jgf = jit(grad(f))) and reused, so it compiles once for the 3 calls.
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

jgf = jit(grad(f))
n_before = len(_COMPILED)
for _ in range(3):  # scaffolding: %timeit -n10 -r3
    jgf(x).block_until_ready()
print(_COMPILED[n_before:])
print(f"COMPILES {len(_COMPILED) - n_before} CALLS 3")
