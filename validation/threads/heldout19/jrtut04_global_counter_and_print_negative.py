# source: https://github.com/jrproal/jax_tutorial/blob/main/04_functional_patterns.ipynb
# expect: none
# runtime: COMPILES 3 CALLS 6
# why: a global counter increment and a Python print inside jitted functions run only while tracing (counter ends at 1 after 2 calls, the print shows once); each function compiles once for its 2 calls.
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
from jax import jit, grad, vmap

# ❌ BAD: Using global mutable state
counter = 0

def bad_compute_energy(mass, velocity):
    global counter
    counter += 1  # Side effect!
    return 0.5 * mass * velocity**2

# This will not work as expected with JIT
jit_bad_energy = jit(bad_compute_energy)

print("Before JIT calls, counter:", counter)
result1 = jit_bad_energy(1.0, 2.0)
result2 = jit_bad_energy(1.0, 3.0)
print("After 2 JIT calls, counter:", counter)  # Counter only incremented once during tracing!


# ✅ GOOD: Pure function without side effects
def good_compute_energy(mass, velocity):
    return 0.5 * mass * velocity**2

jit_good_energy = jit(good_compute_energy)

result1 = jit_good_energy(1.0, 2.0)
result2 = jit_good_energy(1.0, 3.0)
print(f"Energy 1: {result1:.2f}, Energy 2: {result2:.2f}")


# ❌ BAD: Regular print inside JIT
@jit
def bad_gravitational_force(m1, m2, r):
    G = 6.674e-11  # Gravitational constant
    print(f"Computing force for r={r}")  # Only prints during tracing!
    return G * m1 * m2 / r**2

print("First call:")
f1 = bad_gravitational_force(1e30, 1e30, 1e11)
print("\nSecond call:")
f2 = bad_gravitational_force(1e30, 1e30, 2e11)  # No print output!
_report({"jit(bad_compute_energy)", "jit(good_compute_energy)", "jit(bad_gravitational_force)"}, 6)  # scaffolding
