# source: https://crackedaicode.com/problems/jax-jit-with-grad-composition
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: jax.jit(jax.grad(loss)) is built once at module level and called repeatedly with the same argument types, so the gradient program compiles on the first call and is reused.

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
import jax, jax.numpy as jnp


def loss(w, x):
    return jnp.sum((w * x) ** 2)


# Three equivalent uses:
grad_only = jax.grad(loss)
jit_grad = jax.jit(jax.grad(loss))
value_grad_jit = jax.jit(jax.value_and_grad(loss))

# First call traces and compiles:
jit_grad(2.0, jnp.array([1.0, 3.0]))   # → 40.0  (compiled now)
jit_grad(2.0, jnp.array([1.0, 3.0]))   # → 40.0  (uses cache)
jit_grad(3.0, jnp.array([2.0, 5.0]))   # scaffolding: new values, same types
_report({"jit(loss)"}, 3)  # scaffolding
