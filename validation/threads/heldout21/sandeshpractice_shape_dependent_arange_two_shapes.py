# source: https://github.com/sandeshkatakam/jax-playground/blob/main/jax_practice_notebook.ipynb
# expect: shape-churn at line 51
# runtime: COMPILES 4 CALLS 4
# why: both jitted functions are called with shapes (3,) and (4,); each compiles once per shape (4 compiles / 4 calls), although the notebook says better_func needs no recompilation.
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
import jax  # scaffolding: from the notebook's setup cell
import jax.numpy as jnp  # scaffolding
from jax import grad, jit, vmap  # scaffolding

@jit
def problematic_func(x):
    """Uses shape in computation - causes recompilation for different shapes"""
    n = x.shape[0]
    return jnp.sum(jnp.arange(n) * x)

@jit
def better_func(x):
    """Uses shape but correctly - broadcasts instead of branching"""
    return jnp.sum(jnp.arange(len(x)) * x)

def test_jit_tracing():
    """Demonstrate JIT recompilation"""
    import warnings
    warnings.filterwarnings('ignore')
    
    print("Testing JIT with different input shapes:\n")
    
    x1 = jnp.array([1.0, 2.0, 3.0])  # shape (3,)
    x2 = jnp.array([1.0, 2.0, 3.0, 4.0])  # shape (4,)
    
    result1 = problematic_func(x1)
    result2 = problematic_func(x2)
    
    print(f"Shape (3,): {result1}")
    print(f"Shape (4,): {result2}")
    print("✓ Works, but recompiled for different shapes")
    print("(In real code, check XLA logs to see recompilation warnings)\n")
    
    # Better approach - works naturally with different shapes
    result1 = better_func(x1)
    result2 = better_func(x2)
    
    print(f"Better func shape (3,): {result1}")
    print(f"Better func shape (4,): {result2}")
    print("✓ No recompilation needed (broadcasting handles both)")  # scaffolding: closing parenthesis missing in the notebook cell

test_jit_tracing()
_report({"jit(problematic_func)", "jit(better_func)"}, 4)  # scaffolding
