# source: look-alike of p_a_unhash_jit_module_instance: eqx.filter_jit of the Module instance
# expect: none
# runtime: COMPILES 1 CALLS 1
import equinox as eqx
import jax
import jax.numpy as jnp


class Scale(eqx.Module):
    weight: jax.Array

    def __call__(self, x):
        return self.weight * x


def main():
    model = Scale(jnp.ones(3))
    model = eqx.filter_jit(model)
    print(model(jnp.arange(3.0)))


main()
