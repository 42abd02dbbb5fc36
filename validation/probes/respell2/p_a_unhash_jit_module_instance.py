# source: validation/threads/heldout6/eqx125_jax_jit_of_module_with_array.py (jax.jit of an equinox Module instance with array fields), a Module built in main() and jitted there as `model = jax.jit(model)`
# expect: JIT301 at line 18
# runtime: ERROR TypeError
import equinox as eqx
import jax
import jax.numpy as jnp


class Scale(eqx.Module):
    weight: jax.Array

    def __call__(self, x):
        return self.weight * x


def main():
    model = Scale(jnp.ones(3))
    model = jax.jit(model)  # <-
    print(model(jnp.arange(3.0)))


main()
