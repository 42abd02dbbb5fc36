# source: https://github.com/Arnaud15/house_prices_mlp/commit/bf13dedc3735bf31a13de5c2a0d645025b2155e2
# expect: none
# runtime: COMPILES 2 CALLS 6
# why: Fix: module-level @jax.jit train_step/eval_step over a TrainStateWithLoss whose loss_fn is a pytree_node=False field, so one compile each serves every step.

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
from typing import Any, Callable, Optional, Tuple, List, Sequence

import flax.linen as nn
import jax
import jax.numpy as jnp
import jax.random as random
import numpy as np  # scaffolding
import optax
from flax import struct
from flax.training.train_state import TrainState
from flax.core.frozen_dict import FrozenDict, unfreeze
from flax.traverse_util import flatten_dict, unflatten_dict

Pytree = Any
PRNG = jnp.ndarray


# --- utils.py ---
def squared_loss(y, predicted):
    """
    Simple elementwise squared loss.
    """
    return (y - predicted) ** 2


mse_loss = jax.vmap(jax.jit(squared_loss), in_axes=0)


def update_running(obs: float, loss: Optional[float], decay: float):
    """
    Small helper to update an ewma with current value loss, where loss is None
    at initialization.
    """
    assert decay > 0.0 and decay <= 1.0
    if loss is None:
        return obs
    else:
        return obs * (1.0 - decay) + loss * decay


def init_params(
    rng: PRNG,
    model: nn.Module,
    inputs_shape: Tuple[int],
    extra_keys: List[str] = [],
    bias: Optional[float] = None,
    layer_name: str = "",
) -> Pytree:
    n_extra_keys = len(extra_keys)
    out_keys = random.split(rng, num=3 + n_extra_keys)
    if n_extra_keys:
        rng, rd_input_key, params_key, extra_keys_rngs = (
            out_keys[0],
            out_keys[1],
            out_keys[2],
            out_keys[3:],
        )
    else:
        rng, rd_input_key, params_key = out_keys
        extra_keys_rngs = []
    dummy_input = random.normal(rd_input_key, shape=inputs_shape)
    base_keys = {"params": params_key}
    base_keys.update(
        {name: key for name, key in zip(extra_keys, extra_keys_rngs)}
    )
    params = model.init(base_keys, dummy_input)

    if bias is None:
        return params

    # Add bias to the model in the specified layer
    assert isinstance(bias, float)
    assert isinstance(layer_name, str)
    assert layer_name
    dico = {"/".join(k): v for k, v in flatten_dict(unfreeze(params)).items()}
    new_dico = {
        tuple(key.split("/")): value + bias
        if ("bias" in key) and (layer_name in key)
        else value
        for key, value in dico.items()
    }
    return FrozenDict(unflatten_dict(new_dico))


# --- models.py ---
class Resnet(nn.Module):
    layer_sizes: Sequence[int]
    dropout_rate: float = 0.0
    dropout: bool = False

    @nn.compact
    def __call__(self, x, train=True):
        x_last_shape = x.shape[-1]
        n_layers = len(self.layer_sizes)
        for (layer_ix, layer_size) in enumerate(self.layer_sizes):
            residual = x
            x = nn.Dense(layer_size)(x)
            if layer_ix != n_layers - 1:
                assert (
                    layer_size == x_last_shape
                ), f"incompatible residual shapes x:{x.shape}, layer:{layer_size}"
                x += residual
                x = nn.relu(x)
            if self.dropout:
                x = nn.Dropout(
                    rate=self.dropout_rate, deterministic=not train
                )(x)
        return x


# --- train_state.py ---
class TrainStateWithLoss(TrainState):
    loss_fn: Callable = struct.field(pytree_node=False)


# --- train.py ---
@jax.jit
def train_step(rng, x, y, state: TrainStateWithLoss):
    """Updates the training state on a batch (x, y) of data.

    We can jit this function because our state subclasses a jax PyTreeNode.
    """

    def pure_loss(params):
        predicted = state.apply_fn(
            params, x, rngs={"dropout": rng}
        )  # TODO generalize this dropout arg
        loss_items = state.loss_fn(y, predicted)
        return jnp.mean(loss_items), predicted

    (loss_step, predicted_step), grad_step = jax.value_and_grad(
        pure_loss, has_aux=True
    )(state.params)
    state = state.apply_gradients(grads=grad_step)
    residuals_step = y - predicted_step
    return state, loss_step, residuals_step


@jax.jit
def eval_step(rng, x, y, state: TrainStateWithLoss):
    """Evaluates the current training state on a batch (x, y) of data.

    We can jit this function because our state subclasses a jax PyTreeNode.
    """

    def pure_loss(params):
        predicted = state.apply_fn(
            params, x, rngs={"dropout": rng}
        )  # TODO generalize this rngs arg
        loss_items = state.loss_fn(y, predicted)
        return jnp.mean(loss_items), predicted

    loss_step, predicted_step = pure_loss(state.params)
    residuals_step = y - predicted_step
    return loss_step, residuals_step


N_CALLS = 0  # scaffolding


def train(
    rng,
    model,
    optimizer,
    train_dataset,
    eval_dataset,
    loss_fn,
    num_epochs,
    inputs_shape,
    layer_name,
    bias,
    smoothing_alpha: float = 0.9,
    output_dir=None,
    hist_every=None,
    print_every=None,
    save_every=None,
    load_checkpoint=False,
    single_batch=False,
):
    global N_CALLS  # scaffolding
    rng, init_params_rng = random.split(rng, num=2)
    params = init_params(
        rng=init_params_rng,
        model=model,
        inputs_shape=inputs_shape,
        bias=bias,
        layer_name=layer_name,
    )

    train_state = TrainStateWithLoss(
        step=0,
        apply_fn=model.apply,
        loss_fn=loss_fn,
        params=params,
        tx=optimizer,
        opt_state=optimizer.init(params),
    )

    if single_batch:
        train_dataset = train_dataset[:1]  # scaffolding: list stand-in for .take(1)

    step = 0
    for _ in range(num_epochs):
        running_train_loss = None
        running_eval_loss = None
        for ((x_train, y_train), (x_eval, y_eval)) in zip(train_dataset, eval_dataset):  # scaffolding: stand-in for tfds.as_numpy(tf.data.Dataset.zip(...))
            rng, rng_train, rng_eval = random.split(rng, num=3)
            train_state, loss_step, res_step = train_step(
                rng=rng_train, x=x_train, y=y_train, state=train_state,
            )
            N_CALLS += 1  # scaffolding
            loss_eval_step, _ = eval_step(
                rng_eval, x=x_eval, y=y_eval, state=train_state,
            )
            running_train_loss = update_running(
                obs=loss_step, loss=running_train_loss, decay=smoothing_alpha,
            )
            running_eval_loss = update_running(
                obs=loss_eval_step,
                loss=running_eval_loss,
                decay=smoothing_alpha,
            )
            step += 1
    return params


# --- main.py ---
n_features = 10
n_layers = 3
lr = 5 * 1e-3
num_epochs = 6  # scaffolding: 500 in main.py
batch_size = 32
single_batch = True
n_datapoints = 200
bias = 15.15
train_seed = 123414651

# scaffolding: stand-in for linear_data + get_dataset + train_test_split (tf.data)
_rs = np.random.RandomState(0)
X = _rs.normal(size=(n_datapoints, n_features)).astype(np.float32)
Y = (X.sum(1) + bias).astype(np.float32)
full_dataset = [(X[i:i + batch_size], Y[i:i + batch_size]) for i in range(0, n_datapoints, batch_size)]
train_data, test_data = full_dataset[2:], full_dataset[:2]

train(
    rng=random.PRNGKey(train_seed),
    model=Resnet(
        [n_features for _ in range(n_layers)] + [1],
        dropout=False,
        dropout_rate=0.1,
    ),
    optimizer=optax.adam(lr),
    train_dataset=train_data,
    eval_dataset=test_data,
    loss_fn=mse_loss,
    num_epochs=num_epochs,
    inputs_shape=(n_features,),
    bias=bias,
    layer_name=str(n_layers),
    single_batch=single_batch,
)
_report({"jit(pure_loss)", "jit(train_step)", "jit(eval_step)"}, N_CALLS)
