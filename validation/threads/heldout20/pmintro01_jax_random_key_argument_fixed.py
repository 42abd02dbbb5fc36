# source: https://github.com/patemotter/jax-intro/blob/main/01_foundations.ipynb
# expect: none
# runtime: COMPILES 2 CALLS 3
# why: the notebook's fix: the PRNG key is an explicit argument of the jitted random_add, so each call with a new key gives new noise; the vmapped call traces a batched version.
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

# Works perfectly under jit — key is an explicit argument
# The @ decorator is Python shorthand to pass this function through jax.jit()
@jax.jit
def random_add(key, x):
    noise = jax.random.normal(key, shape=x.shape)
    return x + 0.1 * noise

key = jax.random.PRNGKey(42)
x = jnp.ones(4)

# Each call with a different key gives different results
key, k1, k2 = jax.random.split(key, 3)
print("jit + PRNG:")
print(f"  Key 1: {random_add(k1, x)}")
print(f"  Key 2: {random_add(k2, x)}")

# Works perfectly under vmap — one key per batch element
keys = jax.random.split(key, 8)  # 8 independent keys
batch = jnp.ones((8, 4))
results = jax.vmap(random_add)(keys, batch)
print(f"\nvmap + PRNG (8 independent samples):")
print(f"  Shape: {results.shape}")
print(f"  Row 0: {results[0]}")
print(f"  Row 1: {results[1]}")
print("  Each row used a different key → independent noise.")
_report({"jit(random_add)"}, 3)  # scaffolding
