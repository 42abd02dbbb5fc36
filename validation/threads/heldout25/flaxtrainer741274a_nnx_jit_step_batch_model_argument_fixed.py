# source: https://github.com/KaiSugahara/flax-trainer/commit/741274ab6fbc194a5da4e90e838359962df02da8
# expect: none
# runtime: COMPILES 1 CALLS 12
# why: after the commit step_batch takes the model as an nnx.jit argument (step_batch(self.model, self.opt_state, X, y)), so the gradient is taken on the current parameters: step_batch compiles once for 12 calls and the epoch losses fall (printed stale: False).
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



import types as _types  # scaffolding
import numpy as _np  # scaffolding
import flax as _flax  # scaffolding
_flax.config.update("flax_pytree_module", False)  # scaffolding: the 2024 modules keep lists of layers as plain attributes (pre-0.12 nnx behaviour)
from flax import nnx as _nnx  # scaffolding


class _DataFrame:  # scaffolding: polars.DataFrame stand-in (height, [:, cols].to_numpy(), shape)
    def __init__(self, a):
        self._a = _np.asarray(a, dtype=_np.float32)
        self.height, self.shape = self._a.shape[0], self._a.shape

    def __getitem__(self, idx):
        return _types.SimpleNamespace(to_numpy=lambda: self._a[idx])


pl = _types.SimpleNamespace(DataFrame=_DataFrame)  # scaffolding


class _Optimizer(_nnx.Optimizer):  # scaffolding: the flax<0.11 nnx.Optimizer API the code targets (optimizer keeps .model, update(grads))
    def __init__(self, model, tx):
        super().__init__(model, tx, wrt=_nnx.Param)
        self.model = model

    def update(self, grads):
        super().update(self.model, grads)


_nnx.Optimizer = _Optimizer  # scaffolding


# flax_trainer/loss_fn.py (unchanged by the commit)
import jax
import jax.numpy as jnp
from flax import nnx


def mean_squared_error(model: nnx.Module, X: jax.Array, y: jax.Array) -> jax.Array:
    # Prediction
    pred = model(X)  # type: ignore

    # MSE
    loss = jnp.mean((pred - y) ** 2)

    return loss

# flax_trainer/model/mlp.py (unchanged by the commit)
import jax
from flax import nnx


class RegressionMLP(nnx.Module):
    """Multilayer perceptron model for regression task"""

    def __init__(self, input_layer_dim: int, hidden_layer_dims: list[int], output_layer_dim: int, rngs: nnx.Rngs):
        """Initialize model layer and parameters

        Args:
            input_layer_dim (int): the number of neurons in the input layer.
            hidden_layer_dims (list[int]): the numbers of neurons in the hidden layers.
            output_layer_dim (int): the number of neurons in the output layer.
            rngs (nnx.Rngs): rng key.
        """

        dims = [input_layer_dim] + hidden_layer_dims + [output_layer_dim]
        self.linears = [
            nnx.Linear(in_features=dims[i], out_features=dims[i + 1], rngs=rngs) for i in range(len(dims) - 1)
        ]

    def __call__(self, X: jax.Array) -> jax.Array:
        for linear in self.linears[:-1]:
            X = linear(X)
            X = nnx.relu(X)
        X = self.linears[-1](X)
        return X

# flax_trainer/loader.py (unchanged by the commit)
import math
from dataclasses import dataclass
from typing import Self, final

import jax
# import polars as pl  # scaffolding: stand-in above
from flax import nnx


@dataclass
class BaseLoader:
    seed: int

    @final
    def __post_init__(self):
        self.rngs = nnx.Rngs(self.seed)

    def __iter__(self) -> Self:
        """Prepares for batch iteration"""

        raise NotImplementedError

    def __len__(self) -> int:
        """Returns the number of batches

        Returns:
            int: The number of batches
        """

        raise NotImplementedError

    def __next__(self) -> tuple[jax.Array, jax.Array]:
        """Returns data from the current batch

        Returns:
            jax.Array: The input data.
            jax.Array: The target data.
        """

        raise NotImplementedError


@dataclass
class MiniBatchLoader(BaseLoader):
    df_DATA: pl.DataFrame
    batch_size: int

    def __iter__(self) -> Self:
        """Prepares for batch iteration"""

        # Num. of data
        self.data_size = self.df_DATA.height

        # Num. of batch
        self.batch_num = math.ceil(self.data_size / self.batch_size)

        # Shuffle rows of data
        self.shuffled_indices = jax.random.permutation(self.rngs(), self.data_size)
        self.X, self.y = (
            jax.device_put(self.df_DATA[:, :-1].to_numpy())[self.shuffled_indices],
            jax.device_put(self.df_DATA[:, -1:].to_numpy())[self.shuffled_indices],
        )

        # Initialize batch index
        self.batch_index = 0

        return self

    def __len__(self) -> int:
        """Returns the number of batches

        Returns:
            int: The number of batches
        """

        return self.batch_num

    def __next__(self) -> tuple[jax.Array, jax.Array]:
        """Returns data from the current batch

        Returns:
            jax.Array: The input data.
            jax.Array: The target data.
        """

        if self.batch_index >= self.batch_num:
            raise StopIteration()

        else:
            # Extract the {batch_index}-th mini-batch
            start_index = self.batch_size * self.batch_index
            slice_size = min(self.batch_size, (self.data_size - start_index))
            X, y = (
                jax.lax.dynamic_slice_in_dim(self.X, start_index, slice_size),
                jax.lax.dynamic_slice_in_dim(self.y, start_index, slice_size),
            )

            # Update batch index
            self.batch_index += 1

            return X, y

# flax_trainer/evaluator.py (unchanged by the commit)
import jax
import jax.numpy as jnp
# import polars as pl  # scaffolding: stand-in above
from flax import linen as nn
from flax import nnx


class BaseEvaluator:
    def evaluate(self, model: nnx.Module) -> tuple[float, dict[str, float]]:
        """Calculates test loss and metrics.

        Args:
            model (nn.Module): The Flax model you are training.

        Returns:
            float: The test loss.
            dict[str, float]: The test metrics.
        """

        raise NotImplementedError


class RegressionEvaluator(BaseEvaluator):
    """Evaluator for regression task

    Attributes:
        df_DATA (pl.DataFrame): The testing data.
    """

    def __init__(self, df_DATA: pl.DataFrame):
        self.X = jax.device_put(df_DATA[:, :-1].to_numpy())
        self.y = jax.device_put(df_DATA[:, -1:].to_numpy())

    def evaluate(self, model: nn.Module) -> tuple[float, dict[str, float]]:
        """Calculates test loss and metrics.

        Args:
            model (nn.Module): The Flax model you are training.

        Returns:
            float: The test loss.
            dict[str, float]: The test metrics.
        """

        def calc_mse(X: jax.Array, y: jax.Array) -> jax.Array:
            # Prediction
            pred = model(X)

            # MSE
            loss = jnp.mean((pred - y) ** 2)

            return loss

        # MSE
        mse = float(calc_mse(self.X, self.y))

        return mse, {"mse": mse}

# flax_trainer/logger.py (unchanged by the commit)
from dataclasses import dataclass, field


@dataclass
class Logger:
    """Logger

    Attributes:
        train_metrics (dict[int, dict[str, float]]): Metric scores of the model in the training set by epoch
        test_metrics (dict[int, dict[str, float]]): Metric scores of the model in the testing set by epoch
    """

    train_metrics: dict[int, dict[str, float]] = field(default_factory=dict)
    test_metrics: dict[int, dict[str, float]] = field(default_factory=dict)

    def log_train_loss(self, value: float, epoch_i: int):
        """Logs the training loss for the epoch.

        Args:
            value (float): The value of the training loss
            epoch_i (int): The current epoch index.
        """

        self.train_metrics.setdefault(epoch_i, {})["loss"] = value

    def log_test_loss(self, value: float, epoch_i: int):
        """Logs the testing loss for the epoch.

        Args:
            value (float): The value of the testing loss
            epoch_i (int): The current epoch index.
        """

        self.test_metrics.setdefault(epoch_i, {})["loss"] = value

    def log_test_metrics(self, metrics: dict[str, float], epoch_i: int):
        """Logs the testing metrics for the epoch.

        Args:
            metrics (dict[str, float]): The testing scores by metrics.
            epoch_i (int): The current epoch index.
        """

        for key, value in metrics.items():
            self.test_metrics.setdefault(epoch_i, {})[key] = value

    def early_stopping(self, early_stopping_patience: int, epoch_i: int) -> bool:
        """Checks if the conditions for EARLY STOPPING are met.

        Args:
            early_stopping_patience (int): Number of epochs with no improvement after which training will be stopped.
            epoch_i (int): The current epoch index.

        Returns:
            _type_: Whether the conditions for EARLY STOPPING have been met
        """

        best_epoch_i: int = getattr(self, "_best_epoch_i", 0)
        best_test_loss: float = getattr(self, "_best_test_loss", self.test_metrics[0]["loss"])
        current_test_loss = self.test_metrics[epoch_i]["loss"]

        if best_test_loss >= current_test_loss:
            self._best_epoch_i = epoch_i
            self._best_test_loss = current_test_loss

        else:
            return (epoch_i - best_epoch_i) >= early_stopping_patience

        return False

# flax_trainer/trainer.py after the commit
from dataclasses import dataclass
from typing import Callable, Self

import jax
import jax.numpy as jnp
import optax
from flax import nnx
from tqdm import tqdm

# from .evaluator import BaseEvaluator  # scaffolding: defined above
# from .loader import BaseLoader  # scaffolding: defined above
# from .logger import Logger  # scaffolding: defined above


@dataclass
class Trainer:
    """Trainer for Flax model

    Attributes:
        model (nnx.Module): The Flax model you are training.
        optimizer (optax.GradientTransformation): The optax optimizer.
        train_loader (BaseLoader): The data loader used in training
        loss_fn (Callable[[nnx.Module, jax.Array, jax.Array], jax.Array]): Loss function evaluated in training
        test_evaluator (BaseEvaluator): (Optional) The evaluator for testing. Defaults to None.
        early_stopping_patience (int): (Optional) Number of epochs with no improvement after which training will be stopped. Defaults to 0.
        epoch_num (int): (Optional) Number of training iterations. Defaults to 16.
    """

    model: nnx.Module
    optimizer: optax.GradientTransformation
    train_loader: BaseLoader
    loss_fn: Callable[[nnx.Module, jax.Array, jax.Array], jax.Array]
    test_evaluator: BaseEvaluator | None = None
    early_stopping_patience: int = 0
    epoch_num: int = 16

    def fit(self) -> Self:
        """Trains the model on training data"""

        @nnx.jit
        def step_batch(
            model: nnx.Module,
            opt_state: nnx.Optimizer,
            X: jax.Array,
            y: jax.Array,
        ) -> jax.Array:
            """Updates model parameters on the training batch

            Args:
                model (nnx.Module): The Flax model you are training.
                opt_state (nnx.OptState): The current state of optimizer.
                X (jax.Array): The training input data.
                y (jax.Array): The target data.

            Returns:
                jax.Array: The value of the loss on the batch.
            """

            batch_loss, grads = nnx.value_and_grad(self.loss_fn)(model, X, y)
            opt_state.update(grads)

            return batch_loss

        def step_epoch(epoch_i: int) -> float:
            """Updates model parameters on the epoch

            Args:
                epoch_i (int): The current epoch index.

            Returns:
                float: The value of the loss on the epoch.
            """

            batch_loss_buff: list[jax.Array] = []

            # Train for every batch defined by loader
            pbar = tqdm(iter(self.train_loader))
            pbar.set_description(f"[TRAIN {str(epoch_i).zfill(3)}]")
            for X, y in pbar:
                batch_loss = step_batch(self.model, self.opt_state, X, y)
                batch_loss_buff.append(batch_loss)
                pbar.set_postfix({"batch_loss": batch_loss})

            # Calculate the average of batch loss values
            epoch_loss = float(jnp.mean(jnp.array(batch_loss_buff)))

            return epoch_loss

        def test(epoch_i: int) -> None:
            """Calculates and logs test loss/scores

            Args:
                epoch_i (int): The current epoch index.
            """
            if self.test_evaluator is not None:
                test_loss, test_metrics = self.test_evaluator.evaluate(self.model)
                print(f"[TEST  {str(epoch_i).zfill(3)}]", f"loss={test_loss}")
                self.logger.log_test_loss(test_loss, epoch_i)
                self.logger.log_test_metrics(test_metrics, epoch_i)

        # Initialize logger
        self.logger = Logger()

        # Initialize optimizer
        self.opt_state = nnx.Optimizer(model=self.model, tx=self.optimizer)

        # Test
        test(epoch_i=0)

        # Iterate training {epoch_num} times
        for epoch_i in range(1, self.epoch_num + 1):
            # Train
            epoch_loss = step_epoch(epoch_i)
            self.logger.log_train_loss(epoch_loss, epoch_i)

            # Test
            test(epoch_i)

            # Check early stopping
            if (
                (self.test_evaluator is not None)
                and self.early_stopping_patience > 0
                and self.logger.early_stopping(self.early_stopping_patience, epoch_i)
            ):
                break

        return self


# notebook/00_REGRESSION.ipynb, with random data instead of the California housing set
_rs = _np.random.RandomState(0)  # scaffolding
_data = _np.concatenate([_rs.randn(128, 8), _rs.randn(128, 1)], axis=1)  # scaffolding: 128 rows = 4 batches of 32, 8 features + target
df_TRAIN_DATA = pl.DataFrame(_data)  # scaffolding
model = RegressionMLP(df_TRAIN_DATA.shape[1] - 1, [32, 16, 4, 2], 1, nnx.Rngs(0))
_init_loss = float(mean_squared_error(model, jnp.asarray(_data[:, :-1]), jnp.asarray(_data[:, -1:])))  # scaffolding
trainer = Trainer(
    model=model,
    optimizer=optax.adam(learning_rate=0.01),  # scaffolding: 0.0001 in the notebook
    train_loader=MiniBatchLoader(df_DATA=df_TRAIN_DATA, batch_size=32, seed=0),  # scaffolding: batch_size 512
    loss_fn=mean_squared_error,
    epoch_num=3,  # scaffolding: 512, and no test evaluator
)
trainer = trainer.fit()
_epoch_losses = [trainer.logger.train_metrics[i]["loss"] for i in (1, 2, 3)]  # scaffolding
_now = float(mean_squared_error(model, jnp.asarray(_data[:, :-1]), jnp.asarray(_data[:, -1:])))  # scaffolding
print("epoch losses", _epoch_losses, "initial", _init_loss, "current", _now)  # scaffolding
print("reported losses stay at the initial-parameter loss (stale):", all(abs(l - _init_loss) < 1e-4 for l in _epoch_losses))  # scaffolding
_report({"jit(step_batch)"}, 12)  # scaffolding: 3 epochs x 4 batches
