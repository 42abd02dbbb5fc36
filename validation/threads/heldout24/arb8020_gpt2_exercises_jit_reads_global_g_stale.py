# source: https://github.com/arb8020/jax-gpt2-exercises/blob/7c1374ea81bb7847dd0e1631aef6b4f9d1d280b2/jax_gpt2_sols.ipynb
# expect: stale-closure at line 38
# runtime: COMPILES 1 CALLS 3
# why: func reads the global g, which jit bakes into the compiled function as the constant 10 on the first call; after g = 20 the cached func_jit still returns 25 instead of 35 (one compile, stale result).
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
# cell 44
# lets see how JIT interacts with global variables
g = 10
def func(x):
    return x + 5 + g

func_jit = jax.jit(func)
print(func_jit(10))
g = 20
print(func_jit(10)) # what will this output?
jax.make_jaxpr(func_jit)(10)
print("stale:", int(func_jit(10)) != func(10))  # scaffolding: 25 (g baked in as 10) vs 35
_report({"jit(func)"}, 3)  # scaffolding
