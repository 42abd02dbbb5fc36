# source: validation/threads/heldout6/reservoirpy235_static_self_step_ignores_updates.py (a static self whose state another method updates), the state a dict attribute updated by item assignment
# expect: JIT603 at line 16, 19
# runtime: STALE COMPILES 1 CALLS 3
from functools import partial

import jax
import jax.numpy as jnp


class Policy:
    def __init__(self):
        self.hparams = {"eps": 0.5}

    @partial(jax.jit, static_argnums=0)
    def act(self, q):
        return q * (1 - self.hparams["eps"])  # <-

    def decay(self):
        self.hparams["eps"] = self.hparams["eps"] * 0.5  # <-


pol = Policy()
q = jnp.ones(2)
for _ in range(3):
    print(pol.act(q))
    pol.decay()
