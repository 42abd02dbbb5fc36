# source: look-alike of p_a_spec_remat_default_call: the static argument passed at every call
# expect: none
# runtime: COMPILES 1 CALLS 1
import jax
import jax.numpy as jnp


def block(x, w, activation="tanh"):
    h = x @ w
    return jnp.tanh(h) if activation == "tanh" else jax.nn.relu(h)


block_remat = jax.remat(block, static_argnums=(2,))


@jax.jit
def forward(x, w):
    return block_remat(x, w, "tanh").sum()


print(forward(jnp.ones((2, 3)), jnp.ones((3, 3))))
