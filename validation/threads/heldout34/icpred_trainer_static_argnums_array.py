# source: https://github.com/andrinr/IC-prediction/commit/816729d3a2221e3b3f662de9f625aedacbe1ee1d
# expect: bad-static-spec at line 36
# runtime: ERROR TypeError
# why: mse_loss is jitted with static_argnums=3, which marks the next_state array instead of model_static (index 1), so the equinox static half of the model (holding the relu activation) is traced and the call inside learn_batch raises TypeError.

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
# ---- ICG/nn/trainer.py at 09d49077e737c2e16bab519c3acb650792cd711f (MSc-thesis experiment repo) ----
import jax.numpy as jnp
import jax
import optax
import equinox as eqx
from functools import partial
    
@partial(jax.jit, static_argnums=3)
def mse_loss(
        model_params,
        model_static : eqx.Module,
        state : jax.Array,
        next_state : jax.Array):
    
    model = eqx.combine(model_params, model_static)
    next_state_pred = jax.vmap(model)(state)
    mse = jnp.mean((next_state - next_state_pred) ** 2)

    return mse, next_state_pred

@partial(jax.jit, static_argnums=[2, 4])
def learn_batch(
        sequence : jax.Array,
        model_params,
        model_static : eqx.Module,
        optimizer_state : optax.OptState,
        optimizer_static):
    """
    Learn model on batch of sequences.

    shape of sequence:
    [Batch, Frames, Channels, Depth, Height, Width]
    """

    print(sequence.shape)

    n_frames = sequence.shape[1]
    total_grad = []
    value_and_grad = eqx.filter_value_and_grad(mse_loss)

    for i in range(n_frames-1):
        loss, grad = value_and_grad(
            model_params, 
            model_static, 
            sequence[i],
            sequence[i+1])
        
    updates, new_optimizer_state = optimizer_static.update(total_grad, optimizer_state)

    new_params = optax.apply_updates(model_params, updates)

    return new_params, new_optimizer_state, loss

def train_model(
        model_params,
        model_static : eqx.Module,
        data_iterator,
        learning_rate : float,
        n_epochs : int):
    
    optimizer = optax.adam(learning_rate)
    optimizer_state = optimizer.init(model_params)

    training_loss = []
    for epoch in range(n_epochs):
        epoch_loss = []
        for _, data in enumerate(data_iterator):
            sequence_d = jax.device_put(data['sequence'], jax.devices('cpu')[0])  # scaffolding: device was 'gpu'

            model_params, optimizer_state, loss = learn_batch(
                sequence_d,
                model_params,
                model_static,
                optimizer_state,
                optimizer)
            epoch_loss.append(loss)
        
        epoch_loss = jnp.array(epoch_loss)
        print(f"epoch {epoch}, loss {epoch_loss.mean()}")
        training_loss.append(epoch_loss.mean())

    return model_params, jnp.array(epoch_loss)

# ---- scaffolding: stand-ins for ICG/train.py's FNO model and DALI sequence iterator ----
import numpy as np  # scaffolding


class Dummy(eqx.Module):  # scaffolding: small model with an activation field, like nn.FNO/nn.Dummy
    conv: eqx.nn.Conv3d
    activation: callable

    def __init__(self, activation, key):
        self.conv = eqx.nn.Conv3d(1, 1, 3, padding=1, key=key)
        self.activation = activation

    def __call__(self, x):
        return self.activation(self.conv(x))


model = Dummy(activation=jax.nn.relu, key=jax.random.key(0))  # scaffolding
model_params, model_static = eqx.partition(model, eqx.is_array)
_rng = np.random.default_rng(0)  # scaffolding
data_iterator = [{"sequence": _rng.normal(size=(2, 3, 1, 4, 4, 4)).astype(np.float32)} for _ in range(2)]  # scaffolding: [Batch, Frames, C, D, H, W]
_calls = [0]  # scaffolding: count learn_batch calls
_learn_batch = learn_batch  # scaffolding
def learn_batch(*a):  # scaffolding
    _calls[0] += 1
    return _learn_batch(*a)
try:  # scaffolding
    model_params, losses = train_model(
        model_params,
        model_static,
        data_iterator,
        0.003,
        2)  # scaffolding: N_EPOCHS cut from 20
    _report({"jit(learn_batch)", "jit(mse_loss)"}, _calls[0])  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
