# source: https://github.com/vvvm23/vvvm23.github.io/blob/25a8916c1a85d2ce8b766700c85b8daadd0d94dd/content/posts/2023-05-22-jax-post/index.md
# expect: stale-closure at line 37
# runtime: COMPILES 2 CALLS 3
# why: fn reads the global shift; after shift is changed, jit_fn(x2) hits the cache for shape (3,) and still adds the old -1.0 (prints [-1 -2 -1] instead of [1 0 1]); only the new shape x3 retraces.

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

shift = -1.0
x1 = jnp.array([0, 1, 2])
x2 = jnp.array([0, -1, 0])
x3 = jnp.array([0, 1, 2, 3])
def fn(x):
  return x + shift

print(fn(x1))

shift = 1.0
print(fn(x2))
print(fn(x3))

shift = -1.0
jit_fn = jax.jit(fn)

print(jit_fn(x1))

shift = 1.0
print(jit_fn(x2))

print(jit_fn(x3))
_report({"jit(fn)"}, 3)
