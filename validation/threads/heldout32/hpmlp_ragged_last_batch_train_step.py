# source: https://github.com/Arnaud15/house_prices_mlp/blob/1815d3e78c42240201980d7ab8f3fd165b3e9b59/house_prices_mlp/training_loop.py
# expect: shape-churn at line 264
# runtime: COMPILES 2 CALLS 32
# why: get_dataset batches the 1022 training rows with tf.data .batch(batch_size) without drop_remainder, so the last batch (1022 = 15*64 + 62) has a new shape and jitted_train_step compiles a second time.

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
import os
from copy import deepcopy
from typing import Any, Callable, List, Optional, Tuple

import flax.linen as nn
import jax
import jax.numpy as jnp
import jax.random as random
import numpy as np
import optax
from flax import struct
from flax.training.train_state import TrainState

PRNG = jnp.ndarray
Pytree = Any


class SummaryWriter:  # scaffolding: stand-in for board.SummaryWriter
    def __init__(self, logdir):
        pass

    def scalar(self, *args, **kwargs):
        pass

    def histogram(self, *args, **kwargs):
        pass


# --- train_state.py ---
class TrainStateWithLoss(TrainState):
    loss_fn: Callable = struct.field(pytree_node=False)
    batch_stats: Any


# --- train_utils.py ---

def squared_loss(y, predicted):
    """
    Simple elementwise squared loss.
    """
    return (y - predicted) ** 2


mse_loss = jax.vmap(squared_loss, in_axes=0)


def update_running(obs: float, loss: Optional[float], decay: float):
    """
    Small helper to update an ewma with current value loss, where loss is None
    at initialization.
    """
    assert decay >= 0.0 and decay <= 1.0
    if loss is None:
        return obs
    else:
        return obs * (1.0 - decay) + loss * decay


# --- models.py ---

def init_params(
    rng: PRNG,
    custom_mlp: nn.Module,
    num_input_shape: Tuple[int, ...],
    cat_input_shape: Tuple[int, ...],
    dropout: bool = False,
) -> Pytree:
    """ Initializes pytree parameters for our CustomMLP."""
    if dropout:
        num_input_key, cat_input_key, params_key, dropout_key = random.split(
            rng, num=4
        )
    else:
        num_input_key, cat_input_key, params_key = random.split(rng, num=3)

    num_input = random.normal(num_input_key, shape=num_input_shape)
    cat_input = random.bernoulli(cat_input_key, shape=cat_input_shape).astype(
        int
    )
    base_keys = {"params": params_key}
    if dropout:
        base_keys.update({"dropout": dropout_key})
    batch_stats = None
    return custom_mlp.init(base_keys, num_input, cat_input)


class CustomMLP(nn.Module):
    layer_sizes: List[int]
    vocab_sizes: List[int]
    embed_size: int
    dropout_rate: float = 0.0
    dropout: bool = False
    bias: float = 0.0
    batch_norm: bool = False
    residuals: bool = False

    @nn.compact
    def __call__(self, x_numeric, x_categorical, train=True):
        """Forward method for our custom MLP. Assumes x_numeric and x_cat are dim >=2 arrays."""
        assert len(self.vocab_sizes) == x_categorical.shape[-1]
        dense = [x_numeric]
        for (embed_ix, vocab_size) in enumerate(self.vocab_sizes):
            dense.append(
                nn.Embed(vocab_size, self.embed_size)(
                    x_categorical[:, embed_ix]
                )
            )
        x = jnp.concatenate(dense, axis=1)
        assert (
            x.shape[-1]
            == x_numeric.shape[-1] + x_categorical.shape[-1] * self.embed_size
        )

        for layer_ix, layer_size in enumerate(self.layer_sizes):
            start = x
            if self.batch_norm:
                x = nn.BatchNorm(use_running_average=not train)(x)
            if self.dropout:
                x = nn.Dropout(
                    rate=self.dropout_rate, deterministic=not train
                )(x)
            x = nn.Dense(layer_size)(x)
            if layer_ix != len(self.layer_sizes) - 1:
                x = nn.relu(x)
            else:
                x = x + self.bias
            if self.residuals and x.shape == start.shape:
                x = x + start
        return x


# --- training_loop.py ---

def train_step(rng, x_num, x_cat, y, state: TrainStateWithLoss):
    """Updates the training state on a batch (x_num, x_cat, y) of data.

    We can jit this function because our state subclasses a jax PyTreeNode.
    """

    def pure_loss(params):
        predicted, new_batch_stats = state.apply_fn(
            {"params": params, "batch_stats": state.batch_stats},
            x_num,
            x_cat,
            rngs={"dropout": rng},
            mutable=["batch_stats"],
        )
        loss_items = state.loss_fn(y, predicted)
        return jnp.mean(loss_items), (predicted, new_batch_stats)

    aux, grad_step = jax.value_and_grad(pure_loss, has_aux=True)(state.params)
    loss_step = aux[0]
    predicted_step, batch_stats_updated = aux[1]
    state = state.apply_gradients(
        grads=grad_step, batch_stats=batch_stats_updated["batch_stats"]
    )
    residuals_step = y - predicted_step
    return state, loss_step, residuals_step


def eval_step(rng, x_num, x_cat, y, state: TrainStateWithLoss):
    """Evaluates the current training state on a batch (x_num, x_cat, y) of data.

    We can jit this function because our state subclasses a jax PyTreeNode.
    """

    def pure_loss(params):
        predicted = state.apply_fn(
            {"params": params, "batch_stats": state.batch_stats},
            x_num,
            x_cat,
            rngs={"dropout": rng},
            train=False,
        )
        loss_items = state.loss_fn(y, predicted)
        return jnp.mean(loss_items), predicted

    loss_step, predicted_step = pure_loss(state.params)
    residuals_step = y - predicted_step
    return loss_step, residuals_step


N_CALLS = [0]  # scaffolding


def train(
    rng,
    model,
    optimizer,
    train_dataset,
    eval_dataset,
    num_epochs,
    num_input_shape,
    cat_input_shape,
    smoothing_alpha: float = 0.9,
    hist_every=None,
    print_every=None,
):
    writer = SummaryWriter("logs")
    if hist_every is not None:
        assert isinstance(hist_every, int)
    if print_every is not None:
        assert isinstance(print_every, int)

    rng, init_params_rng = random.split(rng, num=2)
    full_vars = init_params(
        init_params_rng,
        model,
        num_input_shape,
        cat_input_shape,
        dropout=model.dropout,
    )
    params = full_vars["params"]
    batch_stats = full_vars["batch_stats"]

    train_state = TrainStateWithLoss(
        step=0,
        apply_fn=model.apply,
        loss_fn=jax.jit(mse_loss),
        params=params,
        tx=optimizer,
        opt_state=optimizer.init(params),
        batch_stats=batch_stats,
    )
    best_params = None
    best_loss = np.inf
    jitted_train_step = jax.jit(train_step)
    jitted_eval_step = jax.jit(eval_step)

    step = 0
    running_train_loss = None
    running_eval_loss = None
    for epoch_ix in range(num_epochs):
        for (x_num, x_cat, y) in train_dataset:
            rng, rng_step = random.split(rng, num=2)
            train_state, loss_step, res_step = jitted_train_step(
                rng=rng_step, x_num=x_num, x_cat=x_cat, y=y, state=train_state,
            )
            N_CALLS[0] += 1  # scaffolding
            rmse_step = jnp.sqrt(loss_step)
            running_train_loss = update_running(
                obs=rmse_step, loss=running_train_loss, decay=smoothing_alpha,
            )
            if (print_every is not None) and (step % print_every == 0):
                writer.scalar("train_loss", running_train_loss, step=step)
                print(f"Step {step} | Training Loss: {rmse_step:.4f}")
            if (hist_every is not None) and (step % hist_every == 0):
                writer.histogram("train_hist", res_step, bins=5, step=step)

            step += 1
        eval_loss = 0.0
        eval_batches = 0
        for (x_num, x_cat, y) in eval_dataset:
            rng, rng_step = random.split(rng, num=2)
            loss_eval_step, _ = jitted_eval_step(
                rng_step, x_num=x_num, x_cat=x_cat, y=y, state=train_state,
            )
            eval_loss += jnp.sqrt(loss_eval_step)
            eval_batches += 1
        eval_loss /= eval_batches
        running_eval_loss = update_running(
            obs=eval_loss, loss=running_eval_loss, decay=smoothing_alpha
        )

        if eval_loss < best_loss:
            best_params = deepcopy(
                {
                    "params": train_state.params,
                    "batch_stats": train_state.batch_stats,
                }
            )
            best_loss = eval_loss

        writer.scalar("validation_loss", eval_loss, step=epoch_ix)
        print(f"Epoch {epoch_ix + 1} | Validation Loss: {eval_loss:.4f}")
    return best_params, best_loss


# --- main.py house_prices_mlp(), scaffolding: stand-in data of the Kaggle split's size ---
def get_dataset(x_num, x_cat, y_data, batch_size, buffer_size, single_batch=False):  # scaffolding: numpy stand-in for tf.data .batch(batch_size).shuffle(...)
    batches = [(x_num[i:i + batch_size], x_cat[i:i + batch_size], y_data[i:i + batch_size])
               for i in range(0, len(y_data), batch_size)]
    class _Shuffled:
        def __iter__(self):
            order = np.random.permutation(len(batches))
            return iter([batches[i] for i in order])
    return _Shuffled()


_rs = np.random.RandomState(0)  # scaffolding
n_train, n_eval, n_num, cardinalities = 1022, 438, 20, [4, 6, 3]  # scaffolding: 1460 rows, 30% eval
X_num = _rs.normal(size=(n_train + n_eval, n_num)).astype(np.float32)  # scaffolding
X_cat = np.stack([_rs.randint(0, c, size=n_train + n_eval) for c in cardinalities], 1)  # scaffolding
y = (12.0 + 0.1 * X_num[:, 0]).astype(np.float32)[:, None]  # scaffolding
batch_size, hidden_size, n_layers, n_epochs = 64, 32, 2, 2  # scaffolding: one draw of random_params(), 2 epochs

train_dataset = get_dataset(
    x_num=X_num[:n_train],
    x_cat=X_cat[:n_train].astype(int),
    y_data=y[:n_train],
    batch_size=batch_size,
    buffer_size=n_train,
)
eval_dataset = get_dataset(
    x_num=X_num[n_train:],
    x_cat=X_cat[n_train:].astype(int),
    y_data=y[n_train:],
    batch_size=n_eval,
    buffer_size=n_eval,
)
model = CustomMLP(
    layer_sizes=[hidden_size for _ in range(n_layers)] + [1],
    vocab_sizes=[card + 1 for card in cardinalities],
    embed_size=3,
    dropout_rate=0.1,
    dropout=True,
    bias=float(y[:n_train].mean()),
    batch_norm=True,
    residuals=True,
)
trained_params, eval_loss = train(
    rng=random.PRNGKey(12345),
    model=model,
    optimizer=optax.adam(1e-3),
    train_dataset=train_dataset,
    eval_dataset=eval_dataset,
    num_epochs=n_epochs,
    cat_input_shape=(batch_size, X_cat.shape[1],),
    num_input_shape=(batch_size, n_num,),
    hist_every=1,
    print_every=None,
)
_report({"jit(train_step)"}, N_CALLS[0])
