# source: validation/threads/heldout5/gresearch1187_fresh_optimizer_static_per_path.py, a trainer method builds the optimizer per run and passes it by keyword to static_argnames
# expect: JIT402 at line 22
# runtime: COMPILES 3 CALLS 3
from functools import partial

import jax
import jax.numpy as jnp
import optax


@partial(jax.jit, static_argnames=("optimizer",))
def apply_grads(params, state, optimizer):
    updates, state = optimizer.update(jnp.ones_like(params), state)
    return params + updates, state


class Runner:
    def run(self, lr):
        opt = optax.adam(lr)
        params = jnp.zeros(2)
        state = opt.init(params)
        params, state = apply_grads(params, state, optimizer=opt)  # <-
        return params


runner = Runner()
for lr in (0.1, 0.1, 0.1):
    print(runner.run(lr))
