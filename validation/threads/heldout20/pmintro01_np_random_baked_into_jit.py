# source: https://github.com/patemotter/jax-intro/blob/main/01_foundations.ipynb
# expect: stale-closure at line 37
# runtime: COMPILES 1 CALLS 5
# why: np.random.randn() runs once at trace time, so the jitted bad_random returns the same 'random' noise on all 5 calls (1 distinct value, 1 compile).
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


import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
import numpy as np  # scaffolding

# np.random inside a jitted function gives the SAME result every call
# because the random call happens at trace time, not execution time.

# The @ decorator is Python shorthand to pass this function through jax.jit()
@jax.jit
def bad_random(x):
    noise = np.random.randn()  # Uses NumPy global state — BAD
    return x + noise

# Call it multiple times
results = [float(bad_random(jnp.array(0.0))) for _ in range(5)]
print("np.random inside jit:")
for i, r in enumerate(results):
    print(f"  Call {i+1}: {r:.6f}")
print("\nSame result every time! The np.random.randn() was baked into the")
print("compiled trace as a constant.")
print("distinct values:", len(set(results)))  # scaffolding
_report({"jit(bad_random)"}, 5)  # scaffolding
