# source: fixtures/shape_churn/weak_type_through_attribute.py, look-alike: the dict sweep's values are all Python floats (one weak float32 signature)
# expect: none
# runtime: COMPILES 1 CALLS 3
import jax
import jax.numpy as jnp


@jax.jit
def scale(x, factor):
    return x * factor


sweep = {"unit": 1.0, "half": 0.5, "double": 2.0}
for name, factor in sweep.items():
    print(name, scale(jnp.ones(2), factor))
