import jax
import jax.numpy as jnp

state = jnp.zeros(4)
step = 0

@jax.jit  # expect: JIT102
def advance(s):
    return jnp.cos(s) + 1.0

while step < 5:
    state = advance(state)
    step += 1
print(state.tolist())
