# source: validation/threads/heldout6/eqx11_module_with_arrays_as_static_self.py (an equinox Module with array fields as a static self), the method jitted after the class with jax.jit(Cls.method, static_argnums=0)
# expect: JIT301 at line 18
# runtime: ERROR ValueError
import equinox as eqx
import jax
import jax.numpy as jnp


class Synapse(eqx.Module):
    W: jax.Array

    def energy(self, x):
        return -0.5 * x @ self.W @ x


energy = jax.jit(Synapse.energy, static_argnums=0)
syn = Synapse(jnp.eye(3))
print(energy(syn, jnp.ones(3)))  # <-
