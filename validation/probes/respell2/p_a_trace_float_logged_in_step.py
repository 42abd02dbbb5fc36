# source: validation/threads/heldout5/gymnax83_bool_of_traced_done_in_step.py (a Python conversion of a traced value), as `float(loss)` logged inside the jitted train step, `from jax import jit` decorator
# expect: JIT802 at line 17
# runtime: ERROR ConcretizationTypeError
import jax.numpy as jnp
from jax import grad, jit

history = []


def loss_fn(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@jit
def train_step(w, x, y):
    loss = loss_fn(w, x, y)
    history.append(float(loss))  # <-
    return w - 0.1 * grad(loss_fn)(w, x, y)


x = jnp.ones((8, 3))
y = jnp.zeros(8)
w = jnp.ones(3)
for _ in range(3):
    w = train_step(w, x, y)
print(w, history)
