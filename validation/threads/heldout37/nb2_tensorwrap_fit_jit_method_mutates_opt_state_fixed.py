# source: https://github.com/Impure-King/base-tensorwrap/blob/ece5ddb0198f759da1d6b2e39c148f5851066756/tensorwrap/nn/models/base_models.py
# expect: none
# runtime: COMPILES 1 CALLS 24
# why: Commit ece5ddb calls self.train_step eagerly, so only the pure value_and_grad function is jitted (compiled once) and the optimizer state advances each step.

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
from typing import Any, Dict, Tuple, Optional

import jax
import numpy as np  # scaffolding
import optax
from jax import numpy as jnp


# --- tensorwrap/experimental/data/arraybased.py at the same commit (trimmed) ---
class Dataset:
    def __init__(self, data) -> None:
        self.data = jax.numpy.array(data)

    def batch(self, batch_size, drop_remainder=True, axis=0):

        # Validating size:
        if len(self.data) < batch_size:
            raise ValueError("batch_size can't be greater than data size.")

        # Finding remainder:
        remainder = self.data.shape[axis]%batch_size

        if drop_remainder:
            batch_data_prep = self.data[0:self.data.shape[axis] - remainder]
        else:
            batch_data_prep = self.data

        batched_data = batch_data_prep.reshape((-1, batch_size) + self.data.shape[1:])
        return Dataset(batched_data)

    def __iter__(self):
        return iter(self.data)


# --- tensorwrap/nn/models/base_models.py (Model.compile / train_step / fit; docstrings and init_params cut) ---
class Model:

    # Used for tracking Model names.
    _name_tracker = 0

    def __init__(self, name:str = "Model") -> None:

        # Trainable Variables are tracked across all subclasses.
        self.trainable_variables = {}

        # Name Tracking Handling:
        self.name = f"{name}:{Model._name_tracker}"
        Model._name_tracker += 1

        # Private attributes that track the state of each method:
        self._init = False
        self._compiled = False

    def compile(self,
                loss,
                optimizer,
                metrics = None) -> None:
        # Checks in Model is initiated.
        if not self._init:
            raise NotImplementedError(
                "Originated from ``model.compile``"
                "The model has not been initialized using ``model.init_params``."
            )

        # Getting the best
        self.loss_fn = loss
        self.optimizer = optimizer
        self.metrics = metrics if metrics is not None else loss

        # Handling compilation state:
        self._compiled = True

        # Prepping the optimizer:
        self.__opt_state = self.optimizer.init(self.trainable_variables)

        def compute_grad(params, x, y):
            y_pred = self.__call__(params, x)
            losses = self.loss_fn(y, y_pred)
            return losses, y_pred

        self._value_and_grad_fn = jax.jit(jax.value_and_grad(compute_grad, has_aux=True))

    def train_step(self,
                   params: Dict[str, Dict[str, jax.Array]],
                   x_train: jax.Array,
                   y_train: jax.Array) -> Tuple[dict, Tuple[int, jax.Array]]:
        (losses, y_pred), grads = self._value_and_grad_fn(params, x_train, y_train)
        updates, self.__opt_state = self.optimizer.update(grads, self.__opt_state)
        params = optax.apply_updates(params, updates)
        return params, (losses, y_pred)


    def fit(self,
            x_train,
            y_train,
            epochs:int = 1,
            batch_size:int = 32):
        if epochs < 1:
            raise ValueError(
                "Originated from ``model.fit``"
                "Epochs must be a positive value."
            )

        if not self._compiled:
            raise NotImplementedError(
                "Originated from ``model.fit``."
                "The model has not been compiled using ``model.compile``."
            )

        # Batching the data:
        X_train_batched, y_train_batched = Dataset(x_train).batch(batch_size), Dataset(y_train).batch(batch_size)

        batch_num = len(x_train)//batch_size
        for epoch in range(1, epochs + 1):
            print(f"Epoch {epoch}/{epochs}")
            for index, (x_batch, y_batch) in enumerate(zip(X_train_batched, y_train_batched)):
                self.trainable_variables, (loss, pred) = self.train_step(self.trainable_variables, x_batch, y_batch)
                metric = self.metrics(y_batch, pred)
                global N_CALLS; N_CALLS += 1  # scaffolding
            print(f"loss: {loss} - metric: {metric}")  # scaffolding: stands in for the loading bar


class Linear(Model):  # scaffolding: stand-in for tw.nn.models.Sequential([tw.nn.layers.Dense(1)])
    def __call__(self, params, x):
        return x @ params["dense"]["kernel"] + params["dense"]["bias"]


def mse(y_true, y_pred):  # scaffolding: stand-in for tw.nn.losses.mse
    return jnp.mean(jnp.square(y_pred - y_true))


N_CALLS = 0  # scaffolding
rng = np.random.default_rng(0)  # scaffolding: stand-in data
x = rng.normal(size=(256, 3)).astype("float32")
y = (x @ np.array([[1.0], [-2.0], [0.5]], "float32") + 0.3).astype("float32")

model = Linear()
model.trainable_variables = {"dense": {"kernel": jnp.zeros((3, 1)), "bias": jnp.zeros((1,))}}  # scaffolding: init_params
model._init = True  # scaffolding
model.compile(loss=mse, optimizer=optax.adam(learning_rate=1e-2))
model.fit(x, y, epochs=3, batch_size=32)
print("opt state after fit:", type(jax.tree_util.tree_leaves(model._Model__opt_state)[0]).__name__)  # scaffolding
print("final loss:", float(mse(y, model(model.trainable_variables, x))))  # scaffolding
_report({"jit(train_step)", "jit(compute_grad)"}, N_CALLS)
