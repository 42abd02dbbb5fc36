# source: validation/threads/heldout6/jax4257_raise_in_cond_branch_under_jit.py (raise in a lax branch), lax.switch over bound methods of a class, the last one raising, run inside jax.vmap
# expect: JIT811 at line 16
# runtime: ERROR NotImplementedError
import jax
import jax.numpy as jnp


class Activation:
    def relu(self, x):
        return jnp.maximum(x, 0.0)

    def tanh(self, x):
        return jnp.tanh(x)

    def unknown(self, x):
        raise NotImplementedError("no such activation")  # <-

    def __call__(self, kind, x):
        return jax.lax.switch(kind, [self.relu, self.tanh, self.unknown], x)


act = Activation()
print(jax.vmap(act)(jnp.array([0, 1]), jnp.array([-1.0, 0.5])))
