# source: https://github.com/vvvm23/vvvm23.github.io/blob/25a8916c1a85d2ce8b766700c85b8daadd0d94dd/content/posts/2023-05-22-jax-post/index.md
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: The post's fix marks length static (static_argnums=(1,)); each of the two calls has a new length and compiles once, which is the intended cost of a static shape argument.

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

jit_create_filled = jax.jit(create_filled, static_argnums=(1,))
print(jit_create_filled(2, 5))
print(jit_create_filled(1., 10))

print(jax.make_jaxpr(create_filled, static_argnums=(1,))(2, 5))
print(jax.make_jaxpr(create_filled, static_argnums=(1,))(1.6, 10))
_report({"jit(create_filled)"}, 2)
