# source: validation/threads/heldout5/flaxpr1903_triangular_schedule_if_on_traced_step.py (Python `if` on the traced step in an optax schedule), the optimizer on self.tx, updated in a jitted def nested in a method
# expect: JIT801 at line 10
# runtime: ERROR TracerBoolConversionError
import jax
import jax.numpy as jnp
import optax


def step_decay(step):
    if step < 100:  # <-
        return 1e-2
    return 1e-3


class Learner:
    def __init__(self):
        self.tx = optax.sgd(step_decay, momentum=0.9)

    def fit(self, params, steps):
        opt_state = self.tx.init(params)

        @jax.jit
        def update(params, opt_state):
            grads = 2.0 * params
            updates, opt_state = self.tx.update(grads, opt_state, params)
            return optax.apply_updates(params, updates), opt_state

        for _ in range(steps):
            params, opt_state = update(params, opt_state)
        return params


print(Learner().fit(jnp.ones(3), 2))
