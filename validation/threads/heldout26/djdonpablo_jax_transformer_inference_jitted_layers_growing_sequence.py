# source: https://github.com/DjDonPablo/jax-transformer/blob/533fec5920a7d5ac2c321eebcb1d6ad6de168182/src/main.py
# expect: shape-churn at line 645
# runtime: COMPILES 36 CALLS 66
# why: inference appends one token to x per step and runs the eager Transformer.forward, whose layers call @jax.jit per-layer functions on the whole sequence; every new length recompiles all six jitted layer functions (36 compiles for 66 layer calls over 6 tokens).
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


import jax  # scaffolding
# ---- src/config.py ----
class TransformerConfig:
    def __init__(
        self,
        vocab_size: int = 300,  # scaffolding: 10256 -> 300
        vocab_path: str = "data/vocab.txt",
        weights_path: str = "TO_BE_DEFINED",
        embedding_dim: int = 32,  # scaffolding: 512 -> 32
        key_query_dim: int = 8,  # scaffolding: 64 -> 8
        context_size: int = 64,  # scaffolding: 512 -> 64
        nb_layers: int = 2,  # scaffolding: 6 -> 2
        nb_heads: int = 2,  # scaffolding: 8 -> 2
        batch_size: int = 64,
        warmup_steps: int = 2000,
        beta1: float = 0.9,
        beta2: float = 0.98,
        epsilon: float = 1e-9,
        dropout_rate: float = 0.1,
        label_smoothing: float = 0.1,
        top_k: int = 5,
        temp: float = 1.0,
        training: bool = True,
    ) -> None:
        self.vocab_path = vocab_path
        self.weights_path = weights_path

        # constants
        self.vocab_size = vocab_size
        self.embedding_dim = embedding_dim
        self.key_query_dim = key_query_dim
        self.context_size = context_size
        self.nb_layers = nb_layers
        self.nb_heads = nb_heads

        # training
        self.batch_size = batch_size
        self.warmup_steps = warmup_steps
        self.dropout_rate = dropout_rate
        self.label_smoothing = label_smoothing

        # adam
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon

        # inference
        self.top_k = top_k
        self.temp = temp  # acts on softmax

        # else
        self.training = training

        # ~ 1e5 steps for training
        # input shape : (batch_size, context_size)

    def get_model_size(self) -> int:
        embedding = unembedding = self.vocab_size * self.embedding_dim
        query = key = value = (
            (self.embedding_dim * self.key_query_dim) * self.nb_heads * self.nb_layers
        )
        output = (
            self.nb_heads * self.key_query_dim * self.embedding_dim * self.nb_layers
        )
        mlp_weight = (4 * self.embedding_dim) * self.embedding_dim * 2 * self.nb_layers
        mlp_bias = (4 * self.embedding_dim + self.embedding_dim) * self.nb_layers
        return (
            embedding
            + unembedding
            + key
            + query
            + value
            + output
            + mlp_weight
            + mlp_bias
        )

    def get_lr(self, step: int) -> float:
        return (self.embedding_dim**-0.5) * min(
            step**-0.5, step * (self.warmup_steps**-1.5)
        )


# ---- src/utils.py ----
import jax

KeyArray = jax.Array  # scaffolding: jax._src.random.KeyArray was removed from jax
import jax.numpy as jnp


def load_data(path: str) -> str:
    with open(path) as file:
        return file.read()


def save_data(path: str, data: str) -> None:
    with open(path, "w") as f:
        f.write(data)


@jax.jit
def softmax_2d(x: jnp.ndarray, temp: float = 1):
    exp = jnp.exp(x / temp)
    return (exp.T / jnp.expand_dims(jnp.sum(exp, axis=0), 1)).T


@jax.jit
def softmax_3d(x: jnp.ndarray, temp: float = 1):
    exp = jnp.exp(x / temp)
    return (exp.mT / jnp.expand_dims(jnp.sum(exp, axis=1), 2)).mT


def get_token_from_softmax(softmaxed: jnp.ndarray, top_k: int, key: KeyArray):
    values, indices = jax.lax.top_k(softmaxed[:, -1], top_k)
    probs = values / values.sum()
    n = jax.random.uniform(key)
    return indices[jnp.argmax(n < jnp.cumsum(probs))]


@jax.jit
def cross_entropy_loss_simple(preds: jnp.ndarray, y: jnp.ndarray):
    return -jnp.sum(y * jnp.log(preds), axis=0).mean()

@jax.jit
def cross_entropy_loss(preds: jnp.ndarray, y: jnp.ndarray):
    batch_f = jax.vmap(cross_entropy_loss_simple)
    return batch_f(preds, y)


# ---- src/layers/layer.py ----
from typing import Dict
import jax  # scaffolding
KeyArray = jax.Array  # scaffolding: jax._src.random.KeyArray was removed from jax
import jax.numpy as jnp

from abc import ABC, abstractmethod


class Layer(ABC):
    def __init__(self) -> None:
        super().__init__()
        self.name = "layer"

    @abstractmethod
    def forward(self, weights: Dict[str, jnp.ndarray], x: jnp.ndarray) -> jnp.ndarray:
        raise NotImplementedError

    @abstractmethod
    def init_weights(self, key: KeyArray) -> Dict[str, jnp.ndarray]:
        raise NotImplementedError

    @abstractmethod
    def __call__(self, weights: Dict[str, jnp.ndarray], x: jnp.ndarray) -> jnp.ndarray:
        raise NotImplementedError


# ---- src/layers/attention.py ----
import jax
import jax.numpy as jnp

from jax.nn import initializers
from typing import Dict
# from config import TransformerConfig  # scaffolding: inlined above
# from utils import softmax_3d  # scaffolding: inlined above
# from layers.layer import Layer  # scaffolding: inlined above
from jax import lax, random
KeyArray = jax.Array  # scaffolding: jax._src.random.KeyArray was removed from jax


@jax.jit
def forward_simple_attention(
    weights: Dict[str, jnp.ndarray], x: jnp.ndarray, scale_factor: float
) -> jnp.ndarray:
    queries = jnp.matmul(weights["query_weights"], x)
    keys = jnp.matmul(weights["key_weights"], x)
    dots = jnp.matmul(keys.mT, queries) / scale_factor
    hm = jnp.triu(jnp.ones_like(dots))
    del queries
    del keys

    masked = jnp.where(hm, dots, float("-inf"))
    softmaxed = softmax_3d(masked)
    del dots
    del masked

    values = jnp.matmul(weights["value_weights"], x)
    summed = jnp.matmul(values, softmaxed)
    concat = jnp.concatenate(summed, axis=0)
    return jnp.dot(weights["output_weights"], concat)


class Attention(Layer):
    def __init__(self, config: TransformerConfig, name: str) -> None:
        super().__init__()
        self.name = name
        self.key_query_value_shape = (
            config.nb_heads,
            config.key_query_dim,
            config.embedding_dim,
        )
        self.scale_factor = jnp.sqrt(config.key_query_dim)

    def init_weights(self, key: KeyArray) -> Dict[str, jnp.ndarray]:
        _, *subkeys = random.split(key, 5)
        initializer = initializers.glorot_normal()
        return {
            "query_weights": initializer(
                key=subkeys[0], shape=self.key_query_value_shape, dtype=jnp.float32
            ),
            "key_weights": initializer(
                key=subkeys[1], shape=self.key_query_value_shape, dtype=jnp.float32
            ),
            "value_weights": initializer(
                key=subkeys[2], shape=self.key_query_value_shape, dtype=jnp.float32
            ),
            "output_weights": initializer(
                key=subkeys[3],
                shape=(
                    self.key_query_value_shape[2],
                    self.key_query_value_shape[0] * self.key_query_value_shape[1],
                ),
                dtype=jnp.float32,
            ),
        }

    def forward(self, weights: Dict[str, jnp.ndarray], x: jnp.ndarray) -> jnp.ndarray:
        batch_f = jax.vmap(forward_simple_attention, in_axes=[None, 0, None])
        return batch_f(weights, x, self.scale_factor)

    def __call__(self, weights: Dict[str, jnp.ndarray], x: jnp.ndarray) -> jnp.ndarray:
        return self.forward(weights, x)


# ---- src/layers/embedding.py ----
import jax
import jax.numpy as jnp

from typing import Dict
# from config import TransformerConfig  # scaffolding: inlined above
# from layers.layer import Layer  # scaffolding: inlined above
from jax import random
KeyArray = jax.Array  # scaffolding: jax._src.random.KeyArray was removed from jax


@jax.jit
def forward_simple_embedding(
    weights: Dict[str, jnp.ndarray], x: jnp.ndarray
) -> jnp.ndarray:
    return jnp.matmul(weights["weights"].T, x.T)


class Embedding(Layer):
    def __init__(self, config: TransformerConfig, name: str) -> None:
        super().__init__()
        self.name = name
        self.shape = (config.vocab_size, config.embedding_dim)

    def init_weights(self, key: KeyArray) -> Dict[str, jnp.ndarray]:
        return {
            "weights": random.normal(key, self.shape, jnp.float32)
            * jnp.sqrt(1 / self.shape[1])
        }

    def forward(self, weights: Dict[str, jnp.ndarray], x: jnp.ndarray) -> jnp.ndarray:
        batch_f = jax.vmap(forward_simple_embedding, in_axes=[None, 0])
        return batch_f(weights, x)

    def __call__(self, weights: Dict[str, jnp.ndarray], x: jnp.ndarray) -> jnp.ndarray:
        return self.forward(weights, x)


# ---- src/layers/dropout.py ----
import jax
import jax.numpy as jnp

from typing import Dict
# from config import TransformerConfig  # scaffolding: inlined above
# from layers.layer import Layer  # scaffolding: inlined above
from jax import random
KeyArray = jax.Array  # scaffolding: jax._src.random.KeyArray was removed from jax


class Dropout(Layer):
    def __init__(self, config: TransformerConfig, key: KeyArray, name: str) -> None:
        super().__init__()
        self.name = name
        self.key = key
        self.p = config.dropout_rate
        self.shape = (config.embedding_dim, config.context_size)
        self.training = config.training

    def init_weights(self, key: KeyArray) -> Dict[str, jnp.ndarray]:
        return {}

    def forward_simple(
        self, x: jnp.ndarray
    ) -> jnp.ndarray:
        if not self.training:
            return x
        self.key, k = jax.random.split(self.key)
        return random.bernoulli(k, 1 - self.p, self.shape) * x

    def forward(self, weights: Dict[str, jnp.ndarray], x: jnp.ndarray) -> jnp.ndarray:
        batch_f = jax.vmap(self.forward_simple)
        return batch_f(x)

    def __call__(self, weights: Dict[str, jnp.ndarray], x: jnp.ndarray) -> jnp.ndarray:
        return self.forward(weights, x)


# ---- src/layers/layer_normalization.py ----
import jax
import jax.numpy as jnp

from typing import Dict
KeyArray = jax.Array  # scaffolding: jax._src.random.KeyArray was removed from jax
# from config import TransformerConfig  # scaffolding: inlined above
# from layers.layer import Layer  # scaffolding: inlined above


@jax.jit
def forward_simple_layer_normalization(
        weights: Dict[str, jnp.ndarray], x: jnp.ndarray, epsilon: float
) -> jnp.ndarray:
    x = ((x.T - jnp.mean(x)) / jnp.sqrt(jnp.var(x) + epsilon)) * weights[
            "gains"
    ] + weights["bias"]
    return x.T


class LayerNormalization(Layer):
    def __init__(
        self, config: TransformerConfig, name: str, epsilon: float = 1e-5
    ) -> None:
        super().__init__()
        self.name = name
        self.embedding_dim = config.embedding_dim
        self.epsilon = epsilon

    def init_weights(self, key: KeyArray) -> Dict[str, jnp.ndarray]:
        return {
            "bias": jnp.zeros(self.embedding_dim),
            "gains": jnp.ones(self.embedding_dim),
        }

    def forward(self, weights: Dict[str, jnp.ndarray], x: jnp.ndarray) -> jnp.ndarray:
        batch_f = jax.vmap(forward_simple_layer_normalization, in_axes=[None, 0, None])
        return batch_f(weights, x, self.epsilon)

    def __call__(self, weights: Dict[str, jnp.ndarray], x: jnp.ndarray) -> jnp.ndarray:
        return self.forward(weights, x)


# ---- src/layers/mlp.py ----
import jax
import jax.numpy as jnp

from jax.nn import initializers, gelu
from typing import Dict
# from config import TransformerConfig  # scaffolding: inlined above
# from layers.layer import Layer  # scaffolding: inlined above
from jax import random
KeyArray = jax.Array  # scaffolding: jax._src.random.KeyArray was removed from jax


@jax.jit
def forward_simple_mlp(
    weights: Dict[str, jnp.ndarray], x: jnp.ndarray
) -> jnp.ndarray:
    return (
        jnp.matmul(
            weights["linear2"],
            gelu(jnp.matmul(weights["linear1"], x) + weights["bias1"]),
        )
        + weights["bias2"]
    )

class MLP(Layer):
    def __init__(self, config: TransformerConfig, name: str) -> None:
        super().__init__()
        self.name = name
        self.embedding_dim = config.embedding_dim

    def init_weights(self, key: KeyArray) -> Dict[str, jnp.ndarray]:
        _, *subkeys = random.split(key, 3)
        initializer = initializers.glorot_normal()
        return {
            "linear1": initializer(
                key=subkeys[0],
                shape=(4 * self.embedding_dim, self.embedding_dim),
                dtype=jnp.float32,
            ),
            "bias1": jnp.expand_dims(jnp.zeros(4 * self.embedding_dim), 1),
            "linear2": initializer(
                key=subkeys[1],
                shape=(self.embedding_dim, 4 * self.embedding_dim),
                dtype=jnp.float32,
            ),
            "bias2": jnp.expand_dims(jnp.zeros(self.embedding_dim), 1),
        }


    def forward(self, weights: Dict[str, jnp.ndarray], x: jnp.ndarray) -> jnp.ndarray:
        batch_f = jax.vmap(forward_simple_mlp, in_axes=[None, 0])
        return batch_f(weights, x)

    def __call__(self, weights: Dict[str, jnp.ndarray], x: jnp.ndarray) -> jnp.ndarray:
        return self.forward(weights, x)


# ---- src/layers/positional_encoding.py ----
import jax
import jax.numpy as jnp

from typing import Dict
KeyArray = jax.Array  # scaffolding: jax._src.random.KeyArray was removed from jax
# from config import TransformerConfig  # scaffolding: inlined above
# from layers.layer import Layer  # scaffolding: inlined above


@jax.jit
def forward_simple_positional_encoding(
    x: jnp.ndarray, positional_encoding: jnp.ndarray
) -> jnp.ndarray:
    return x + positional_encoding[: x.shape[1]].T


class PositionalEncoding(Layer):
    def __init__(self, config: TransformerConfig, name: str) -> None:
        super().__init__()
        self.name = name

        pos = jnp.expand_dims(jnp.arange(config.context_size), 1)
        i = jnp.arange(0, config.embedding_dim, 2)

        self.positional_encoding = jnp.zeros(
            (config.context_size, config.embedding_dim)
        )

        self.positional_encoding = self.positional_encoding.at[:, 0::2].set(
            jnp.sin(pos / (10000 ** (i / config.embedding_dim)))
        )

        self.positional_encoding = self.positional_encoding.at[:, 1::2].set(
            jnp.cos(pos / (10000 ** (i / config.embedding_dim)))
        )

    def init_weights(self, key: KeyArray) -> Dict[str, jnp.ndarray]:
        return {}

    def forward(self, weights: Dict[str, jnp.ndarray], x: jnp.ndarray) -> jnp.ndarray:
        batch_f = jax.vmap(forward_simple_positional_encoding, in_axes=[0, None])
        return batch_f(x, self.positional_encoding)

    def __call__(self, weights: Dict[str, jnp.ndarray], x: jnp.ndarray) -> jnp.ndarray:
        return self.forward(weights, x)


# ---- src/layers/unembedding.py ----
from typing import Dict
import jax
import jax.numpy as jnp

# from config import TransformerConfig  # scaffolding: inlined above
# from utils import softmax_2d  # scaffolding: inlined above
# from layers.layer import Layer  # scaffolding: inlined above
from jax import random
KeyArray = jax.Array  # scaffolding: jax._src.random.KeyArray was removed from jax


@jax.jit
def forward_simple_unembedding(
    weights: Dict[str, jnp.ndarray], x: jnp.ndarray, temp: float
) -> jnp.ndarray:
    return softmax_2d(jnp.matmul(weights["weights"], x), temp)


class Unembedding(Layer):
    def __init__(self, config: TransformerConfig, name: str) -> None:
        super().__init__()
        self.name = name
        self.shape = (config.vocab_size, config.embedding_dim)
        self.temp = config.temp

    def init_weights(self, key: KeyArray) -> Dict[str, jnp.ndarray]:
        return {
            "weights": random.normal(key, self.shape, jnp.float32)
            * jnp.sqrt(1 / self.shape[1])
        }


    def forward(self, weights: Dict[str, jnp.ndarray], x: jnp.ndarray) -> jnp.ndarray:
        batch_f = jax.vmap(forward_simple_unembedding, in_axes=[None, 0, None])
        return batch_f(weights, x, self.temp)

    def __call__(self, weights: Dict[str, jnp.ndarray], x: jnp.ndarray) -> jnp.ndarray:
        return self.forward(weights, x)


# ---- src/transformer.py ----
import jax
import jax.numpy as jnp

from typing import Callable, Dict, List
# from config import TransformerConfig  # scaffolding: inlined above
# from layers.attention import Attention  # scaffolding: inlined above
# from layers.dropout import Dropout  # scaffolding: inlined above
# from layers.embedding import Embedding  # scaffolding: inlined above
# from layers.layer import Layer  # scaffolding: inlined above
# from layers.layer_normalization import LayerNormalization  # scaffolding: inlined above
# from layers.mlp import MLP  # scaffolding: inlined above
# from layers.positional_encoding import PositionalEncoding  # scaffolding: inlined above
# from layers.unembedding import Unembedding  # scaffolding: inlined above
# from utils import cross_entropy_loss, softmax_2d  # scaffolding: inlined above


class Transformer:
    def __init__(self, config: TransformerConfig) -> None:
        self.config = config
        self.weights_dict = {}

        self.key = jax.random.key(69)
        self.key, *subkeys = jax.random.split(self.key, 1 + 1 + (config.nb_layers * 2))
        self.layers: List[Layer] = []
        self.embedding = Embedding(config=self.config, name="embedding")
        self.unembedding = Unembedding(config=config, name="unembedding")

        self.layers.append(Embedding(config=self.config, name="embedding"))
        self.layers.append(
            PositionalEncoding(config=config, name="positional_encoding")
        )
        self.layers.append(Dropout(config=config, key=subkeys[0], name="dropout_0"))

        subkeys_index = 1
        for layer in range(config.nb_layers):
            self.layers.append(Attention(config=config, name=f"attention_{layer}"))
            self.layers.append(
                Dropout(
                    config=config,
                    key=subkeys[subkeys_index],
                    name=f"dropout_{2 * layer + 1}",
                )
            )
            # residual connection
            self.layers.append(
                LayerNormalization(
                    config=config, name=f"layer_normalization_{2 * layer}"
                )
            )

            self.layers.append(MLP(config=config, name=f"mlp_{layer}"))
            self.layers.append(
                Dropout(
                    config=config,
                    key=subkeys[subkeys_index + 1],
                    name=f"dropout_{2 * (layer + 1)}",
                )
            )
            # residual connection
            self.layers.append(
                LayerNormalization(
                    config=config, name=f"layer_normalization_{2 * layer + 1}"
                )
            )
            subkeys_index += 2

        self.layers.append(Unembedding(config=config, name="unembedding"))

    def init_weights(self):
        self.key, *subkeys = jax.random.split(self.key, 1 + len(self.layers))
        for i, layer in enumerate(self.layers):
            self.weights_dict[layer.name] = layer.init_weights(subkeys[i])

    def forward(self, weights_dict: Dict[str, Dict[str, jnp.ndarray]], x: jnp.ndarray):
        residual = x
        for layer in self.layers:
            if "attention" in layer.name or "mlp" in layer.name:
                residual = x
            x = layer(weights_dict[layer.name], x)
            if "dropout" in layer.name and layer.name[-1] != "0":
                x = x + residual  # dropout + residual connection

        return x

    def loss(
        self,
        weights_dict: Dict[str, Dict[str, jnp.ndarray]],
        X: jnp.ndarray,
        y: jnp.ndarray,
    ):
        return jnp.mean(cross_entropy_loss(self.forward(weights_dict, X), y))


# ---- src/tokenizer.py (stand-in) ----
class Tokenizer:  # scaffolding: stand-in for src/tokenizer.py (byte vocab, no learned merges, no vocab file)
    def __init__(self, vocab_size_limit, vocab_path, data_path):  # scaffolding
        self.vocab = [i for i in range(256)] + [256, 257]  # scaffolding

    def get_token_from_index(self, i_token):  # scaffolding
        return chr(i_token) if i_token < 256 else ""  # scaffolding


# ---- src/main.py (imports and inference) ----
import random as _stdlib_random  # scaffolding: main.py's `import random`, renamed because the inlined layers use jax's random
# from tokenizer import Tokenizer / utils / config / transformer: inlined above  # scaffolding
def inference(checkpoint_path: str, temp: float = 1.0, optional_start: str = ""):
    config = TransformerConfig(training=False, temp=temp)
    tokenizer = Tokenizer(config.vocab_size, "../data/vocab-valid.txt", "../data/gpt4-valid-formatted.txt")
    transformer = Transformer(config)
    # transformer.weights_dict = jnp.load(checkpoint_path, allow_pickle=True).item()  # scaffolding: no checkpoint
    transformer.init_weights()  # scaffolding: untrained weights instead of the checkpoint

    x = jnp.array([[jax.nn.one_hot(config.vocab_size - 2, config.vocab_size)]]) # init X with start token

    key = jax.random.key(_stdlib_random.randint(0, 1000000))  # scaffolding: random -> _stdlib_random (see import)

    i = 0
    while i < 6:  # scaffolding: 512 -> 6 tokens (the loop never increments i; see the increment below)
        softmaxed = transformer.forward(transformer.weights_dict, x)
        key, subkey = jax.random.split(key)
        token_index = get_token_from_softmax(softmaxed[0], config.top_k, subkey)
        if token_index == config.vocab_size - 1:
            break
        print(tokenizer.get_token_from_index(token_index), end="", flush=True)
        x = jnp.append(x, jnp.array([[jax.nn.one_hot(token_index, config.vocab_size)]]), axis=1)
        i += 1  # scaffolding: missing in the repo, so the loop only stops at the end-of-text token

    print()


_stdlib_random.seed(0)  # scaffolding
inference("checkpoint.npy", temp=1.0)  # scaffolding
_report({"jit(forward_simple_attention)", "jit(forward_simple_embedding)", "jit(forward_simple_layer_normalization)",  # scaffolding
         "jit(forward_simple_mlp)", "jit(forward_simple_positional_encoding)", "jit(forward_simple_unembedding)"}, 11 * 6)  # scaffolding: 6 forward calls x 11 jitted layer calls each (embedding, positional encoding, 2 attention, 4 layer norms, 2 mlp, unembedding)
