# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.ConcretizationTypeError
# expect: JIT802 at line 11
# runtime: ERROR ConcretizationTypeError
import jax
import jax.numpy as jnp


@jax.jit
def train_step(w, x):
    loss = jnp.mean((x @ w) ** 2)
    history = [float(loss)]
    return w - 0.1 * loss, history


print(train_step(jnp.ones(3), jnp.ones((2, 3))))
