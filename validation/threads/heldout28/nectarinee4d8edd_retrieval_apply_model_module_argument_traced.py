# source: https://github.com/joseprsm/nectarine/commit/e4d8eddd3e11f190524c56a7ea3d5d4d9ab6e91d
# expect: trace-time-error at line 220
# runtime: ERROR TypeError
# why: apply_model is @jax.jit and takes the flax Recommender module as its first (traced) argument; a linen Module is not a JAX type, so the first training step raises TypeError (the same call is repeated in test_epoch).
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



# ---- nectarine/transform/output.py at e4d8edd^ ----
import jax
import jax.numpy as jnp
from flax import linen as nn


class TransformOutput(nn.Module):
    users: jnp.ndarray
    items: jnp.ndarray

    @nn.compact
    def __call__(
        self, user_id: jnp.ndarray, item_id: jnp.ndarray
    ) -> tuple[jnp.ndarray, jnp.ndarray]:
        user_features = self._get_features(user_id, self.users)
        item_features = self._get_features(item_id, self.items)
        # todo: include context features
        return user_features, item_features

    @staticmethod
    @jax.jit
    def _get_features(ids: jnp.ndarray, data: jnp.ndarray) -> jnp.ndarray:
        ids = ids.reshape(-1, 1)
        features = jnp.take(data, ids, axis=0)
        # todo: confirm features shape is always (1, 1, ..., n)
        if features.shape[-1] != 0:
            features = features.reshape(-1, features.shape[-1])
            return jnp.concatenate([ids, features], axis=1)
        return ids

    def __repr__(self) -> str:
        return (
            f"{self.__class__.__name__}("
            f"users={self.users.shape}, "
            f"items={self.items.shape})"
        )


# ---- nectarine/train/tower.py at e4d8edd^ ----


class Tower(nn.Module):
    n_dims: int
    embedding_dim: int = 32
    layer_sizes: list[int] = None
    name: str = None

    @nn.compact
    def __call__(self, features):
        id_, features = features[:, [0]].astype(int), features[:, 1:]

        x = nn.Embed(
            num_embeddings=self.n_dims,
            embedding_init=nn.initializers.xavier_uniform(),
            features=self.embedding_dim,
        )(id_)

        x = x.reshape(-1, self.embedding_dim)
        x = jnp.concatenate([x, features], axis=1)

        layers = self.layer_sizes or [64, 32]
        for layer in layers[:-1]:
            x = nn.Dense(layer)(x)
            x = nn.relu(x)
        x = nn.Dense(layers[-1])(x)

        return x


# ---- nectarine/train/recommender.py at e4d8edd^ ----

# from ..transform import TransformOutput  # scaffolding: defined above in this file
# from .tower import Tower  # scaffolding: defined above in this file


class Recommender(nn.Module):
    config: dict
    transform: TransformOutput

    @nn.compact
    def __call__(self, user_id: jnp.ndarray, item_id: jnp.ndarray):
        user, item = self.transform(user_id, item_id)
        query_embeddings = Tower(**self.config["query"])(user)
        candidate_embeddings = Tower(**self.config["candidate"])(item)
        return query_embeddings, candidate_embeddings

# ---- scaffolding: pandas is not installed; a minimal stand-in for the DataFrame calls the script makes ----
import numpy as _np  # scaffolding
from types import SimpleNamespace as _NS  # scaffolding


class _DataFrame:  # scaffolding: integer-labelled columns, as the encoded interactions file
    def __init__(self, values):  # scaffolding
        self._v = _np.asarray(values)  # scaffolding
        self.shape = self._v.shape  # scaffolding
        self.values = self._v  # scaffolding

    @property  # scaffolding
    def iloc(self):  # scaffolding
        df = self  # scaffolding

        class _ILoc:  # scaffolding
            def __getitem__(self, key):  # scaffolding: rows, or (rows, columns)
                if isinstance(key, tuple):  # scaffolding
                    rows, cols = key  # scaffolding
                    return _DataFrame(df._v[_np.asarray(rows)][:, cols])  # scaffolding
                return _DataFrame(df._v[key if isinstance(key, slice) else _np.asarray(key)])  # scaffolding
        return _ILoc()  # scaffolding

    def __getitem__(self, cols):  # scaffolding: df[[0, 1]]
        return _DataFrame(self._v[:, cols])  # scaffolding


pd = _NS(DataFrame=_DataFrame)  # scaffolding


# ---- nectarine/train/__main__.py at e4d8edd^ (the click command train() is cut; its body is the scaffolding below) ----
import json
import pickle

# import click  # scaffolding: click is not installed; the click command train() is cut
import jax
import jax.numpy as jnp
import numpy as np
import optax
# import pandas as pd  # scaffolding: stand-in above
from flax.training.train_state import TrainState

# from nectarine.train import Recommender  # scaffolding: defined above


NUM_EPOCHS = 3  # scaffolding: was 10
BATCH_SIZE = 500
LEARNING_RATE = 0.01
EMBEDDING_DIM = 8
TEST_SIZE = 0.3

RNG = jax.random.PRNGKey(0)


def create_train_state(model, rng):
    user_id = jnp.zeros((5, 1), jnp.int32)
    item_id = jnp.zeros((5, 1), jnp.int32)
    params = model.init(rng, user_id, item_id)["params"]

    tx = optax.adam(LEARNING_RATE)
    state = TrainState.create(apply_fn=model.apply, params=params, tx=tx)
    return state


@jax.jit
def apply_model(model, state, user_id, item_id):
    def categorical_crossentropy(y_true, y_pred):
        log_probs = jax.nn.log_softmax(y_pred, axis=-1)
        loss = -jnp.sum(y_true * log_probs)
        return jnp.mean(loss)

    def loss_fn(params):
        query_embeddings, candidate_embeddings = model.apply(
            {"params": params}, user_id, item_id
        )
        query_embeddings = jnp.squeeze(query_embeddings)
        candidate_embeddings = jnp.squeeze(candidate_embeddings)
        scores = jnp.matmul(query_embeddings, jnp.transpose(candidate_embeddings))

        num_queries = scores.shape[0]
        num_candidates = scores.shape[1]

        labels = jnp.eye(num_queries, num_candidates)
        loss = categorical_crossentropy(labels, scores)
        return loss, jnp.array([0.0])

    grad_fn = jax.value_and_grad(loss_fn, has_aux=True)
    (loss, _), grads = grad_fn(state.params)
    return grads, loss


@jax.jit
def update_model(state, grads):
    return state.apply_gradients(grads=grads)


def train_epoch(model, state, train_data: pd.DataFrame, rng):
    steps_per_epoch = train_data.shape[0] // BATCH_SIZE
    batches = jax.random.permutation(rng, train_data.shape[0])
    batches = batches[: steps_per_epoch * BATCH_SIZE]
    batches = batches.reshape((steps_per_epoch, BATCH_SIZE))

    epoch_loss = []

    for batch in batches:
        user_id, item_id = jnp.split(train_data.iloc[batch][[0, 1]].values, 2, axis=1)
        grads, loss = apply_model(model, state, user_id, item_id)
        state = update_model(state, grads)
        epoch_loss.append(loss)

    train_loss = np.mean(epoch_loss)
    return state, train_loss


def test_epoch(model, state, validation_data: pd.DataFrame, rng):
    steps_per_epoch = validation_data.shape[0] // BATCH_SIZE
    batches = jax.random.permutation(rng, validation_data.shape[0])
    batches = batches[: steps_per_epoch * BATCH_SIZE]
    batches = batches.reshape((steps_per_epoch, BATCH_SIZE))

    epoch_loss = []

    for batch in batches:
        user_id, item_id = jnp.split(
            validation_data.iloc[batch][[0, 1]].values, 2, axis=1
        )
        _, loss = apply_model(model, state, user_id, item_id)
        epoch_loss.append(loss)

    test_loss = np.mean(epoch_loss)
    return test_loss


def train_and_evaluate(model, state, train_data, validation_data, rng):
    for epoch in range(1, NUM_EPOCHS + 1):
        state, train_loss = train_epoch(model, state, train_data, rng)
        test_loss = test_epoch(model, state, validation_data, rng)
        print(f"epoch: {epoch}, train_loss: {train_loss}, test_loss: {test_loss}")
    return state


# ---- scaffolding: train()'s body with stand-in data (the encoded csv, schema and pickled transform layer are not available) ----
_rs = _np.random.RandomState(0)  # scaffolding
df = _DataFrame(_np.stack([_rs.randint(0, 50, 2200), _rs.randint(0, 80, 2200)], axis=1))  # scaffolding: 2200 (user, item) interactions
transform_layer = TransformOutput(users=jnp.asarray(_rs.rand(50, 3), jnp.float32), items=jnp.asarray(_rs.rand(80, 4), jnp.float32))  # scaffolding
model_config = {"query": {"n_dims": 50, "embedding_dim": EMBEDDING_DIM}, "candidate": {"n_dims": 80, "embedding_dim": EMBEDDING_DIM}}  # scaffolding
cutoff = np.floor(df.shape[0] * TEST_SIZE).astype(int)  # scaffolding: as in train()
validation_data, train_data = df.iloc[:cutoff], df.iloc[cutoff:]  # scaffolding: as in train()
model = Recommender(config=model_config, transform=transform_layer)  # scaffolding: as in train()
rng, init_rng = jax.random.split(RNG)  # scaffolding: as in train()
state = create_train_state(model, init_rng)  # scaffolding: as in train()
try:  # scaffolding
    state = train_and_evaluate(model, state, train_data, validation_data, rng)  # scaffolding: as in train()
    _report({"jit(apply_model)"}, NUM_EPOCHS * 4)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
