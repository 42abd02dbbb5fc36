# source: validation/threads/heldout6/jax7561_list_limits_as_static_arguments.py (a list as a static argument), a list held on self and passed positionally to a static_argnums jit made in __init__
# expect: JIT301 at line 20
# runtime: ERROR ValueError
import jax
import jax.numpy as jnp


def mlp(params, x, sizes):
    for w, n in zip(params, sizes):
        x = jnp.tanh(x @ w[:, :n])
    return x


class Trainer:
    def __init__(self, sizes):
        self.sizes = list(sizes)
        self.forward = jax.jit(mlp, static_argnums=2)

    def predict(self, params, x):
        return self.forward(params, x, self.sizes)  # <-


params = [jnp.ones((3, 3)), jnp.ones((3, 3))]
print(Trainer((3, 2)).predict(params, jnp.ones((1, 3))))
