# source: https://github.com/yanisadel/learn-jax/blob/6786c0749eee45a486193aa5bc7ef1ecc3daa44e/learntrix/training/supervised_trainers/runners.py
# expect: none
# runtime: COMPILES 3 CALLS 33
# why: run_train wraps update_fn in a new jax.pmap on every step (and evaluate_fn at every validation), where update_fn is the trainer's jitted method with static self; the pmap cache is keyed on the same bound-method object passed in once, so the step loop does not recompile per step (3 compiles for 33 calls: update twice, evaluate once).
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


# ---- learntrix/types.py ----  # scaffolding: file marker
from jax._src.api import device_put_replicated as _device_put_replicated  # scaffolding: jax 0.10's own implementation of the no-longer-public jax.device_put_replicated

from typing import Dict, NamedTuple

import haiku as hk
import jax.numpy as jnp
import numpy as np
import optax
from typing_extensions import TypeAlias


class Batch(NamedTuple):
    image: np.ndarray
    label: np.ndarray


class TrainingState(NamedTuple):
    params: hk.Params
    opt_state: optax.OptState


Metrics: TypeAlias = Dict[str, jnp.ndarray]
RNGKey: TypeAlias = jnp.ndarray

# ---- learntrix/dataloaders/computer_vision/mnist.py ----  # scaffolding: file marker
from collections.abc import Iterator

import numpy as np  # scaffolding: tensorflow_datasets is not installed; a stand-in with tfds' repeat().batch() semantics


def load_mnist_dataset(  # scaffolding: stand-in for the tfds pipeline (shuffle, repeat, batch -> full batches only)
    split: str,
    *,
    shuffle: bool,
    batch_size: int,
) -> Iterator[Batch]:
    n = 200 if split == "train" else 100  # scaffolding: 200/100 synthetic 28x28x1 uint8 images
    rng = np.random.default_rng(0 if split == "train" else 1)  # scaffolding
    images = rng.integers(0, 256, size=(n, 28, 28, 1), dtype=np.uint8)  # scaffolding
    labels = rng.integers(0, 10, size=n)  # scaffolding
    order = np.tile(rng.permutation(n) if shuffle else np.arange(n), 1000)  # scaffolding: ds.repeat()
    for i in range(0, len(order) - batch_size + 1, batch_size):  # scaffolding: ds.batch(batch_size) on a repeated stream
        idx = order[i:i + batch_size]  # scaffolding
        yield Batch(image=images[idx], label=labels[idx])  # scaffolding

# ---- learntrix/training/losses.py ----  # scaffolding: file marker
from typing import Callable, Tuple

import haiku as hk
import jax
import jax.numpy as jnp



def cross_entropy_loss(
    params: hk.Params,
    batch: Batch,
    forward_fn: Callable[[hk.Params, jax.Array], jax.Array],
    num_classes: int,
) -> Tuple[jax.Array, Metrics]:
    """
    _summary_

    Args:
        params (hk.Params):
            Network's parameters
        batch (Batch):
            Batch of data (containing samples and associated labels)

        forward_fn (Callable[[hk.Params, jax.Array], jax.Array]):
            Function that performs the forward pass.
        num_classes (int):
            The number of classes in the classificaiton problem. Defaults to 2.

    Returns:
        Tuple[jax.Array, Metrics]:
            - jax.Array: loss value
            - Metrics: A Metrics object with loss and accuracy for the batch

    """
    logits = forward_fn(params, batch.image)
    labels = jax.nn.one_hot(batch.label, num_classes)
    loss_value = -jnp.sum(labels * jax.nn.log_softmax(logits)) / batch.image.shape[0]

    predictions_proba = jax.nn.softmax(logits, axis=-1)
    predictions = jnp.argmax(predictions_proba, axis=-1)
    accuracy = jnp.mean(predictions == batch.label)
    pmean_accuracy = jax.lax.pmean(
        accuracy, axis_name="batch"
    )  # Faudra que je vérifie quand num_devices > 1

    metrics: Metrics = {
        "predictions": predictions_proba,
        "loss": loss_value,
        "accuracy": pmean_accuracy,
    }

    return loss_value, metrics

# ---- learntrix/training/supervised_trainers/classification_trainer.py ----  # scaffolding: file marker
from functools import partial
from typing import Callable, Tuple

import haiku as hk
import jax
import optax



class ClassificationTrainer:
    """
    Class used to train a supervised classification model
    """

    def __init__(
        self,
        forward_fn: Callable[[hk.Params, jax.Array], jax.Array],
        loss_fn: Callable[
            [hk.Params, Batch, Callable[[hk.Params, jax.Array], jax.Array], int],
            Tuple[jax.Array, Metrics],
        ],
        optimizer: optax.GradientTransformation,
        num_classes: int = 2,
    ):
        """
        Args:
            forward_fn (Callable[[hk.Params, jax.Array], jax.Array]):
                Function that performs the forward pass.
            loss_fn (Callable[
                        [
                            hk.Params,
                            Batch,
                            Callable[[hk.Params, jax.Array], jax.Array], int],
                            Tuple[jax.Array, Metrics],
                        ]
                    ]
                ):
                Supervised loss function.
            optimizer (optax.GradientTransformation):
                Optax optimizer.
            num_classes (int, optional):
                The number of classes in the classificaiton problem. Defaults to 2.
        """
        self._forward_fn = hk.without_apply_rng(hk.transform(forward_fn))
        self._loss_fn = partial(
            loss_fn, forward_fn=self._forward_fn.apply, num_classes=num_classes
        )
        self._optimizer = optimizer
        self._num_classes = num_classes

    def init(self, random_key: RNGKey, x: jax.Array) -> TrainingState:
        """
        Initializes the state (parameters of the network and of the optimizer)

        Args:
            random_key (RNGKey): Random Key
            x (jax.Array): Array with the shape of the network's input (including
                           batch size)

        Returns:
            TrainingState: Contains network's parameters and optmizer's parameters
        """
        params = self._forward_fn.init(random_key, x)
        opt_state = self._optimizer.init(params)

        return TrainingState(params, opt_state)

    @partial(jax.jit, static_argnums=0)
    def update(
        self, state: TrainingState, batch: Batch
    ) -> Tuple[TrainingState, Metrics]:
        """
        Performs an update on the TrainingState with one batch.

        Args:
            state (TrainingState): Network's and optimizer's parameters
            batch (Batch): Batch of data (containing samples and associated labels)

        Returns:
            Tuple[TrainingState, Metrics]:
                - TrainingState: The updated TrainingState of the training process.
                - Metrics: A Metrics object with loss and accuracy for the batch
        """
        (_, metrics), grads = jax.value_and_grad(self._loss_fn, has_aux=True)(
            state.params, batch
        )
        grads = jax.lax.pmean(grads, axis_name="batch")
        updates, opt_state = self._optimizer.update(grads, state.opt_state)
        params = optax.apply_updates(state.params, updates)

        return TrainingState(params, opt_state), metrics

    @partial(jax.jit, static_argnums=0)
    def evaluate(self, state: TrainingState, batch: Batch) -> Metrics:
        """
        Function that evaluates the model on a batch from the validation set.

        Args:
            state (TrainingState): Network's and optimizer's parameters
            batch (Batch): Batch of data (containing samples and associated labels)

        Returns:
            Metrics:  A Metrics object with loss and accuracy for the batch
        """
        _, metrics = self._loss_fn(state.params, batch)

        return metrics

# ---- learntrix/training/supervised_trainers/runners.py ----  # scaffolding: file marker
from typing import Callable, Iterator, List, Optional, Tuple

import jax
import jaxlib
neptune = None  # scaffolding: neptune is not installed (run_neptune stays None)
from tqdm import tqdm



def run_train(
    update_fn: Callable[[TrainingState, Batch], Tuple[TrainingState, Metrics]],
    evaluate_fn: Callable[[TrainingState, Batch], Metrics],
    state: TrainingState,
    devices: List["jaxlib.xla_extension.Device"],  # scaffolding: quoted (jaxlib.xla_extension is gone in jaxlib 0.10)
    dataset_train: Iterator[Batch],
    dataset_test: Iterator[Batch],
    num_steps: int,
    validation_step: int,
    run_neptune: Optional["neptune.metadata_containers.run.Run"] = None,  # scaffolding: quoted annotation (neptune stand-in)
) -> Tuple[TrainingState, Metrics]:
    """
    Performs training of a classification model on multiple devices.
    It is also possible to add validation steps.

    Args:
        update_fn (Callable[[TrainingState, Batch], Tuple[TrainingState, Metrics]]):
            Function that updates the parameters for a single batch of data.
        evaluate_fn (Callable[[TrainingState, Batch], Metrics]): _description_
            Function that evaluates the model on a batch from the validation set.
        state (TrainingState):
            The current TrainingState of the training process.
        devices (List[jaxlib.xla_extension.Device]):
            List of devices used for training.
        dataset_train (Iterator[Batch]):
            Iterator over batches of training data.
        dataset_test (Iterator[Batch]):
            Iterator over batches of validation data.
        num_steps (int):
            The number of training steps (i.e. total number of batches used)
        validation_step (int):
            Number of steps between validations.
        run_neptune (Optional[neptune.metadata_containers.run.Run], optional):
            Neptune runner for logging metrics. Defaults to None.

    Returns:
        Tuple[TrainingState, Metrics]:
            - TrainingState: The updated TrainingState of the training process.
            - Metrics: A Metrics object with loss and accuracy for every step of
            training and validation
    """

    all_metrics: Metrics = {
        "train_loss": [],
        "train_acc": [],
        "train_step": [],
        "val_loss": [],
        "val_acc": [],
        "val_step": [],
    }

    batch_test = next(dataset_test)
    batch_test = _device_put_replicated(batch_test, devices)  # scaffolding: jax.device_put_replicated is no longer public in jax 0.10

    for step in tqdm(range(1, num_steps + 1)):
        batch = next(dataset_train)
        batch = _device_put_replicated(batch, devices)  # scaffolding: jax.device_put_replicated is no longer public in jax 0.10
        """
        batch = jax.tree.map(
            lambda x: x.reshape((len(devices), -1) + x.shape[1:]),
            batch
            )
        """
        state, metrics = jax.pmap(update_fn, devices=devices, axis_name="batch")(
            state, batch
        )

        train_loss = jax.device_get(metrics["loss"]).mean()
        train_accuracy = jax.device_get(metrics["accuracy"]).mean()

        if run_neptune is not None:
            run_neptune["train/loss"].log(train_loss, step=step)
            run_neptune["train/accuracy"].log(train_accuracy, step=step)

        all_metrics["train_loss"].append(train_loss)
        all_metrics["train_acc"].append(train_accuracy)
        all_metrics["train_step"].append(step)

        if step % validation_step == 0:
            """
            batch_test = jax.tree.map(
                lambda x: x.reshape((len(devices), -1) + x.shape[1:]),
                batch_test
                )
            """
            metrics = jax.pmap(evaluate_fn, devices=devices, axis_name="batch")(
                state, batch_test
            )
            test_loss = jax.device_get(metrics["loss"]).mean()
            test_accuracy = jax.device_get(metrics["accuracy"]).mean()

            if run_neptune is not None:
                run_neptune["test/loss"].log(test_loss, step=step)
                run_neptune["test/accuracy"].log(test_accuracy, step=step)

            all_metrics["val_loss"].append(test_loss)
            all_metrics["val_acc"].append(test_accuracy)
            all_metrics["val_step"].append(step)

    return state, all_metrics

# ---- main.py ----  # scaffolding: file marker
import argparse
import logging
import os

import haiku as hk
import jax
import jax.numpy as jnp
# import neptune  # scaffolding: not installed
import optax
# from dotenv import load_dotenv  # scaffolding: not installed

# (learntrix imports: defined above)  # scaffolding: flattened


def get_parser_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--neptune-project",
        type=str,
        help="Neptune project to which the metrics are logged.",
        default="yanisadel/learn-jax",
    )
    parser.add_argument("--num-steps", type=int, help="Number of steps", default=1000)
    parser.add_argument("--batch-size", type=int, help="Batch size", default=64)
    parser.add_argument("--lr", type=float, help="Learning rate", default=1e-4)
    parser.add_argument(
        "--validation-step", type=int, help="Validation step", default=10
    )
    args = parser.parse_args()
    return args


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)

    # Get command line arguments
    import sys  # scaffolding
    sys.argv = [sys.argv[0], "--neptune-project", "", "--num-steps", "30"]  # scaffolding: no Neptune logging, 30 steps instead of 1000
    args = get_parser_args()

    # Set default device to CPU for JAX
    jax.config.update("jax_platform_name", "cpu")

    # Get devices if any
    devices = jax.devices("cpu")
    num_devices = len(devices)
    print(f"\nDetected the following devices: {tuple(devices)}")

    # Initializing Neptune
    run_neptune = None
    if args.neptune_project != "":
        print("\nInitializing Neptune..")
        load_dotenv("./.env")
        run_neptune = neptune.init_run(
            project=args.neptune_project,
            api_token=os.getenv("NEPTUNE_API_TOKEN"),
        )

        params = {"learning_rate": args.lr, "optimizer": "Adam"}
        run_neptune["parameters"] = params

    # Load data
    print("\nLoading data..")
    data_train = load_mnist_dataset("train", shuffle=True, batch_size=args.batch_size)
    data_test = load_mnist_dataset("test", shuffle=False, batch_size=10000)

    # Network
    def forward_fn(x: jax.Array) -> jax.Array:
        x = x.astype(jnp.float32) / 255.0
        mlp = hk.Sequential(
            [
                hk.Flatten(),
                hk.Linear(300),
                jax.nn.relu,
                hk.Linear(100),
                jax.nn.relu,
                hk.Linear(10),
            ]
        )
        return mlp(x)

    # Get trainer
    print("\nInitializing trainer..")
    trainer = ClassificationTrainer(
        forward_fn=forward_fn,
        loss_fn=cross_entropy_loss,
        optimizer=optax.adam(learning_rate=args.lr),
        num_classes=10,
    )

    # Initializing state
    print("\nInitializing state..")
    training_state = trainer.init(
        jax.random.PRNGKey(0), x=jnp.ones(shape=(32, 28, 28, 1))
    )
    training_state = _device_put_replicated(training_state, devices)  # scaffolding: jax.device_put_replicated is no longer public in jax 0.10

    # Train
    print("\nTraining..")
    state, metrics = run_train(
        update_fn=trainer.update,
        evaluate_fn=trainer.evaluate,
        state=training_state,
        devices=devices,
        dataset_train=data_train,
        dataset_test=data_test,
        num_steps=args.num_steps,
        validation_step=args.validation_step,
        run_neptune=run_neptune,
    )

    print("Training finished")

    # Ending Neptune session
    if run_neptune is not None:
        print("\nEnding Neptune session..")
        run_neptune.stop()
        print("Done")
    _report({"jit(_fun)"}, 33)  # scaffolding: 30 update steps + 3 validations
