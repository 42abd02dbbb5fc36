# source: https://github.com/ChrisAGBlake/jax-experiments/blob/57e4dafd8227e8e42fd4814ead0b3009ce97452e/mlp.py
# expect: shape-churn at line 81
# runtime: COMPILES 2 CALLS 16
# why: the while loop slices x[j:e] with e = min(data_sz, j+batch_size), so the last batch of each epoch has a different shape and the jitted step compiles a second time.
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

import jax
import jax.numpy as jnp
from flax import linen as nn
import optax

class MLP(nn.Module):
    features: tuple

    @nn.compact
    def __call__(self, x):
        for feat in self.features[:-1]:
            x = nn.Dense(feat)(x)
            x = nn.relu(x)
        x = nn.Dense(self.features[-1])(x)
        return x
    
def train():

    # set hyperparameters
    key = jax.random.PRNGKey(0)
    lr = 1e-4
    batch_size = 128
    n_epochs = 2  # scaffolding: 10 in the repository
    n_in = 5
    n_out = 1

    # initialise model and optimiser
    model = MLP(features=(32, 32, n_out))
    optimiser = optax.adam(lr)
    params = model.init(key, jnp.empty((1, n_in)))
    opt_state = optimiser.init(params)
    
    # generate random data
    data_sz = 1000  # scaffolding: 100000 in the repository (1000 % 128 = 104 keeps a partial last batch, as 100000 % 128 = 32 does)
    x = jax.random.uniform(key, (data_sz, n_in), minval=0.0, maxval=1.0)
    y = jnp.expand_dims(jnp.sum(x, axis=1), axis=1)

    # define the loss function
    def loss_fn(params, inputs, labels):
        preds = model.apply(params, inputs)
        return jnp.mean(jnp.square(labels - preds))
    
    # define the update step
    @jax.jit
    def step(params, opt_state, inputs, labels):
        loss, grads = jax.value_and_grad(loss_fn)(params, inputs, labels)
        updates, opt_state = optimiser.update(grads, opt_state)
        params = optax.apply_updates(params, updates)
        return params, opt_state, loss

    # train for n epochs
    for i in range(n_epochs):
        j = 0
        l = 0
        while j < data_sz:
            e = min(data_sz, j+batch_size)
            params, opt_state, loss = step(params, opt_state, x[j:e, :], y[j:e, :])
            l += loss
            j = e
        l /= int(data_sz / batch_size)
        print(f'epoch {i}, loss: {l}')

if __name__ == '__main__':
    train()
    _report({"jit(step)"}, 2 * 8)  # scaffolding: 2 epochs x 8 batches