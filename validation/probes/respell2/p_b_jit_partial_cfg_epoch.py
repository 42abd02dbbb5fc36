# source: validation/threads/heldout5/jax2095_jit_of_grad_rebuilt_per_call.py (jax.jit of a freshly made callable in the function called each step), jax.jit(partial(loss, cfg)) in a train_epoch() called from main()
# expect: JIT105 at line 15
# runtime: COMPILES 3 CALLS 3
from functools import partial

import jax
import jax.numpy as jnp


def loss(cfg, w):
    return cfg["scale"] * jnp.sum(w ** 2)


def train_epoch(cfg, w):
    grad_fn = jax.jit(jax.grad(partial(loss, cfg)))  # <-
    return w - 0.1 * grad_fn(w)


def main():
    cfg = {"scale": 2.0}
    w = jnp.ones(2)
    for epoch in range(3):
        w = train_epoch(cfg, w)
    print(w)


main()
