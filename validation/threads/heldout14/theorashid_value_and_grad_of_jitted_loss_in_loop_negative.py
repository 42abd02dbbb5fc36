# source: https://theorashid.github.io/notes/linear-model-as-a-neural-network
# expect: none
# runtime: COMPILES 2 CALLS 5
# why: the loop differentiates an already-jitted loss with a fresh jax.value_and_grad wrapper every epoch, but the jitted loss is the same function object, so its primal and tangent pieces compile once and later epochs reuse them.

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


# --- end harness ---
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
import flax.linen as nn
import optax
from flax.training import train_state  # dataclass to keep train state


class LinearRegression(nn.Module):
    def setup(self):
        self.dense = nn.Dense(features=1)

    # or use `@nn.compact` to do this inline
    # Define the forward pass
    def __call__(self, x):
        y_pred = self.dense(x)
        return y_pred


model = LinearRegression()
x_obs = jnp.linspace(0.0, 1.0, 20).reshape(-1, 1)  # scaffolding
y_obs_noisy = 3.0 * x_obs + 1.0  # scaffolding

key = jax.random.PRNGKey(0)
params = model.init(key, x_obs)


@jax.jit
def flax_l2_loss(params, x, y_true):
    y_pred = model.apply(params, x)
    total_loss = optax.l2_loss(y_pred, y_true).sum()
    return total_loss


optimizer = optax.adam(learning_rate=0.001)
state = train_state.TrainState.create(apply_fn=model, params=params, tx=optimizer)

_loss = []
for epoch in range(5):  # scaffolding: 10000 epochs cut to 5
    # Calculate the gradient
    loss, grads = jax.value_and_grad(flax_l2_loss)(state.params, x_obs, y_obs_noisy)
    _loss.append(loss)
    # Update the model parameters
    state = state.apply_gradients(grads=grads)
_report({"jit(flax_l2_loss)"}, 5)  # scaffolding
