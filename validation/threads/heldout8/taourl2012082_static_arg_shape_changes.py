# source: https://taourl.com/read-2012082.html
# expect: shape-churn at line 53
# runtime: COMPILES 3 CALLS 3
# why: the answer says the second call reuses the trace, but it passes an array of shape (2,) after one of shape (3,), so example_func compiles again; with the static flip on the third call that is 3 compiles for 3 calls, one of them (the shape change) not the static argument's doing.

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

def example_func(static_arg, dynamic_arg):

    if static_arg:

        return dynamic_arg * 2

    else:

        return dynamic_arg + 3

# JIT-compiling with static_arg treated as static

jitted_func = jax.jit(example_func, static_argnums=(0,))

# First call traces with static_arg=True

result1 = jitted_func(True, jnp.array([1, 2, 3])) # Output: [2, 4, 6]

# Second call reuses trace, static_arg cannot change

result2 = jitted_func(True, jnp.array([4, 5])) # Output: [8, 10]

# Changing static_arg requires recompilation

result3 = jitted_func(False, jnp.array([1, 2])) # Recompiles, output: [4, 5]
_report({"jit(example_func)"}, 3)  # scaffolding
