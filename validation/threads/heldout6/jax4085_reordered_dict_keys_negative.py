# source: https://github.com/jax-ml/jax/issues/4085
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: a dict argument with the same keys in another order flattens to the same pytree (keys are sorted), so first_value compiles once for 2 calls.

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
def first_value(x: dict[str, jax.Array]) -> jax.Array:
  first_key = next(iter(x))
  return x[first_key]

x1 = {'a': jnp.int32(1), 'b': jnp.float32(2)}
print(first_value(x1))

x2 = {'b': jnp.float32(2), 'a': jnp.int32(1)}
print(first_value(x2))
_report({"jit(first_value)"}, 2)  # scaffolding
