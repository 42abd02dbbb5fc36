# source: https://github.com/ohovden/TMA4320_proj1/blob/03edf72b09b786771fef56fdf9c18ab3d5398290/jax_intro.ipynb
# expect: none
# runtime: COMPILES 2 CALLS 7
# why: Course JAX intro (cells 30-36): a 100-step Python loop inside a jitted function is unrolled once, and jax.jit(jax.grad(loss)) rebound twice at top level compiles once per function.

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

def slow_function(x):
    """A function with many operations."""
    for _ in range(100):
        x = x @ x.T
        x = x / jnp.linalg.norm(x)
    return x


# JIT-compile the function
fast_function = jax.jit(slow_function)

x = jnp.array([[1.0, 2.0], [3.0, 4.0]])
# Time the non-jitted version
slow_function(x).block_until_ready()  # scaffolding: one call instead of %timeit
# First call includes compilation time
_ = fast_function(x)

# Time the jitted version (after compilation)
for _rep in range(5):  # scaffolding: stands in for %timeit
    fast_function(x).block_until_ready()

def loss(params, x):
    """A simple loss function."""
    return jnp.sum((params - x) ** 2)


# JIT-compiled gradient function
grad_loss = jax.jit(jax.grad(loss))

# Or equivalently
grad_loss = jax.grad(loss)
grad_loss = jax.jit(grad_loss)

params = jnp.array([1.0, 2.0, 3.0])
x = jnp.array([0.0, 0.0, 0.0])
print(f"Gradient: {grad_loss(params, x)}")
_report({"jit(slow_function)", "jit(loss)"}, 7)  # scaffolding
