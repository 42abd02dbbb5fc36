# source: look-alike of p_a_trace_float_logged_in_step: the loss returned and converted outside the jit
# expect: none
# runtime: COMPILES 1 CALLS 3
import jax.numpy as jnp
from jax import grad, jit

history = []


def loss_fn(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@jit
def train_step(w, x, y):
    loss = loss_fn(w, x, y)
    return w - 0.1 * grad(loss_fn)(w, x, y), loss


x = jnp.ones((8, 3))
y = jnp.zeros(8)
w = jnp.ones(3)
for _ in range(3):
    w, loss = train_step(w, x, y)
    history.append(float(loss))
print(w, history)
