# source: validation/threads/heldout5/jaxpr5905_global_list_append_in_jit.py (a global list appended in jit), through a module helper, `losses += [...]`
# expect: JIT602 at line 12
# runtime: STALE COMPILES 1 CALLS 3
import jax
import jax.numpy as jnp

losses = []


def record(value):
    global losses
    losses += [value]  # <-


@jax.jit
def step(w):
    loss = jnp.mean(w)
    record(loss)
    return w - 0.1


w = jnp.ones(2)
for _ in range(3):
    w = step(w)
print(len(losses))
