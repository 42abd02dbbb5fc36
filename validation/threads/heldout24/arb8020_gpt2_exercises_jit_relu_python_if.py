# source: https://github.com/arb8020/jax-gpt2-exercises/blob/7c1374ea81bb7847dd0e1631aef6b4f9d1d280b2/jax_gpt2_sols.ipynb
# expect: trace-time-error at line 38
# runtime: ERROR TracerBoolConversionError
# why: relu branches with a Python if on its argument; under jax.jit x is a tracer, so 'if x > 0' raises TracerBoolConversionError on the first call.
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


# cell 1
import time
from typing import List, Dict, Tuple, Callable, NamedTuple, Any, Optional
from functools import partial
# cell 5
import jax
import jax.numpy as jnp
# cell 46
# what about working with conditionals?

def relu(x):
  if x > 0:
    return x
  else:
    return 0
try:
    relu_jit = jax.jit(relu)(10)
    result = relu_jit(-1)
    print(result)
except Exception as e:
    print("Error:", str(e))
    print(f"ERROR {type(e).__name__}")  # scaffolding

# since the function's output depends on the input
# its impossible to compile it in the way JAX wants it to behave
