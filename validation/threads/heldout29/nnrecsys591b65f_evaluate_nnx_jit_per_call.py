# source: https://github.com/KaiSugahara/nn-recsys/commit/591b65ffcc831cded20853a4b425d935c03133c5
# expect: jit-in-loop-or-body at line 280
# runtime: COMPILES 3 CALLS 63
# why: evaluate() builds nnx.jit(cross_entropy_loss) anew on every call, so each per-epoch evaluation retraces and recompiles the loss: 3 compiles for 3 epochs.
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


# ---- scaffolding: flax_trainer stand-ins (the author's trainer package; only the base classes are used) ----
class BaseLoader:  # scaffolding: flax_trainer.loader.BaseLoader
    pass  # scaffolding


class BaseEvaluator:  # scaffolding: flax_trainer.evaluator.BaseEvaluator
    pass  # scaffolding


# ---- flax_recsys/toolbox.py (parent of 591b65f) ----
from typing import TypeVar

T = TypeVar("T")


def split_array_into_windows(arr: list[T], window_size: int) -> list[list[T]]:
    return [arr[i : (i + window_size)] for i in range(len(arr) - window_size + 1)]


# ---- flax_recsys/encoder/sequential_encoder.py (parent of 591b65f) ----
import itertools
from typing import Generic, Self, TypeVar

ITEM = TypeVar("ITEM", str, int)


class SequentialEncoder(Generic[ITEM]):
    def __init__(
        self,
    ):
        # Initialize
        self.item_map: dict[ITEM, int] = {}

    def fit(
        self,
        sequences: list[list[ITEM]],
    ) -> Self:
        # Re-Initialize
        self.item_map = {}

        # Build item_map
        unique_items = sorted(set(itertools.chain.from_iterable(sequences)))
        self.item_map = dict(zip(unique_items, range(1, len(unique_items) + 1)))

        return self

    def transform(
        self,
        sequences: list[list[ITEM]],
    ) -> list[list[int]]:
        return [
            [self.item_map[item] if item in self.item_map.keys() else 0 for item in seq]
            for seq in sequences
        ]

    def fit_transform(
        self,
        sequences: list[list[ITEM]],
    ) -> list[list[int]]:
        return self.fit(sequences=sequences).transform(sequences=sequences)

    @property
    def item_num(self) -> int:
        return len(self.item_map) + 1


# ---- flax_recsys/loader/sequential_loader.py (parent of 591b65f) ----
import random
from typing import Generic, Self, TypeVar

import jax
import numpy as np
from flax import nnx
# from flax_trainer.loader import BaseLoader  # scaffolding: flax_trainer is not installed; stand-in above
from tqdm.auto import tqdm

# from flax_recsys.encoder.sequential_encoder import SequentialEncoder  # scaffolding: defined above in this file

T = TypeVar("T", str, int)


class SequentialLoader(BaseLoader, Generic[T]):
    def __init__(
        self,
        sequences: list[list[T]],
        encoder: SequentialEncoder,
        batch_size: int,
        rngs: nnx.Rngs,
    ):
        self.sequences = encoder.transform(sequences)
        self.encoder = encoder
        self.batch_size = batch_size
        self.rngs = rngs

    def __iter__(self) -> Self:
        """Prepares for batch iteration"""

        self.__iter_init()
        return self

    def __iter_init(self) -> Self:
        """Prepares for batch iteration"""

        if getattr(self, "batch_index", 1) == 0:
            return self

        random.seed(self.seed)
        shuffled_sequences = random.sample(self.sequences, len(self.sequences))
        self.input_X, self.output_X, self.mask_X, self.nondummy_X = self.__make_dataset(
            sequences=shuffled_sequences
        )

        # Num. of batch
        self.batch_num = self.input_X.shape[1]

        # Initialize batch index
        self.batch_index = 0

        return self

    def __len__(self) -> int:
        """Returns the number of batches

        Returns:
            int: The number of batches
        """

        self.__iter_init()
        return self.batch_num

    def __next__(self) -> tuple[tuple[jax.Array, ...], jax.Array]:
        """Returns data from the current batch

        Returns:
            jax.Array: The input data.
            jax.Array: The target data.
        """

        if self.batch_index >= self.batch_num:
            raise StopIteration()

        else:
            # Extract the {batch_index}-th mini-batch
            input_X, mask_X, nondummy_X = (
                self.input_X[:, (self.batch_index,)],
                self.mask_X[:, (self.batch_index,)],
                self.nondummy_X[:, (self.batch_index,)],
            )
            y = self.output_X[:, (self.batch_index,)]

            # Update batch index
            self.batch_index += 1

            return (input_X, mask_X, nondummy_X), y

    @property
    def seed(self) -> int:
        return jax.random.randint(self.rngs(), (1,), 0, 2**16).tolist()[0]

    def __make_dataset(
        self, sequences: list[list[int]]
    ) -> tuple[jax.Array, jax.Array, jax.Array, jax.Array]:
        # Initialize
        input_X = [[] for _ in range(self.batch_size)]
        output_X = [[] for _ in range(self.batch_size)]
        mask_X = [[] for _ in range(self.batch_size)]
        nondummy_X = [[] for _ in range(self.batch_size)]
        num_by_row = [0 for _ in range(self.batch_size)]

        # Split
        for seq in tqdm(sequences, leave=False, desc="[MAKE DATASET]"):
            i = np.argmin(num_by_row).tolist()
            input_X[i] += seq[:-1]
            output_X[i] += seq[1:]
            mask_X[i] += [0.0] + [1.0] * (len(seq) - 2)
            nondummy_X[i] += [1] * (len(seq) - 1)
            num_by_row[i] += len(seq) - 1

        # Fill dummy values
        batch_num = max(map(len, input_X))
        input_X = [
            [self.encoder.item_num] * (batch_num - len(row)) + row for row in input_X
        ]
        output_X = [
            [self.encoder.item_num] * (batch_num - len(row)) + row for row in output_X
        ]
        mask_X = [[0.0] * (batch_num - len(row)) + row for row in mask_X]
        nondummy_X = [[0] * (batch_num - len(row)) + row for row in nondummy_X]

        # Cast to jax.Array
        input_X = jax.device_put(np.array(input_X))
        output_X = jax.device_put(np.array(output_X))
        mask_X = jax.device_put(np.array(mask_X))
        nondummy_X = jax.device_put(np.array(nondummy_X))

        return input_X, output_X, mask_X, nondummy_X


# ---- flax_recsys/loss_fn.py (parent of 591b65f) ----
import jax
import jax.numpy as jnp
from flax import nnx


def cross_entropy_loss(
    model: nnx.Module, Xs: tuple[jax.Array, ...], y: jax.Array
) -> jax.Array:
    # Prediction
    pred = nnx.softmax(model(*Xs))  # type: ignore

    # Cross Entropy
    logits = pred[jnp.arange(pred.shape[0]), y.reshape(-1)]
    loss = -jnp.mean(jnp.log(logits + 1e-10))

    return loss


# ---- flax_recsys/evaluator/sequential_evaluator.py (parent of 591b65f) ----
from typing import Generic, TypeVar

import jax.numpy as jnp
from flax import nnx
# from flax_trainer.evaluator import BaseEvaluator  # scaffolding: flax_trainer is not installed; stand-in above
from tqdm.auto import tqdm

# from flax_recsys.encoder.sequential_encoder import SequentialEncoder  # scaffolding: defined above in this file
# from flax_recsys.loader.sequential_loader import SequentialLoader  # scaffolding: defined above in this file
# from flax_recsys.loss_fn import cross_entropy_loss  # scaffolding: defined above in this file

T = TypeVar("T", str, int)
Model = TypeVar("Model", bound=nnx.Module)


class SequentialEvaluator(BaseEvaluator, Generic[T, Model]):
    def __init__(
        self,
        sequences: list[list[T]],
        encoder: SequentialEncoder,
        batch_size: int,
    ):
        self.sequences = encoder.transform(sequences)
        self.encoder = encoder

        self.batches = list(
            SequentialLoader(
                sequences=sequences,
                encoder=encoder,
                batch_size=batch_size,
                rngs=nnx.Rngs(0),
            )
        )

    def evaluate(self, model: Model) -> tuple[float, dict[str, float]]:
        calc_cross_entropy_loss = nnx.jit(cross_entropy_loss)

        # Cross entropy
        ce = float(
            jnp.stack(
                [calc_cross_entropy_loss(model, Xs, y) for Xs, y in tqdm(self.batches)]
            ).mean()
        )

        return ce, {"cross_entropy": ce}


# ---- flax_recsys/model/GRU4Rec.py (added in 9e03300, the next commit; the model the evaluator was written for) ----
import jax
from flax import nnx

# from flax_recsys.toolbox import split_array_into_windows  # scaffolding: defined above in this file


class GRU4Rec(nnx.Module, pytree=False):  # scaffolding: was `class GRU4Rec(nnx.Module):`; flax 0.12 rejects plain lists of submodules in pytree Modules (the repo used an older flax)
    """GRU4Rec"""

    def __init__(
        self,
        item_num: int,
        embed_dim: int,
        gru_layer_dims: list[int],
        ff_layer_dims: list[int],
        output_layer_dim: int,
        max_batch_size: int,
        rngs: nnx.Rngs,
    ):
        self.max_batch_size = max_batch_size
        self.gru_layer_dims = gru_layer_dims

        self.item_embedder = nnx.Embed(
            num_embeddings=item_num, features=embed_dim, rngs=rngs
        )

        self.GRUCells = []
        self.carries = []
        for in_features, hidden_features in split_array_into_windows(
            [embed_dim] + gru_layer_dims, window_size=2
        ):
            self.GRUCells.append(
                nnx.GRUCell(
                    in_features=in_features, hidden_features=hidden_features, rngs=rngs
                )
            )
            self.carries.append(
                nnx.Variable(
                    self.GRUCells[-1].initialize_carry(
                        (max_batch_size, hidden_features), rngs=rngs
                    )
                )
            )

        self.ff_linears = [
            nnx.Linear(in_features=in_features, out_features=out_features, rngs=rngs)
            for in_features, out_features in split_array_into_windows(
                ([embed_dim] + gru_layer_dims)[-1:] + ff_layer_dims, window_size=2
            )
        ]

        self.output_linear = nnx.Linear(
            in_features=([embed_dim] + gru_layer_dims + ff_layer_dims)[-1],
            out_features=output_layer_dim,
            rngs=rngs,
        )

    def __call__(self, *Xs: jax.Array) -> jax.Array:
        input_X, mask_X, nondummy_X = Xs

        # Embed Layer
        y = self.item_embedder(input_X[:, 0])

        # GRU Layer(s)
        for i, _ in enumerate(self.GRUCells):
            carry = self.carries[i].value[: input_X.shape[0]] * mask_X
            self.carries[i].value, y = self.GRUCells[i](carry, y)

        # Feedforward Layer(s)
        for linear in self.ff_linears:
            y = linear(y)
            y = nnx.relu(y)

        # Output Layer
        y = self.output_linear(y)

        return y


# ---- scaffolding: synthetic sessions instead of the Amazon-M2 dataset, and three epochs of evaluation ----
import numpy as _np  # scaffolding

_rs = _np.random.RandomState(0)  # scaffolding
sequences = [[f"item{_rs.randint(20)}" for _ in range(_rs.randint(3, 7))] for _ in range(24)]  # scaffolding: 24 sessions over 20 items
encoder = SequentialEncoder().fit(sequences)  # scaffolding
evaluator = SequentialEvaluator(sequences=sequences, encoder=encoder, batch_size=4)  # scaffolding
model = GRU4Rec(item_num=encoder.item_num + 1, embed_dim=8, gru_layer_dims=[8], ff_layer_dims=[8], output_layer_dim=encoder.item_num + 1, max_batch_size=4, rngs=nnx.Rngs(0))  # scaffolding: +1 for the dummy item id
try:  # scaffolding
    for epoch in range(3):  # scaffolding: the trainer calls evaluator.evaluate(model) once per epoch
        loss, metrics = evaluator.evaluate(model)  # scaffolding
    _report({"jit(cross_entropy_loss)"}, 3 * len(evaluator.batches))  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
