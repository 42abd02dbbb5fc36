# source: https://taourl.com/read-1965317.html
# expect: none
# runtime: COMPILES 4 CALLS 4
# why: arr[index + 1] with a traced index is a valid dynamic index under jit; the answer's claim that polymorphic_next 'works with varying shapes due to shape polymorphism' is wrong only in that it compiles once per input shape (2 compiles for 2 calls with shapes (2,) and (3,)), which is jit's normal behaviour, not a misuse.
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
import jax.numpy as jnp
def next_element(arr, index):
    return arr[index + 1]
# Static shape example (fails if input shape varies)
static_next = jax.jit(next_element)
static_arr = jnp.array([1, 2, 3])
print(static_next(static_arr, 1)) # Output: 3
# Dynamic shape handling using lax.dynamic_slice
def dynamic_next(arr, index):
    return jax.lax.dynamic_slice(arr, (index + 1,), (1,))[0]
dynamic_next_jit = jax.jit(dynamic_next)
dynamic_arr = jnp.array([4, 5, 6, 7])
print(dynamic_next_jit(dynamic_arr, 2)) # Output: 7

@jax.jit
def polymorphic_next(arr: jax.Array, index: int) -> jax.Array:
    return arr[index + 1]
# Works with varying shapes due to shape polymorphism (JAX 0.4.0+)
print(polymorphic_next(jnp.array([8, 9]), 0)) # Output: 9
print(polymorphic_next(jnp.array([10, 11, 12]), 1)) # Output: 12
_report({"jit(next_element)", "jit(dynamic_next)", "jit(polymorphic_next)"}, 4)  # scaffolding
