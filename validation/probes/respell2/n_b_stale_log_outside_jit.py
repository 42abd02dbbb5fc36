# source: validation/threads/heldout5/jaxpr5905_global_list_append_in_jit.py, look-alike: the jitted step returns the loss and the loop records it
# expect: none
# runtime: COMPILES 1 CALLS 3
import jax
import jax.numpy as jnp

losses = []


def record(value):
    global losses
    losses += [value]


@jax.jit
def step(w):
    loss = jnp.mean(w)
    return w - 0.1, loss


w = jnp.ones(2)
for _ in range(3):
    w, loss = step(w)
    record(loss)
print(len(losses))
