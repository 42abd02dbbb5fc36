# source: https://github.com/vvvm23/vvvm23.github.io/blob/25a8916c1a85d2ce8b766700c85b8daadd0d94dd/content/posts/2023-05-22-jax-post/index.md
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: The post's rewrite ~mask * x - mask*100. has static shapes, so the jitted function traces and compiles once.

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

key = jax.random.PRNGKey(0)  # scaffolding
key, x_key, mask_key = jax.random.split(key, 3)  # scaffolding
x = jax.random.normal(x_key, (4,4))  # scaffolding
mask = jax.random.uniform(mask_key, (4,4)) < 0.5  # scaffolding


def mask_tensor(x, mask):
  x = ~mask * x - mask*100.
  return x

print("calling eager function")
print(mask_tensor(x, mask))

print("calling compiled function")
jit_mask_tensor = jax.jit(mask_tensor)
print(jit_mask_tensor(x, mask))
_report({"jit(mask_tensor)"}, 1)
