# source: validation/threads/heldout5/ctd15_opt_state_in_static_argnums.py (an optimizer state as a static argument), optax adam's state in a trainer's fit loop, static by name
# expect: JIT301 at line 13
# runtime: ERROR ValueError
from functools import partial

import jax
import jax.numpy as jnp
import optax

optimizer = optax.adam(1e-2)


@partial(jax.jit, static_argnames=("opt_state",))  # <- the marking (the call below raises)
def step(params, opt_state, x):
    grads = jax.grad(lambda p: jnp.sum((x @ p) ** 2))(params)
    updates, opt_state = optimizer.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state


def fit(params, x, epochs=2):
    opt_state = optimizer.init(params)
    for _ in range(epochs):
        params, opt_state = step(params, opt_state=opt_state, x=x)
    return params


print(fit(jnp.ones(3), jnp.ones((4, 3))))
