# source: validation/threads/heldout5/gresearch1187_fresh_optimizer_static_per_path.py (a new optax optimizer per run passed as a static argument), made by a helper from a config, static_argnums
# expect: JIT402 at line 26
# runtime: COMPILES 3 CALLS 3
import functools

import jax
import jax.numpy as jnp
import optax


def make_optimizer(lr):
    return optax.chain(optax.clip(1.0), optax.sgd(lr))


@functools.partial(jax.jit, static_argnums=2)
def step(params, opt_state, tx):
    grads = jax.tree_util.tree_map(jnp.ones_like, params)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state


params = jnp.zeros(3)
for trial in range(3):
    tx = make_optimizer(0.1)
    opt_state = tx.init(params)
    params, opt_state = step(params, opt_state, tx)  # <-
print(params)
