# source: https://github.com/jrproal/jax_tutorial/blob/main/02_jit_and_autodiff.ipynb
# expect: none
# runtime: COMPILES 2 CALLS 4
# why: the notebook's two fixes (jnp.where and lax.cond) under @jax.jit; each compiles once for its two calls (2 compiles, 4 calls).
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
import numpy as np
import time

# Solution 1: Use jnp.where (simpler for this case)
# jnp.where is best for simple, element-wise choices.
# Note: It evaluates BOTH branches and then selects the result.
@jax.jit
def square_if_positive_good(x):
    """Square the input if it's positive, otherwise return 0."""
    return jnp.where(x > 0, x ** 2, 0.0)

# Solution 2: Use jax.lax.cond (more general)
# jax.lax.cond acts like a true if-else statement.
# It only executes the branch that matches the condition at runtime.
@jax.jit
def square_if_positive_good_v2(x):
    """Square the input if it's positive, otherwise return 0."""
    return jax.lax.cond(
        x > 0,
        lambda val: val ** 2,  # true branch
        lambda val: 0.0,       # false branch
        x
    )

print("With JIT (using jnp.where):")
print(f"x=5: {square_if_positive_good(5.0)}")
print(f"x=-1: {square_if_positive_good(-1.0)}")

print("\nWith JIT (using jax.lax.cond):")
print(f"x=5: {square_if_positive_good_v2(5.0)}")
print(f"x=-1: {square_if_positive_good_v2(-1.0)}")
_report({"jit(square_if_positive_good)", "jit(square_if_positive_good_v2)"}, 4)  # scaffolding
