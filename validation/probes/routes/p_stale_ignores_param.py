# source: issue 27: a jitted step ignores its batch parameter and reads a global batch from another cell
# expect: JIT620 at line 12
# runtime: STALE COMPILES 1 CALLS 3
import jax
import jax.numpy as jnp

data = jnp.ones(3)


@jax.jit
def train_step(params, batch):
    return params - 0.1 * (params - data).mean()


params = jnp.zeros(())
for i in range(3):
    data = jnp.full(3, float(i))
    params = train_step(params, data)
    print(params)
