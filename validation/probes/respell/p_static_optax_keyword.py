# source: ../shared/realworld/cases/optax353_optimizer_static_per_train.py (a new optax optimizer as a static argument per call), built by keyword
# expect: JIT402 at line 21
# runtime: COMPILES 3 CALLS 3
import functools

import jax
import jax.numpy as jnp
import optax


@functools.partial(jax.jit, static_argnames="optimizer")
def update(params, grads, state, optimizer):
    updates, state = optimizer.update(grads, state, params)
    return optax.apply_updates(params, updates), state


params = jnp.ones(2)
for lr in (0.1, 0.1, 0.1):
    opt = optax.sgd(learning_rate=lr)
    state = opt.init(params)
    params, state = update(params, jnp.ones(2), state, optimizer=opt)  # <-
print(params)
