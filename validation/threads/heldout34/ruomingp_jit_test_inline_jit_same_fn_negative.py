# source: https://github.com/ruomingp/jax_playground/blob/47a213ba92171d60c54718e236a99578bd84c705/jit_test.py
# expect: none
# runtime: COMPILES 2 CALLS 3
# why: jax.jit(f_via_stack) is re-created inline at every call, but it wraps the same module-level function, so the second (2,4) call reuses the cached trace and compile; only the deliberate new (2,3) input compiles again (2 compiles for 3 calls).

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
# ---- jit_test.py (personal JAX playground) ----
import jax
from jax import numpy as jnp

input_stack = []
output_queue = []


def f(x):
    return x + 0.1


def f_from_stack():
    print('f_from_stack')
    x = input_stack.pop(-1)
    return f(x)


def f_via_stack(x):
    input_stack.append(x)
    y = f_from_stack()
    output_queue.append(y)
    return y


# print(jax.jit(f)(jnp.ones((2, 4), dtype=jnp.float32)))
print(jax.jit(f_via_stack)(jnp.ones((2, 4), dtype=jnp.float32)))
print(f'output={output_queue}')
print(jax.jit(f_via_stack)(jnp.zeros((2, 4), dtype=jnp.float32)))
print(f'output={output_queue}')
print(jax.jit(f_via_stack)(jnp.zeros((2, 3), dtype=jnp.float32)))
print(f'output={output_queue}')
_report({"jit(f_via_stack)"}, 3)  # scaffolding
