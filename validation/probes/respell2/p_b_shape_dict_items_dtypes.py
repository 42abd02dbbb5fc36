# source: fixtures/shape_churn/weak_type_through_attribute.py / heldout4 desc1781 (Python ints and floats to the same jitted argument), the values from dict.items() of a parameter sweep
# expect: JIT502 at line 15
# runtime: COMPILES 2 CALLS 3
import jax
import jax.numpy as jnp


@jax.jit
def scale(x, factor):
    return x * factor


sweep = {"unit": 1, "half": 0.5, "double": 2}
for name, factor in sweep.items():
    print(name, scale(jnp.ones(2), factor))  # <-
