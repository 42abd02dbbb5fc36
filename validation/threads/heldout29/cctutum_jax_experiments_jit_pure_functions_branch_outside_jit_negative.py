# source: https://github.com/cctutum/JAX_experiments/blob/9934ac317799d0687111135302e370c55829b813/LinkedInLearning_Learning_Jax/02_JITandPureFunctions.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the notebook's own rewrite keeps the `if x > 0` in plain Python and jits only exp_func; jit(exp_func) re-wrapped inside f_inner_jitted hits the same cache, so exp_func compiles once for two calls.
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




# (cells 1-28, the first part of the notebook, are another file)  # scaffolding
# cell 29
import jax
import jax.numpy as jnp

from jax import jit, grad, random
# cell 30
def relu(x):
    return jnp.maximum(0.0, x)
# cell 31
print(jax.make_jaxpr(relu)(5.))
# cell 32
# This is an example to understand why Jax JIT-function doesn't work with global variables
input_list = []

def sigmoid(x):
    global input_list
    input_list.append(x)
    res = 1.0 / (1.0 + jnp.exp(-x))
    return res

print(jax.make_jaxpr(sigmoid)(5.0))
# (cell 33, jax.jit(f) with `if x > 0`, raises TracerBoolConversionError; it is the other file)  # scaffolding
# cell 34
@jit
def exp_func(x):
    return 3 * x**3 + 2 * x**2 + 5 * x
# cell 35
def f_inner_jitted(x):
    if x > 0:
        return jit(exp_func)(x)
    else:
        return 2 * x

f_inner_jitted(10)
print(f_inner_jitted(10))  # scaffolding: the cell's displayed value (3250)
_report({"jit(exp_func)"}, 2)  # scaffolding
