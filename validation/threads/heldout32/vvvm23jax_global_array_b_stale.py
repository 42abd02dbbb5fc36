# source: https://github.com/vvvm23/vvvm23.github.io/blob/25a8916c1a85d2ce8b766700c85b8daadd0d94dd/content/posts/2023-05-22-jax-post/index.md
# expect: stale-closure at line 35
# runtime: COMPILES 1 CALLS 2
# why: fn closes over the global array b, which becomes an implicit constant of the compiled function; rebinding b to zeros does not retrace, so the second call still returns [2 4 6].

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

b = jnp.array([1,2,3])

def fn(x):
  return x + b

jit_fn = jax.jit(fn)

x = jnp.array([1,2,3])
print(jit_fn(x))

b = jnp.array([0,0,0])
print(jit_fn(x))
_report({"jit(fn)"}, 2)
