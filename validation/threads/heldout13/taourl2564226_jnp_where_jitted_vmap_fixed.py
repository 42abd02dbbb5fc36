# source: https://taourl.com/read-2564226.html
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The answer's jittable version uses jnp.where on the batched sum; jit+vmap compiles once for three same-shape batches.

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
import jax
import jax.numpy as jnp


@jax.jit
def jittable_func(x):
    return jnp.where(x.sum() > 0, x * 2, x + 1)  # scaffolding: "x.sum" and "x 2" restored as above


batched_jittable_func = jax.vmap(jittable_func)
inputs = jnp.array([[1, 2], [-1, -2]])
for _ in range(3):  # scaffolding: a few batches of the same shape
    result = batched_jittable_func(inputs)
print(result)
_report({"jit(jittable_func)"}, 3)  # scaffolding
