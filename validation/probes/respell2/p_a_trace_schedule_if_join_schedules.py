# source: validation/threads/heldout5/flaxpr1903_triangular_schedule_if_on_traced_step.py (Python `if` on the traced step in an optax schedule), a lambda schedule with a conditional expression inside optax.chain, jit as a decorator
# expect: JIT801 at line 8
# runtime: ERROR TracerBoolConversionError
import jax
import jax.numpy as jnp
import optax

schedule = lambda count: 0.1 if count < 5 else 0.01  # <-
tx = optax.chain(optax.clip_by_global_norm(1.0), optax.sgd(schedule))
params = jnp.ones(3)
opt_state = tx.init(params)


@jax.jit
def update(params, opt_state):
    grads = 2.0 * params
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state


params, opt_state = update(params, opt_state)
print(params)
