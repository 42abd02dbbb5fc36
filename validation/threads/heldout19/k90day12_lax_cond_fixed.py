# source: https://github.com/Kevinobote/90-Days-of-JAX/blob/main/Phase1_Foundations_Core_JAX/Week%202:Automatic%20Differentiation/day_012_control_flow/main.py
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the lesson's fix: lax.cond on the traced predicate; three calls with different values share one compile.
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
from jax import jit, lax

@jit
def custom_cond_example(x):
    pred = x > 5.0
    # true_fn and false_fn take 'x' as their operand
    return lax.cond(pred, lambda val: val * 2, lambda val: val + 10, x)

print("\n--- Part 2: `jax.lax.cond` for Conditional Logic ---")
print(f"custom_cond_example(7.0): {custom_cond_example(jnp.array(7.0))}")
print(f"custom_cond_example(3.0): {custom_cond_example(jnp.array(3.0))}")
print(f"custom_cond_example(5.0): {custom_cond_example(jnp.array(5.0))}") # Edge case: 5.0 > 5.0 is False, so +10
_report({"jit(custom_cond_example)"}, 3)  # scaffolding
