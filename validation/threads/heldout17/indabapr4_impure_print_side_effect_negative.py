# source: https://github.com/deep-learning-indaba/indaba-pracs-2022/pull/4
# expect: none
# runtime: COMPILES 2 CALLS 3
# why: the print inside the jitted function runs only while tracing, so "Print me!" appears on the first call and after the input shape changes, but every call returns its input correctly (4., 5., [5.]); jax.jit re-applied in each cell shares one cache, and only the new shape recompiles.
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


# 0_intro_to_ml_using_jax.ipynb as added by PR #4 (83119f9): the "Side-effects" cells, in order
import jax
import jax.numpy as jnp

def impure_print_side_effect(x):
  print("Print me!")  # This is a side-effect 
  return x

# The side-effects appear during the first run  
print("First call: ", jax.jit(impure_print_side_effect)(4.))

# Subsequent runs with parameters of same type and shape may not show the side-effect
# This is because JAX now invokes a cached compilation of the function
print("Second call: ", jax.jit(impure_print_side_effect)(5.))

# JAX re-runs the Python function when the type or shape of the argument changes
print("Third call, different type: ", jax.jit(impure_print_side_effect)(jnp.array([5.])))
_report({"jit(impure_print_side_effect)"}, 3)  # scaffolding
