# source: https://optax.readthedocs.io/en/latest/api/optimizers.html#lbfgs
# expect: JIT502 at line 28
# runtime: COMPILES 2 CALLS 3
# (negative for JIT520: the jitted step is its fix; but the L-BFGS init state is weakly typed and
# the step returns it strongly typed, so the step compiles twice: optax PR #1108, JIT502)
import jax
import jax.numpy as jnp
import optax


def objective(x):
    return jnp.sum((x - 1.0) ** 2)


opt = optax.lbfgs()
value_and_grad = optax.value_and_grad_from_state(objective)


@jax.jit
def step(params, state):
    value, grad = value_and_grad(params, state=state)
    updates, state = opt.update(grad, state, params, value=value, grad=grad, value_fn=objective)
    return optax.apply_updates(params, updates), state


params = jnp.zeros(3)
state = opt.init(params)
for _ in range(3):
    params, state = step(params, state)
print(params)
