# source: ../shared/realworld/cases2/jax4274_weak_type_python_float.py (a Python float, then the jitted output of another dtype), in a loop feeding back
# expect: JIT502 at line 15
# runtime: COMPILES 2 CALLS 3
import jax
import numpy as np


def add(x):
    return x + np.float32(0.5)


add_fast = jax.jit(add)
state = 0.0
for _ in range(3):
    state = add_fast(state)  # <-
print(state)
