# source: ../shared/realworld/cases2/jaxpr3656_jit_one_hot_num_classes.py (one_hot's num_classes traced), positional in a nested function
# expect: JIT802 at line 10
# runtime: ERROR ConcretizationTypeError
import jax
import jax.numpy as jnp


def build():
    def encode(labels, k):
        return jax.nn.one_hot(labels, k)  # <-

    return jax.jit(encode)


print(build()(jnp.array([0, 2]), 3))
