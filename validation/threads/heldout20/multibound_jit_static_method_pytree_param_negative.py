# source: https://github.com/juliusuberall/multi-bound/blob/main/experiments/jitClassVsNone.py
# expect: none
# runtime: COMPILES 3 CALLS 63
# why: experiment script: a jitted free function, a jitted @staticmethod and a jitted @staticmethod taking a flax struct.PyTreeNode are each warmed up and called in a loop with same-shaped inputs; each compiles once.
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


import time 
import jax.numpy as jnp
from jax import random, jit
from flax import struct
import jax

# This test evaluates the average speed performance between different JIT scenarios involving:
#
# 1. Baseline speed of NOT JIT compiled function
# 2. Speed of JIT compile function
# 3. Speed of static class method which is JIT compiled
# 4. Speed of static class method which is JIT compiled and called with a custom PyTree parameters which update
#
# -> So far results indicate that there is no speed difference between 2. and 3.
# -> Seems like JIT can reduce time to 10% of original function evaluation time

# ------------------------------------------------------------------------------------
# Define functions to evaluate
## 1.
def activation(x):
    return x**2 + x + 5
## 2.
activation_jit = jit(activation)
## 3.
class Model():
    @staticmethod
    @jax.jit
    def activation(x):
        print("⚡ Compiling...")
        return x**2 + x + 5
## 4.
class Params(struct.PyTreeNode):
    params: jax.Array
class Model2():
    def __init__(self, p):
        self.p = p
    @staticmethod
    @jax.jit
    def activation(x:Params):
        print("⚡ Compiling...")
        return x.params**2 + x.params + 5

# ------------------------------------------------------------------------------------
# Measure speed
# Baseline variables
rkey = random.PRNGKey(28)
x = random.normal(rkey,(64))
reps = 20  # scaffolding: 10000 -> 20
print(jax.devices())

## Crucial for JAX to use .block_until_ready() since
## JAX uses asynchronous dispatching and time evaluation 
## would be wrong without this call
### https://docs.jax.dev/en/latest/async_dispatch.html
# 1.
s = time.time()
for _ in range(reps):
    activation(x).block_until_ready()
e = time.time()

# 2.
## JIT warm up to trace and compile function
### https://docs.jax.dev/en/latest/jit-compilation.html#jit-compiling-a-function
activation_jit(x).block_until_ready()
sj = time.time()
for _ in range(reps):
    activation_jit(x).block_until_ready()
ej = time.time()

# 3.
Model.activation(x).block_until_ready()
sjc = time.time()
for _ in range(reps):
    Model.activation(x).block_until_ready()
ejc = time.time()

# 4.
p = Params( params = x)
model = Model2(Params(params = x))
Model2.activation(model.p).block_until_ready()
sjcp = time.time()
for _ in range(reps):
    model.p = Params(Model2.activation(model.p).block_until_ready())
ejcp = time.time()

# ------------------------------------------------------------------------------------
print(f"############################### Speed Results ################################")
print(f"(1) -> Avg. time: {((e - s)/reps * 1000000):.0f}μs")
print(f"(2) -> Avg. time: {((ej - sj)/reps * 1000000):.0f}μs")
print(f"(3) -> Avg. time: {((ejc - sjc)/reps * 1000000):.0f}μs")
print(f"(4) -> Avg. time: {((ejcp - sjcp)/reps * 1000000):.0f}μs")
_report({"jit(activation)"}, 63)  # scaffolding
