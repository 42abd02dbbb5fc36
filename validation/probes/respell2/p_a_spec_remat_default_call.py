# source: validation/threads/heldout5/pmwd27_checkpoint_static_argnums_default_arg.py (checkpoint static_argnums on a parameter left to its default), jax.remat as a call on a helper, then jitted
# expect: JIT702 at line 13, 18
# runtime: ERROR ValueError
import jax
import jax.numpy as jnp


def block(x, w, activation="tanh"):
    h = x @ w
    return jnp.tanh(h) if activation == "tanh" else jax.nn.relu(h)


block_remat = jax.remat(block, static_argnums=(2,))  # <-


@jax.jit
def forward(x, w):
    return block_remat(x, w).sum()


print(forward(jnp.ones((2, 3)), jnp.ones((3, 3))))
