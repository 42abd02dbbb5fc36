# source: https://github.com/Kevinobote/90-Days-of-JAX/blob/main/Phase1_Foundations_Core_JAX/Week%202:Automatic%20Differentiation/day_012_control_flow/main.py
# expect: trace-time-error at line 39
# runtime: ERROR ConcretizationTypeError
# why: the lesson's commented-out python_loop_example calls n.item() on the traced n inside @jit, which raises ConcretizationTypeError on the first call.
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
def python_loop_example(n):
    # This loop will unroll at compile time if 'n' is a concrete (static) value.
    # If 'n' is a JAX array whose *value* is unknown at compile time,
    # JAX often warns about Traced<ShapedArray>, and it can lead to inefficiency
    # or errors if the unrolling makes the graph too large.
    result = 0
    # The .item() here would fail if n is a tracer, or force recompilation
    # if it manages to resolve.
    for i in range(n.item()):
        result += i
    return result

try:  # scaffolding
    print(f"python_loop_example(5): {python_loop_example(jnp.array(5))}") # This will actually fail if n is Traced
    _report({"jit(python_loop_example)"}, 1)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
