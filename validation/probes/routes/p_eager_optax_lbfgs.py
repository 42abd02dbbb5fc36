# source: issue 27: optax L-BFGS update runs a line search (lax while) eagerly
# expect: JIT520 at line 17, 18
# runtime: COMPILES 12 CALLS 12
import jax.numpy as jnp
import optax


def objective(x):
    return jnp.sum((x - 1.0) ** 2)


opt = optax.lbfgs()
params = jnp.zeros(3)
state = opt.init(params)
value_and_grad = optax.value_and_grad_from_state(objective)
for _ in range(3):
    value, grad = value_and_grad(params, state=state)
    updates, state = opt.update(grad, state, params, value=value, grad=grad, value_fn=objective)
    params = optax.apply_updates(params, updates)
print(params)
