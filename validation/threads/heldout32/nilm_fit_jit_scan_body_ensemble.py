# source: https://github.com/VibhutiBansal-11/NILM_Uncertainty/blob/2dc8f1a37165ad1f519ce7df7bb9510bc54ae805/notebooks/dishwasher/s2p/mlp/experiment.ipynb
# expect: none
# runtime: COMPILES 3 CALLS 3
# why: fit() defines a fresh @jax.jit one_epoch in its body and the notebook builds jax.jit(jax.vmap(...)) inline around a jax.tree_util.Partial, which look like jits rebuilt per call, but one_epoch only serves as a lax.scan body (traced once per fit) and each inline jit is called once, so every jitted computation compiles exactly once.

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
import jax
import jax.numpy as jnp
import flax.linen as nn
import optax
import numpy as np  # scaffolding
from functools import partial


# --- models/seq2point.py ---
class seq2point(nn.Module):
    @nn.compact
    def __call__(self, X, deterministic):
        X = nn.Conv(30, kernel_size=(10,))(X)
        X = nn.relu(X)
        X = nn.Conv(30, kernel_size=(8,))(X)
        X = nn.relu(X)        
        X = nn.Conv(40, kernel_size=(6,))(X)
        X = nn.relu(X)
        X = nn.Conv(50, kernel_size=(5,))(X)
        X = nn.relu(X)
        X = nn.Dropout(rate=0.2, deterministic=deterministic)(X)
        X = nn.Conv(50, kernel_size=(5,))(X)
        X = nn.relu(X)
        X = nn.Dropout(rate=0.2, deterministic=deterministic)(X)
        X = X.reshape((X.shape[0], -1))
        X = nn.Dense(1024)(X)
        X = nn.relu(X)
        X = nn.Dropout(rate=0.2, deterministic=deterministic)(X)
        X = nn.Dense(1)(X)
        return X
        
    def loss_fn(self, params, X, y, deterministic, rng):
        yhat = self.apply(params, X, deterministic, rngs={"dropout":rng})
        loss = jnp.mean((y - yhat)**2)
        return loss


# --- utilities/fits.py ---
def fit(
    model,
    params,
    X,
    y,
    deterministic,
    batch_size=32,
    learning_rate=0.01,
    epochs=10,
    rng=jax.random.PRNGKey(0),
):
    opt = optax.adam(learning_rate=learning_rate)
    opt_state = opt.init(params)

    loss_fn = partial(model.loss_fn, deterministic=deterministic)
    loss_grad_fn = jax.value_and_grad(loss_fn)
    losses = []
    total_epochs = (len(X) // batch_size) * epochs

    carry = {}
    carry["params"] = params
    carry["state"] = opt_state

    @jax.jit
    def one_epoch(carry, rng):
        params = carry["params"]
        opt_state = carry["state"]
        idx = jax.random.choice(
            rng, jnp.arange(len(X)), shape=(batch_size,), replace=False
        )
        loss_val, grads = loss_grad_fn(params, X[idx], y[idx], rng=rng)
        updates, opt_state = opt.update(grads, opt_state, params)
        params = optax.apply_updates(params, updates)
        carry["params"] = params
        carry["state"] = opt_state

        return carry, loss_val

    carry, losses = jax.lax.scan(one_epoch, carry, jax.random.split(rng, total_epochs))
    return carry["params"], losses


# --- notebooks/dishwasher/s2p/mlp/experiment.ipynb (cells 10-11, 59-60, 63) ---
_rs = np.random.RandomState(0)  # scaffolding: stand-in for dataset_load(appliances, train, test, 99, split_factor=0.25)
x_train = jnp.asarray(_rs.normal(size=(64, 19, 1)), dtype=jnp.float32)  # scaffolding: windows of 19 instead of 99 samples
y_train = jnp.asarray(_rs.normal(size=(64, 1)), dtype=jnp.float32)  # scaffolding

model = seq2point()

params =  model.init(jax.random.PRNGKey(0), x_train, True)
params, losses = fit(model, params, x_train, y_train, False, batch_size=32, learning_rate=0.001, epochs=2)  # scaffolding: epochs=50

def de_train(x, y, i, model):
    param =  model.init(jax.random.PRNGKey(i),x_train, True)
    param, losses = fit(model, param, x, y, False, batch_size=32, 
                      learning_rate=0.001, epochs=2)  # scaffolding: epochs=50
    return param, losses
    
de_train = jax.tree_util.Partial(de_train, model=model)

def predict(x, param, model):
    yhat = model.apply(param,x,True)
    return yhat
test_ = jax.tree_util.Partial(predict, model=model)

params_list, losses_list = jax.jit(jax.vmap(de_train, in_axes=(None, None, 0)))(x_train, y_train, jnp.arange(2))  # scaffolding: 10 members
y_stacks = jax.jit(jax.vmap(test_, in_axes=(None,0)))(x_train, params_list)
de_train_mean = y_stacks.mean(axis=0)
de_train_sigma= y_stacks.std(axis=0)
_report({"jit(scan)", "jit(de_train)", "jit(predict)"}, 3)  # fit() eagerly, the ensemble, the prediction
