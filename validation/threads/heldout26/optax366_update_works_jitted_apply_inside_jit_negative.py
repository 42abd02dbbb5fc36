# source: https://github.com/google-deepmind/optax/issues/366
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: model.apply is replaced by a jitted wrapper once at module level and called inside the jitted update_works; the nested jit is built once and inlined, so update_works compiles once for 3 steps (the thread is about grad argument order, not jit).
# --- measurement harness: counts XLA backend compiles per jitted function name ---
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")
from jax import monitoring as _monitoring

_COMPILED = []  # one entry per XLA compile, e.g. "jit(step)"


def _on_duration(event, duration_secs, **kwargs):
    if event == "/jax/core/compile/backend_compile_duration":
        _COMPILED.append(kwargs.get("fun_name"))


_monitoring.register_event_duration_secs_listener(_on_duration)


def _report(targets, calls):
    n = sum(1 for name in _COMPILED if name in targets)
    print(f"COMPILES {n} CALLS {calls}")

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
import numpy as np

class Model(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.Dense(64)(x)
        x = nn.tanh(x)
        x = nn.Dense(64)(x)
        x = nn.tanh(x)
        x = nn.Dense(1)(x)
        return x

x = jnp.zeros((1024, 64))
y = jnp.zeros((1024,))

key = jax.random.PRNGKey(0)
example_input = np.zeros((1, 64))
model = Model()
critic_parameters = model.init(key, x)
model.apply = jax.jit(model.apply)
model_optimizer = optax.adam(learning_rate=0.04, eps=1e-5)
model_optimizer_state = model_optimizer.init(critic_parameters)


@jax.jit
def update_works(
    x, y, 
    critic_parameters,
    model_optimizer_state, key
):
    def model_loss(critic_parameters, x, y):
        newvalue = model.apply(critic_parameters, x)
        v_loss = 0.5 * ((newvalue.squeeze() - y.squeeze()) ** 2).mean()
        return v_loss
    loss, grads = jax.value_and_grad(model_loss)(critic_parameters, x, y)
    updates, model_optimizer_state = model_optimizer.update(grads, model_optimizer_state)  # scaffolding: the stored thread is cut here; the standard optax step
    critic_parameters = optax.apply_updates(critic_parameters, updates)  # scaffolding
    return loss, critic_parameters, model_optimizer_state  # scaffolding


for i in range(3):  # scaffolding: a few training steps
    loss, critic_parameters, model_optimizer_state = update_works(x, y, critic_parameters, model_optimizer_state, key)  # scaffolding
print(float(loss))  # scaffolding
_report({"jit(update_works)"}, 3)  # scaffolding
