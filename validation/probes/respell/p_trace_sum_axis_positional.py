# source: ../shared/realworld/cases2/jaxpr4412_jit_sum_traced_axis.py (a traced axis to jnp.sum), positional and through an alias of jnp
# expect: JIT802 at line 10
# runtime: ERROR ConcretizationTypeError
import jax
import jax.numpy as np


@jax.jit
def total(x, ax):
    return np.sum(x, ax)  # <-


print(total(np.ones((2, 3)), 1))
