# source: look-alike of p_a_unhash_eqx_module_static_self: the Module passed traced (no static_argnums)
# expect: none
# runtime: COMPILES 1 CALLS 1
import equinox as eqx
import jax
import jax.numpy as jnp


class Synapse(eqx.Module):
    W: jax.Array

    def energy(self, x):
        return -0.5 * x @ self.W @ x


energy = jax.jit(Synapse.energy)
syn = Synapse(jnp.eye(3))
print(energy(syn, jnp.ones(3)))
