# source: https://theneuralbase.com/jax/learn/beginner/jit-recompilation-shape-changes/
# expect: shape-churn at line 53
# runtime: COMPILES 2 CALLS 3
# why: add_one is called twice with shape (5,) and then with shape (3,); the third call has a new input shape, so jit traces and compiles again (2 compiles for 3 calls), which is the recompilation the page sets out to show.

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
import time

@jax.jit
def add_one(x):
    return x + 1

print("=== First shape: (5,) ===")
start = time.perf_counter()
result1 = add_one(jnp.array([1.0, 2.0, 3.0, 4.0, 5.0]))
first_compile_time = time.perf_counter() - start
print(f"Result: {result1}")
print(f"Time (includes compilation): {first_compile_time * 1000:.3f} ms")

print("\n=== Same shape again: (5,) ===")
start = time.perf_counter()
result2 = add_one(jnp.array([10.0, 20.0, 30.0, 40.0, 50.0]))
same_shape_time = time.perf_counter() - start
print(f"Result: {result2}")
print(f"Time (reuses compiled code): {same_shape_time * 1000:.3f} ms")

print("\n=== Different shape: (3,) — RECOMPILATION ===")
start = time.perf_counter()
result3 = add_one(jnp.array([1.0, 2.0, 3.0]))
new_shape_time = time.perf_counter() - start  # scaffolding
print(f"Result: {result3}")  # scaffolding
_report({"jit(add_one)"}, 3)  # scaffolding
