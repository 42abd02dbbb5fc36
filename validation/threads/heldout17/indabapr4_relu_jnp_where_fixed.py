# source: https://github.com/deep-learning-indaba/indaba-pracs-2022/pull/4
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the practical's jittable ReLU uses jnp.where(x>0, x, 0), so jax.jit(relu) traces once and the warm-up and timed calls share the compile.
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


# 0_intro_to_ml_using_jax.ipynb as added by PR #4 (83119f9): the jittable ReLU answer and the performance cell
import numpy as np
import jax
import jax.numpy as jnp

# @title Answer to code task (Try not to peek until you've given it a good try!') 
def relu(x):
  return jnp.where(x>0,x,0)
  # Another option - return jnp.maximum(x,0)

# jit our function
relu_jit = jax.jit(relu)

# generate random input
key = jax.random.PRNGKey(42)
num_random_numbers=1000000
x = jax.random.normal(key, (num_random_numbers,))

relu(x).block_until_ready()  # scaffolding: %timeit of the un-jitted version reduced to one call

# Warm up/Compile - first run for jitted function 
relu_jit(x).block_until_ready()

# time jitted function
relu_jit(x).block_until_ready()  # scaffolding: %timeit reduced to one call
_report({"jit(relu)"}, 2)  # scaffolding
