# source: https://github.com/vvvm23/vvvm23.github.io/blob/25a8916c1a85d2ce8b766700c85b8daadd0d94dd/content/posts/2023-05-22-jax-post/index.md
# expect: trace-time-error at line 34
# runtime: ERROR TypeError
# why: jax.jit(create_filled) traces length, and jnp.full((length,), val) needs a concrete shape, so tracing raises TypeError (the post shows 'Shapes must be 1D sequences of concrete values of integer type').

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


def create_filled(val, length):
  return jnp.full((length,), val)

print(create_filled(1.0, 5))
print(create_filled(2, 2))

try:  # scaffolding
    jit_create_filled = jax.jit(create_filled)
    jit_create_filled(2, 5)
    _report({"jit(create_filled)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
