# source: https://github.com/andrinr/IC-prediction/commit/e1ba1546e0b686fbf4de9949bf8f16b1372df2c7
# expect: bad-static-spec at line 76
# runtime: ERROR TypeError
# why: Commit 94defa6 inserted a new `parameters` argument into learn_batch/predict_batch but kept static_argnums=[2, 4], which now point at model_params and optimizer_state, so model_static (with its activation function) is traced and the first learn_batch call raises TypeError.

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
# ---- src/nn/trainer.py at 94defa6 (MSc-thesis experiment repo) ----
import jax.numpy as jnp
import jax
import optax
import equinox as eqx
from functools import partial
import time

@partial(jax.jit, static_argnums=1)
def mse_loss(
        model_params : list,
        model_static : eqx.Module,
        parameters : jax.Array,
        state : jax.Array,
        next_state : jax.Array):

    
    
    model = eqx.combine(model_params, model_static)
    next_pred = jax.vmap(model)(state)
    mse = jnp.mean((next_state - next_pred) ** 2)

    return mse, next_pred

@partial(jax.jit, static_argnums=[2])
def predict_batch(
        sequence : jax.Array,
        parameters : jax.Array,
        model_params,
        model_static : eqx.Module):
    
    n_frames = sequence.shape[1]

    total_loss = 0

    for i in range(n_frames-1):
        loss, pred = mse_loss(
            model_params,
            model_static, 
            parameters[:, i],
            sequence[:, i],
            sequence[:, i+1])
        
        total_loss += loss

    return total_loss

@partial(jax.jit, static_argnums=[2, 4])
def learn_batch(
        sequence : jax.Array,
        parameters : jax.Array,
        model_params,
        model_static : eqx.Module,
        optimizer_state : optax.OptState,
        optimizer_static):
    """
    Learn model on batch of sequences.

    shape of sequence:
    [Batch, Frames, Channels, Depth, Height, Width]
    """

    n_frames = sequence.shape[1]
    value_and_grad = eqx.filter_value_and_grad(mse_loss, has_aux=True)

    total_loss = 0

    for i in range(n_frames-1):
        (loss, pred), grad = value_and_grad(
            model_params,
            model_static, 
            parameters[:, i],
            sequence[:, i],
            sequence[:, i+1])
        
        updates, optimizer_state = optimizer_static.update(grad, optimizer_state)

        model = eqx.combine(model_params, model_static)
        model = eqx.apply_updates(model, updates)
        model_params, model_static = eqx.partition(model, eqx.is_array)

        total_loss += loss

    return model_params, optimizer_state, total_loss

def train_model(
        model_params,
        model_static : eqx.Module,
        train_data_iterator,
        val_data_iterator,
        learning_rate : float,
        n_epochs : int):
    
    optimizer = optax.adam(learning_rate)
    optimizer_state = optimizer.init(model_params)

    training_loss = []
    validation_loss = []
    timestamps = []

    start = time.time()
    for epoch in range(n_epochs):
        epoch_train_loss = []
        epoch_val_loss = []

        for _, data in enumerate(train_data_iterator):
            data_d = jax.device_put(data['sequence'], jax.devices('cpu')[0])  # scaffolding: device was 'gpu'
            parameters_d = jax.device_put(data['parameteres'], jax.devices('cpu')[0])  # scaffolding: device was 'gpu'

            model_params, optimizer_state, loss = learn_batch(
                data_d,
                parameters_d,
                model_params,
                model_static,
                optimizer_state,
                optimizer)
            epoch_train_loss.append(loss)

        for _, data in enumerate(val_data_iterator):
            data_d = jax.device_put(data['sequence'], jax.devices('cpu')[0])  # scaffolding: device was 'gpu'
            parameters_d = jax.device_put(data['parameteres'], jax.devices('cpu')[0])  # scaffolding: device was 'gpu'

            loss = predict_batch(
                data_d,
                parameters_d,
                model_params,
                model_static)
            epoch_val_loss.append(loss)
        
        epoch_train_loss = jnp.array(epoch_train_loss)
        epoch_val_loss = jnp.array(epoch_val_loss)
        print(f"epoch {epoch}, train loss {epoch_train_loss.mean()}")
        print(f"epoch {epoch}, val loss {epoch_val_loss.mean()}")
        training_loss.append(epoch_train_loss.mean())
        validation_loss.append(epoch_val_loss.mean())
        timestamps.append(time.time() - start)

    return model_params, jnp.array(training_loss), jnp.array(validation_loss), jnp.array(timestamps)

# ---- scaffolding: stand-ins for the model and the DALI train/validation iterators ----
import numpy as np  # scaffolding


class Dummy(eqx.Module):  # scaffolding: small model with an activation field, like the thesis' UNet/FNO
    conv: eqx.nn.Conv3d
    activation: callable

    def __init__(self, activation, key):
        self.conv = eqx.nn.Conv3d(1, 1, 3, padding=1, key=key)
        self.activation = activation

    def __call__(self, x):
        return self.activation(self.conv(x))


model = Dummy(activation=jax.nn.relu, key=jax.random.key(0))  # scaffolding
model_params, model_static = eqx.partition(model, eqx.is_array)  # scaffolding (as in the training script)
_rng = np.random.default_rng(0)  # scaffolding
def _batch():  # scaffolding: [Batch, Frames, C, D, H, W] and per-frame parameters
    return {"sequence": _rng.normal(size=(2, 3, 1, 4, 4, 4)).astype(np.float32),
            "parameteres": _rng.normal(size=(2, 3, 1)).astype(np.float32)}
train_data_iterator = [_batch() for _ in range(2)]  # scaffolding
val_data_iterator = [_batch()]  # scaffolding
_calls = [0]  # scaffolding: count learn_batch/predict_batch calls
_learn_batch, _predict_batch = learn_batch, predict_batch  # scaffolding
def learn_batch(*a):  # scaffolding
    _calls[0] += 1
    return _learn_batch(*a)
def predict_batch(*a):  # scaffolding
    _calls[0] += 1
    return _predict_batch(*a)
try:  # scaffolding
    out = train_model(model_params, model_static, train_data_iterator, val_data_iterator, 0.003, 2)  # scaffolding: 2 epochs
    _report({"jit(learn_batch)", "jit(predict_batch)", "jit(mse_loss)"}, _calls[0])  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
