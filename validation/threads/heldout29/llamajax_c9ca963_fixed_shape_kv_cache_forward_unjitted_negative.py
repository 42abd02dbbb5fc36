# source: https://github.com/stickshift/llama-jax/commit/c9ca9632d4298fc36be3112355b09a59b3d860aa
# expect: none
# runtime: COMPILES 1 CALLS 6
# why: in the commit model.forward is no longer jitted (decorator commented out), so the n-bounded cache slice runs eagerly with a concrete n; only next_token is jitted and it compiles once for 6 tokens.
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


from types import SimpleNamespace  # scaffolding
from typing import TypeVar  # scaffolding
ll = SimpleNamespace()  # scaffolding: stands for `import llama_jax as ll`; each flattened module below is bound to it

# ---- src/llama_jax/tools.py ----
from concurrent.futures import ThreadPoolExecutor
from functools import wraps
import logging
from logging import Logger
import subprocess
from time import perf_counter_ns as timer
from typing import Callable, cast, no_type_check

__all__ = [
    "default_arg",
    "executor",
    "recursive_tuple",
    "shell",
    "trace",
]


T = TypeVar("T")  # scaffolding: Python 3.11 has no PEP 695 type parameters


def default_arg(  # scaffolding: was `def default_arg[T](` (PEP 695, Python 3.12)
    v: T | None,
    default: T | None = None,
    default_factory: Callable[[], T] | None = None,
) -> T:
    """Populate default parameters."""
    if v is not None:
        return v

    if default is None and default_factory is not None:
        return default_factory()

    return cast(T, default)


def shell(command: str) -> str:
    """Run shell command."""
    result = subprocess.run(
        command,
        shell=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        check=True,
    )

    return result.stdout.strip()


_executor = None


def executor() -> ThreadPoolExecutor:
    """Global executor."""
    global _executor  # noqa: PLW0603
    if _executor is None:
        _executor = ThreadPoolExecutor()
    return _executor


@no_type_check
def recursive_tuple(x):
    """Convert list to tuple recursively."""
    return tuple(recursive_tuple(v) if isinstance(v, list) else v for v in x)


# def trace[**P, R](...)  # scaffolding: cut; PEP 695 syntax needs Python 3.12 and the decorator is not used by the code below

ll.tools = SimpleNamespace(default_arg=default_arg, shell=shell, executor=executor, recursive_tuple=recursive_tuple, T=T, _executor=_executor)  # scaffolding: module namespace


# ---- scaffolding: tiktoken stand-in (a byte-level vocabulary of 64 tokens; no tokenizer.model file needed) ----
def load_tiktoken_bpe(path):  # scaffolding
    return {bytes([i]): i for i in range(64)}  # scaffolding


class _Encoding:  # scaffolding: tiktoken.Encoding stand-in
    def __init__(self, name, pat_str, mergeable_ranks, special_tokens):  # scaffolding
        self.special_tokens = special_tokens  # scaffolding

    def encode(self, text, allowed_special=(), disallowed_special=()):  # scaffolding
        return [ord(c) % 64 for c in text]  # scaffolding

    def decode(self, ids):  # scaffolding
        return "".join(chr(48 + (i % 64)) for i in ids)  # scaffolding


tiktoken = SimpleNamespace(Encoding=_Encoding)  # scaffolding



# ---- src/llama_jax/tokenizer.py ----
from collections.abc import Sequence
from pathlib import Path

from jax import Array
from jax import numpy as jnp
# import tiktoken  # scaffolding: tiktoken is not installed; stand-in above
# from tiktoken.load import load_tiktoken_bpe  # scaffolding: tiktoken is not installed; stand-in above

# from llama_jax.tools import default_arg  # scaffolding: defined above in this file

__all__ = [
    "Tokenizer",
]

_special_tokens = [
    "<|begin_of_text|>",
    "<|end_of_text|>",
    "<|reserved_special_token_0|>",
    "<|reserved_special_token_1|>",
    "<|finetune_right_pad_id|>",
    "<|step_id|>",
    "<|start_header_id|>",
    "<|end_header_id|>",
    "<|eom_id|>",  # end of message
    "<|eot_id|>",  # end of turn
    "<|python_tag|>",
    "<|image|>",
]

_num_reserved_special_tokens = 256

_reserved_tokens = [
    f"<|reserved_special_token_{2 + i}|>" for i in range(_num_reserved_special_tokens - len(_special_tokens))
]

_pat_str = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"  # noqa: E501


class Tokenizer:
    """Llama3 tokenizer based on tiktoken and the llama-models implementation."""

    def __init__(self, model_path: Path | str):
        # Convert to str
        model_path = str(model_path)

        # Load base tokens from tiktoken model
        mergeable_ranks = load_tiktoken_bpe(model_path)
        num_base_tokens = len(mergeable_ranks)

        self.special_tokens = {token: num_base_tokens + i for i, token in enumerate(_special_tokens + _reserved_tokens)}

        self.model = tiktoken.Encoding(
            name=model_path,
            pat_str=_pat_str,
            mergeable_ranks=mergeable_ranks,
            special_tokens=self.special_tokens,
        )

        self.n_words: int = num_base_tokens + len(self.special_tokens)
        self.bos_id: int = self.special_tokens["<|begin_of_text|>"]
        self.eos_id: int = self.special_tokens["<|end_of_text|>"]
        self.eot_id: int = self.special_tokens["<|eot_id|>"]
        self.eom_id: int = self.special_tokens["<|eom_id|>"]
        self.python_tag_id = self.special_tokens["<|python_tag|>"]
        self.pad_id: int = self.special_tokens["<|finetune_right_pad_id|>"]
        self.stop_tokens = jnp.array([
            self.eos_id,
            self.special_tokens["<|eom_id|>"],
            self.special_tokens["<|eot_id|>"],
        ])

    def encode(
        self, prompts: str | Sequence[str], bos: bool | None = None, eos: bool | None = None
    ) -> tuple[Array, Array]:
        """Encodes a list of prompts into an array of token IDs."""
        # Defaults
        bos = default_arg(bos, True)
        eos = default_arg(eos, False)

        # Ensure prompts is a sequence of prompts
        if isinstance(prompts, str):
            prompts = (prompts,)

        # Encode each prompt
        tids = [
            self.model.encode(
                prompt,
                allowed_special="all",
                disallowed_special=(),
            )
            for prompt in prompts
        ]

        # Padding
        pad_length = max(len(v) for v in tids)
        for v in tids:
            v.extend([self.pad_id] * (pad_length - len(v)))

        # Inject bos/eos tokens
        if bos:
            tids = [[self.bos_id, *v] for v in tids]
        if eos:
            tids = [[*v, self.eos_id] for v in tids]

        # Convert to jax
        token_ids = jnp.array(tids)

        # Calculate mask from padding
        position_mask = jnp.where(token_ids == self.pad_id, 0, 1)

        return token_ids, position_mask

    def decode(self, token_ids: Array, special: bool | None = None) -> Sequence[str]:
        """Decodes token_ids into sequence of strings."""
        # Defaults
        special = default_arg(special, True)

        # Validate
        if token_ids.ndim != 2:
            raise ValueError(f"token_ids is not a 2D array: {token_ids.shape}")

        # Collect token ids to decode
        values = [
            [tid.item() for tid in tids if special or tid not in self.special_tokens.values()] for tids in token_ids
        ]

        return tuple(self.model.decode(v) for v in values)

ll.tokenizer = SimpleNamespace(Tokenizer=Tokenizer, _special_tokens=_special_tokens, _num_reserved_special_tokens=_num_reserved_special_tokens, _reserved_tokens=_reserved_tokens, _pat_str=_pat_str)  # scaffolding: module namespace


# ---- src/llama_jax/checkpoint.py ----
"""Llama Checkpoint."""

from collections.abc import Mapping
from enum import Enum
import json
from pathlib import Path
import pickle
from typing import Any, NamedTuple, cast

from jax import Array
import jax.dtypes
from jax.typing import DTypeLike

# from llama_jax.tokenizer import Tokenizer  # scaffolding: Tokenizer is defined above in this file

__all__ = [
    "BATCH_AXIS",
    "HEAD_AXIS",
    "MODEL_AXIS",
    "TOKEN_AXIS",
    "ModelConfig",
    "ModelParameters",
    "TrainingLevel",
    "load_config",
    "load_parameters",
    "load_tokenizer",
]

# ------------------------------------------------------------------------------
# Constants
# ------------------------------------------------------------------------------

BATCH_AXIS = -4
HEAD_AXIS = -3
TOKEN_AXIS = -2
MODEL_AXIS = -1


# ------------------------------------------------------------------------------
# Config
# ------------------------------------------------------------------------------


class TrainingLevel(str, Enum):
    """Llama3 training level."""

    PRETRAINED = "pretrained"
    INSTRUCT = "instruct"


class ModelConfig(NamedTuple):
    """Llama3 model config."""

    checkpoint_path: Path

    max_tokens: int

    vocab_size: int

    d_model: int

    d_head: int

    d_ffn: int

    n_layers: int

    n_heads: int

    n_kv_heads: int

    rms_norm_eps: float

    dtype: DTypeLike

    training: TrainingLevel

    rope_theta: float


def load_config(checkpoint_name: str, **kwargs: Any) -> ModelConfig:
    """Load Llama3 config from checkpoint params.json."""
    # Build checkpoint_path
    checkpoints_path = Path("~/.llama/checkpoints").expanduser()
    checkpoint_path = checkpoints_path / checkpoint_name

    # Validate
    if not checkpoint_path.is_dir():
        raise ValueError(f"Checkpoint not found: {checkpoint_path}")

    # Defaults
    max_tokens = 512
    dtype = jax.dtypes.bfloat16

    # Load hyperparameters
    hparams_path = checkpoint_path / "params.json"
    hparams = json.loads(hparams_path.read_text())

    # Calculate d_ffn from 8/3 * d_model rounded to nearest multiple_of
    d_model = hparams["dim"]
    ffn_dim_multiplier = hparams["ffn_dim_multiplier"]
    multiple_of = hparams["multiple_of"]
    d_ffn = int(8 / 3 * d_model * ffn_dim_multiplier)
    d_ffn = multiple_of * ((d_ffn + multiple_of - 1) // multiple_of)

    data = {
        "checkpoint_path": checkpoint_path,
        "max_tokens": max_tokens,
        "vocab_size": hparams["vocab_size"],
        "d_model": hparams["dim"],
        "n_layers": hparams["n_layers"],
        "rms_norm_eps": hparams["norm_eps"],
        "n_heads": hparams["n_heads"],
        "d_head": int(hparams["dim"] / hparams["n_heads"]),
        "n_kv_heads": hparams["n_kv_heads"],
        "rope_theta": hparams["rope_theta"],
        "d_ffn": d_ffn,
        "dtype": dtype,
        "training": TrainingLevel.INSTRUCT if checkpoint_name.endswith("-Instruct") else TrainingLevel.PRETRAINED,
    }

    # Override with kwargs
    data |= kwargs

    return ModelConfig(**data)


# ------------------------------------------------------------------------------
# Parameters
# ------------------------------------------------------------------------------

ModelParameters = Mapping[str, Array]


def load_parameters(config: ModelConfig) -> ModelParameters:
    """Load Llama3 parameters from checkpoint consolidated.00.jax."""
    # Validate
    input_path = config.checkpoint_path / "consolidated.00.jax"
    if not input_path.is_file():
        raise ValueError(
            f"Checkpoint {config.checkpoint_path.name} has not been converted to JAX format. See llama-jax CLI."
        )

    # Load state from checkpoint
    params = cast(ModelParameters, pickle.loads(input_path.read_bytes()))

    return params


# ------------------------------------------------------------------------------
# Tokenizer
# ------------------------------------------------------------------------------


def load_tokenizer(config: ModelConfig) -> Tokenizer:
    """Load tokenizer from checkpoint."""
    # Load tiktoken model
    return Tokenizer(config.checkpoint_path / "tokenizer.model")

ll.checkpoint = SimpleNamespace(TrainingLevel=TrainingLevel, ModelConfig=ModelConfig, load_config=load_config, load_parameters=load_parameters, load_tokenizer=load_tokenizer, BATCH_AXIS=BATCH_AXIS, HEAD_AXIS=HEAD_AXIS, TOKEN_AXIS=TOKEN_AXIS, MODEL_AXIS=MODEL_AXIS, ModelParameters=ModelParameters)  # scaffolding: module namespace


# ---- src/llama_jax/rms_norm.py ----
"""Normalization."""

from typing import NamedTuple

from jax import Array
import jax.numpy as jnp

# from llama_jax.checkpoint import ModelConfig, ModelParameters  # scaffolding: defined above in this file

__all__ = [
    "RMSNorm",
    "create",
    "forward",
]


class RMSNorm(NamedTuple):
    """RMS Normalization state."""

    weight: Array


def create(config: ModelConfig, params: ModelParameters, path: str) -> RMSNorm:
    """Load Llama3 RMSNorm."""
    return RMSNorm(weight=params[f"{path}.weight"].astype(config.dtype))


def forward(config: ModelConfig, state: RMSNorm, x: Array) -> Array:
    """Normalize x using RMS Normalization.

    See https://doi.org/10.48550/arXiv.1910.07467
    """
    # Validate
    if x.ndim != 3:
        raise ValueError(f"Unexpected shape {x.shape}. Expected (bs, n, d).")

    return state.weight * _norm(config, state, x)


def _norm(config: ModelConfig, state: RMSNorm, x: Array) -> Array:
    """Calculate normalizing factor.

    See https://doi.org/10.48550/arXiv.1910.07467
    """
    return x / jnp.sqrt(jnp.mean(x**2, axis=-1, keepdims=True) + config.rms_norm_eps)

ll.rms_norm = SimpleNamespace(RMSNorm=RMSNorm, create=create, forward=forward, _norm=_norm)  # scaffolding: module namespace


# ---- src/llama_jax/rope.py ----
"""Rotary Position Embeddings (RoPE)."""

from typing import NamedTuple

from jax import Array
from jax import numpy as jnp

# from llama_jax.checkpoint import ModelConfig  # scaffolding: defined above in this file

__all__ = [
    "Rope",
    "RotationMatrix",
    "create",
    "rotate",
    "swap",
]

RotationMatrix = tuple[tuple[float, ...]]


class Rope(NamedTuple):
    """RoPE state."""

    cos: Array

    sin: Array


def create(config: ModelConfig) -> Rope:
    """Compute RoPE cos and sin rotation matrices."""
    # Hyperparameters
    base_theta = config.rope_theta
    d = config.d_head
    n = config.max_tokens
    dtype = config.dtype

    # Calculate thetas
    i = jnp.arange(d // 2)
    thetas = base_theta ** (-2 * i / d)

    # Duplicate each theta, e.g. [theta_0, theta_1] -> [theta_0, theta_0, theta_1, theta_1]
    thetas = jnp.repeat(thetas, 2)

    # Repeat thetas for each position from 0 to n and stack in an (n, d_head) matrix
    theta_stack = jnp.stack([m * thetas for m in range(n)])

    # Apply cos, sin
    cos = jnp.cos(theta_stack)
    sin = jnp.sin(theta_stack)

    # Convert to dtype after all the upfront math is complete.
    cos, sin = cos.astype(dtype), sin.astype(dtype)

    # Sanity check
    assert cos.shape[0] == n and cos.shape[1] == d  # noqa: PT018
    assert sin.shape[0] == n and sin.shape[1] == d  # noqa: PT018

    return Rope(cos=cos, sin=sin)


def swap(x: Array) -> Array:
    """Maps [x0, x1, x2, x3] -> [-x1, x0, -x3, x2] along last dimension."""
    # Split last dimension into pairs
    y = jnp.reshape(x, (-1, 2))

    # Swap pairs. e.g. [x0, x1] -> [x1, x0]
    y = y[:, ::-1]

    # Restore original shape
    y = jnp.reshape(y, x.shape)

    # Create a mask for even indices along the last dimension
    mask = jnp.arange(y.shape[-1]) % 2 == 0

    # Apply the mask to multiply even indices by -1
    #   e.g. [x0, x1, x2, x3] -> [-x0, x1, -x2, x3]
    y = y * jnp.where(mask, -1, 1)

    return y


def rotate(rope: Rope, x: Array, positions: Array) -> Array:
    """Rotate embeddings using RoPE transform.

    Each pair of values in x is rotated by `m*theta_i`, where m is the position of the embedding in the sequence and `i`
    is the position of the pair in the embedding vector.
    """
    # Select rope entries based on positions
    r_cos, r_sin = rope.cos[positions], rope.sin[positions]

    # Rotate
    x = (x * r_cos) + (swap(x) * r_sin)

    return x

ll.rope = SimpleNamespace(Rope=Rope, create=create, swap=swap, rotate=rotate, RotationMatrix=RotationMatrix)  # scaffolding: module namespace


# ---- src/llama_jax/embeddings.py ----
"""Embeddings."""

from typing import NamedTuple

from jax import Array

# from llama_jax.checkpoint import ModelConfig, ModelParameters  # scaffolding: defined above in this file

__all__ = [
    "Embeddings",
    "create",
    "forward",
]


class Embeddings(NamedTuple):
    """Embeddings state."""

    values: Array


def create(config: ModelConfig, params: ModelParameters) -> Embeddings:
    """Load Llama3 Embeddings."""
    return Embeddings(values=params["tok_embeddings.weight"].astype(config.dtype))


def forward(config: ModelConfig, state: Embeddings, token_ids: Array) -> Array:
    """Map token ids to embeddings."""
    # Sanity check
    assert token_ids.ndim == 2

    return state.values[token_ids]

ll.embeddings = SimpleNamespace(Embeddings=Embeddings, create=create, forward=forward)  # scaffolding: module namespace


# ---- src/llama_jax/kv_cache.py ----
from typing import NamedTuple

import jax
from jax import Array
from jax import numpy as jnp

# from llama_jax.checkpoint import ModelConfig  # scaffolding: defined above in this file

__all__ = [
    "KVCache",
    "LayerKVCache",
    "MutableKVCache",
    "apply",
    "create",
]


class LayerKVCache(NamedTuple):
    """Key-Value cache for single attention layer."""

    n: Array

    key_cache: Array

    value_cache: Array


KVCache = tuple[LayerKVCache, ...]
MutableKVCache = list[LayerKVCache]


def create(config: ModelConfig, bs: int) -> KVCache:
    """Create key-value cache for attention layers."""
    # Initialize keys and values with (bs, n_heads, max_tokens, d_head) buffer
    buffer = jnp.zeros((bs, config.n_kv_heads, config.max_tokens, config.d_head), dtype=config.dtype)

    # All layers start with same layer kvc
    layer_kvc = LayerKVCache(n=jnp.array(0), key_cache=buffer, value_cache=buffer)

    return tuple(layer_kvc for _ in range(config.n_layers))


def apply(layer_kvc: LayerKVCache, *, keys: Array, values: Array) -> tuple[LayerKVCache, Array, Array]:
    """Add keys and values to layer cache and return all keys and values in the cache.

    Args:
        layer_kvc (LayerKVCache): layer key value cache
        keys (Array): keys array of shape (bs, n_heads, n, d_head)
        values (Array): values array of shape (bs, n_heads, n, d_head)

    Returns:
        (tuple): Updated layer cache, keys, and values.
    """
    assert keys.shape == values.shape

    n = layer_kvc.n + keys.shape[-2]
    key_cache = jax.lax.dynamic_update_slice(layer_kvc.key_cache, keys, (0, 0, layer_kvc.n, 0))
    value_cache = jax.lax.dynamic_update_slice(layer_kvc.value_cache, values, (0, 0, layer_kvc.n, 0))

    layer_kvc = LayerKVCache(n=n, key_cache=key_cache, value_cache=value_cache)

    keys = layer_kvc.key_cache[:, :, : layer_kvc.n, :]
    values = layer_kvc.value_cache[:, :, : layer_kvc.n, :]

    return layer_kvc, keys, values


# def apply(cached_values: Array | None, values: Array) -> Array:
#     """Add values to cache and return entire cache."""
#     if cached_values is None:
#         return values

#     return jnp.concat([cached_values, values], axis=-2)

ll.kv_cache = SimpleNamespace(LayerKVCache=LayerKVCache, create=create, apply=apply, KVCache=KVCache, MutableKVCache=MutableKVCache)  # scaffolding: module namespace


# ---- src/llama_jax/ffn.py ----
"""Feedforward Network."""

from typing import NamedTuple

from jax import Array
from jax.nn import silu

# import llama_jax as ll  # scaffolding: the package is flattened into this file
# from llama_jax.checkpoint import ModelConfig, ModelParameters  # scaffolding: defined above in this file
# from llama_jax.rms_norm import RMSNorm  # scaffolding: defined above in this file

__all__ = [
    "FFN",
    "create",
    "forward",
]


class FFN(NamedTuple):
    """Feedforward Network state."""

    norm: RMSNorm

    input: Array

    gate: Array

    output: Array


def create(config: ModelConfig, params: ModelParameters, path: str) -> FFN:
    """Load Llama3 FFN."""
    parent_path = path.rsplit(".", 1)[0]

    # Note we transpose kernels so we don't need to during forward pass
    input = params[f"{path}.w3.weight"].transpose().astype(config.dtype)
    gate = params[f"{path}.w1.weight"].transpose().astype(config.dtype)
    output = params[f"{path}.w2.weight"].transpose().astype(config.dtype)

    return FFN(
        norm=ll.rms_norm.create(config, params, f"{parent_path}.ffn_norm"),
        input=input,
        gate=gate,
        output=output,
    )


def forward(config: ModelConfig, state: FFN, x: Array) -> Array:
    """Transform x using feedforward network (FFN)."""
    # Sanity check
    assert x.ndim == 3

    # Save residuals
    residual = x

    # Normalize inputs
    x = ll.rms_norm.forward(config, state.norm, x)

    # Apply SwiGLU transform
    x = silu(x @ state.gate) * (x @ state.input)

    # Project outputs back to model space
    x = x @ state.output

    # Merge outputs with residuals
    x = residual + x

    return x

ll.ffn = SimpleNamespace(FFN=FFN, create=create, forward=forward)  # scaffolding: module namespace


# ---- src/llama_jax/attention.py ----
"""Attention."""

from typing import NamedTuple

from jax import Array
from jax import numpy as jnp
from jax.nn import softmax

# import llama_jax as ll  # scaffolding: the package is flattened into this file
# from llama_jax.checkpoint import HEAD_AXIS, MODEL_AXIS, TOKEN_AXIS, ModelConfig, ModelParameters  # scaffolding: defined above in this file
# from llama_jax.kv_cache import LayerKVCache  # scaffolding: defined above in this file
# from llama_jax.rms_norm import RMSNorm  # scaffolding: defined above in this file
# from llama_jax.rope import Rope  # scaffolding: defined above in this file

__all__ = [
    "Attention",
    "combine_heads",
    "create",
    "forward",
    "split_heads",
]


# ------------------------------------------------------------------------------
# Attention
# ------------------------------------------------------------------------------


class Attention(NamedTuple):
    """Attention state."""

    norm: RMSNorm

    queries: Array

    keys: Array

    values: Array

    output: Array


def create(config: ModelConfig, params: ModelParameters, path: str) -> Attention:
    """Load Llama3 Attention."""
    parent_path = path.rsplit(".", 1)[0]

    # Note we transpose kernels so we don't need to during forward pass
    queries = params[f"{path}.wq.weight"].transpose().astype(config.dtype)
    keys = params[f"{path}.wk.weight"].transpose().astype(config.dtype)
    values = params[f"{path}.wv.weight"].transpose().astype(config.dtype)
    output = params[f"{path}.wo.weight"].transpose().astype(config.dtype)

    return Attention(
        norm=ll.rms_norm.create(config, params, f"{parent_path}.attention_norm"),
        queries=queries,
        keys=keys,
        values=values,
        output=output,
    )


def split_heads(x: Array, n_heads: int) -> Array:
    """Split attention heads.

    Args:
        x (Array): Input tensor w/ shape (bs, n, d_model)
        n_heads (int): Number of attention heads

    Returns:
        Array: x reshaped to (bs, n_heads, n, d_head)
    """
    # Sanity check
    assert len(x.shape) == 3

    # Calculate dimensions from static shape
    d_head = x.shape[MODEL_AXIS] // n_heads

    # Split last dimension into n_heads groups:
    #   e.g (bs, n, d_model) -> (bs, n, n_heads, d_head)
    shape = x.shape[:-1] + (n_heads, d_head)
    y = jnp.reshape(x, shape)

    # Swap token and head dimensions
    #   e.g (bs, n, n_heads, d_head) -> (bs, n_heads, n, d_head)
    y = jnp.swapaxes(y, HEAD_AXIS, TOKEN_AXIS)

    return y


def combine_heads(x: Array) -> Array:
    """Combine attention heads.

    Args:
        x (Array): Input tensor w/ shape (bs, n_heads, n, d_head)

    Returns:
        Array: x reshaped to (bs, n, n_heads * d_head)
    """
    # Sanity check
    assert len(x.shape) == 4

    # Calculate dimensions from static shape
    n_heads, d_head = x.shape[HEAD_AXIS], x.shape[MODEL_AXIS]

    # Swap token and head dimensions
    #   e.g (bs, n_heads, n, d_head) -> (bs, n, n_heads, d_head)
    y = jnp.swapaxes(x, HEAD_AXIS, TOKEN_AXIS)

    # Merge last 2 dimensions
    #   e.g (bs, n, n_heads, d_head) -> (bs, n, n_heads * d_head)
    shape = y.shape[:-2] + (n_heads * d_head,)
    y = jnp.reshape(y, shape)

    return y


def attention(config: ModelConfig, q: Array, k: Array, v: Array, m: Array) -> Array:
    """Compute attention in parallel across all heads."""
    # Sanity check
    assert q.ndim == k.ndim == v.ndim == m.ndim

    # Attention scores
    scores = softmax(q @ k.swapaxes(-2, -1) / jnp.sqrt(config.d_head) + m, axis=-1)

    # Apply scores to values
    a = scores @ v

    return a


def forward(
    config: ModelConfig,
    state: Attention,
    rope: Rope,
    mask: Array,
    x: Array,
    layer_kvc: LayerKVCache,
) -> tuple[Array, LayerKVCache]:
    """Transform x using grouped query attention (GQA)."""
    # Save residuals
    residual = x

    # Normalize inputs
    x = ll.rms_norm.forward(config, state.norm, x)

    # Project inputs to query, key, value spaces
    q = x @ state.queries
    k = x @ state.keys
    v = x @ state.values

    # Split attention heads
    #   e.g. (bs, n, d_model) -> (bs, n_heads, n, d_head)
    q = split_heads(q, config.n_heads)
    k = split_heads(k, config.n_kv_heads)
    v = split_heads(v, config.n_kv_heads)

    # Update key/value cache
    layer_kvc, k, v = ll.kv_cache.apply(layer_kvc, keys=k, values=v)

    # Expand key/value groups
    reps = config.n_heads // config.n_kv_heads
    k = k.repeat(reps, axis=HEAD_AXIS)
    v = v.repeat(reps, axis=HEAD_AXIS)

    # Calculate embedding positions in the sequence
    #   * Keys are positioned at [0, ..., n_keys-1]
    #
    #   * Queries are positioned at last n_queries elements. This supports both full sequence mode where
    #     n_queries == n_keys and incremental mode where previous keys are loaded from kv_cache.
    #
    n_queries, n_keys = q.shape[TOKEN_AXIS], k.shape[TOKEN_AXIS]
    q_positions = jnp.arange(n_keys - n_queries, n_keys)
    k_positions = jnp.arange(n_keys)

    # Encode positions by rotating queries and keys
    q = ll.rope.rotate(rope, q, positions=q_positions)
    k = ll.rope.rotate(rope, k, positions=k_positions)

    # Generate (bs, q, k) mask bias term
    m = mask[:, (n_keys - n_queries) : n_keys, :n_keys]

    # Broadcast m to (bs, 1, q, k) to be compatible with split q, k, v
    m = m[:, None, :, :]

    # Compute attention for all heads in parallel
    x = attention(config, q, k, v, m)

    # Combine attention heads
    #   e.g. (bs, n_heads, n, d_head) -> (bs, n, d_model)
    x = combine_heads(x)

    # Project outputs back to model space
    x = x @ state.output

    # Merge outputs with residuals
    x = residual + x

    return x, layer_kvc

ll.attention = SimpleNamespace(Attention=Attention, create=create, split_heads=split_heads, combine_heads=combine_heads, attention=attention, forward=forward)  # scaffolding: module namespace


# ---- src/llama_jax/layer.py ----
"""Decoder layer."""

from typing import NamedTuple

from jax import Array

# import llama_jax as ll  # scaffolding: the package is flattened into this file
# from llama_jax.attention import Attention  # scaffolding: defined above in this file
# from llama_jax.checkpoint import ModelConfig, ModelParameters  # scaffolding: defined above in this file
# from llama_jax.ffn import FFN  # scaffolding: defined above in this file
# from llama_jax.kv_cache import LayerKVCache  # scaffolding: defined above in this file
# from llama_jax.rope import Rope  # scaffolding: defined above in this file

__all__ = [
    "Layer",
    "create",
    "forward",
]


class Layer(NamedTuple):
    """Decoder layer state."""

    attention: Attention

    ffn: FFN


def create(config: ModelConfig, params: ModelParameters, path: str) -> Layer:
    """Load Llama3 Layer."""
    # Attention
    attention = ll.attention.create(config, params, f"{path}.attention")

    # FFN
    ffn = ll.ffn.create(config, params, f"{path}.feed_forward")

    return Layer(attention=attention, ffn=ffn)


def forward(
    config: ModelConfig,
    state: Layer,
    rope: Rope,
    mask: Array,
    x: Array,
    layer_kvc: LayerKVCache,
) -> tuple[Array, LayerKVCache]:
    """Transform x using attention and feedforward network."""
    # Sanity check
    assert x.ndim == 3

    # Attention
    x, layer_kvc = ll.attention.forward(config, state.attention, rope, mask, x, layer_kvc)

    # FFN
    x = ll.ffn.forward(config, state.ffn, x)

    return x, layer_kvc

ll.layer = SimpleNamespace(Layer=Layer, create=create, forward=forward)  # scaffolding: module namespace


# ---- src/llama_jax/head.py ----
"""Head."""

from typing import NamedTuple

from jax import Array
from jax import numpy as jnp

# import llama_jax as ll  # scaffolding: the package is flattened into this file
# from llama_jax.checkpoint import ModelConfig, ModelParameters  # scaffolding: defined above in this file
# from llama_jax.rms_norm import RMSNorm  # scaffolding: defined above in this file

__all__ = [
    "Head",
    "create",
    "forward",
]


# ------------------------------------------------------------------------------
# Head
# ------------------------------------------------------------------------------


class Head(NamedTuple):
    """Head state."""

    norm: RMSNorm

    output: Array


def create(config: ModelConfig, params: ModelParameters) -> Head:
    """Load Llama3 Head."""
    # Note we transpose kernels so we don't need to during forward pass
    output = params["output.weight"].transpose()

    return Head(
        norm=ll.rms_norm.create(config, params, "norm"),
        output=output,
    )


def forward(config: ModelConfig, state: Head, x: Array, position_mask: Array) -> Array:
    """Transform embeddings into token logits."""
    # Normalize inputs
    x = ll.rms_norm.forward(config, state.norm, x)

    # Use last "real" embedding to represent the entire sequence.

    # Start with fixed lengths for all sequences
    fixed_lengths = jnp.full(x.shape[0], fill_value=x.shape[1])

    # Calculate custom lengths per sequence w/o padding
    padded_lengths = jnp.sum(position_mask, axis=-1)

    # Use padded lengths if the last position in any sequence is padded
    condition = jnp.any(jnp.take(position_mask, -1, axis=-1) == 0)
    lengths = jnp.where(condition, padded_lengths, fixed_lengths)

    # Select the lengths-1 embedding for each batch
    x = jnp.array([v[lengths[i] - 1] for i, v in enumerate(x)])

    # Project outputs to token space
    x = x @ state.output

    return x

ll.head = SimpleNamespace(Head=Head, create=create, forward=forward)  # scaffolding: module namespace


# ---- src/llama_jax/model.py ----
"""Llama Model."""

from collections.abc import Sequence
from functools import partial
import logging
from typing import NamedTuple

import jax
from jax import Array, random
from jax import numpy as jnp
from jax.nn import softmax

# import llama_jax as ll  # scaffolding: the package is flattened into this file
# from llama_jax.checkpoint import ModelConfig, ModelParameters  # scaffolding: defined above in this file
# from llama_jax.embeddings import Embeddings  # scaffolding: defined above in this file
# from llama_jax.head import Head  # scaffolding: defined above in this file
# from llama_jax.kv_cache import KVCache, MutableKVCache  # scaffolding: defined above in this file
# from llama_jax.layer import Layer  # scaffolding: defined above in this file
# from llama_jax.rope import Rope  # scaffolding: defined above in this file
# from llama_jax.tools import default_arg  # scaffolding: defined above in this file

__all__ = [
    "Model",
    "attention_mask",
    "create",
    "forward",
    "increment_position_mask",
    "next_token",
]

# Module logger
logger = logging.getLogger(__name__)


class Model(NamedTuple):
    """Model state."""

    embeddings: Embeddings

    layers: Sequence[Layer]

    head: Head

    rope: Rope


def create(config: ModelConfig, params: ModelParameters) -> Model:
    """Load Llama3 Model."""
    # Embeddings
    embeddings = ll.embeddings.create(config, params)

    # Layers
    layers = tuple(
        ll.layer.create(
            config,
            params,
            f"layers.{i}",
        )
        for i in range(config.n_layers)
    )

    # Head
    head = ll.head.create(config, params)

    # Rope
    rope = ll.rope.create(config)

    model = Model(
        embeddings=embeddings,
        layers=layers,
        head=head,
        rope=rope,
    )

    return model


# @partial(jax.jit, static_argnames=("config",))
def forward(
    config: ModelConfig,
    state: Model,
    token_ids: Array,
    position_mask: Array,
    *,
    kv_cache: KVCache | None = None,
) -> Array | tuple[Array, KVCache]:
    """Transform token_ids into next token logits."""
    # Validate
    if token_ids.shape[-1] > config.max_tokens:
        raise ValueError(f"Number of tokens exceed config.max_tokens {config.max_tokens}")

    # Remember if cache was provided
    external_cache = kv_cache is not None

    # Defaults
    kv_cache = default_arg(kv_cache, default_factory=partial(ll.kv_cache.create, config, token_ids.shape[0]))

    # Sanity check - Note token_ids.shape != position_mask.shape when decoding generated tokens
    assert token_ids.ndim == position_mask.ndim == 2

    # Map tokens to embeddings
    x = ll.embeddings.forward(config, state.embeddings, token_ids)

    # Create mutable kv cache
    kvc = MutableKVCache(kv_cache)

    # Create mask
    mask = attention_mask(config, position_mask)

    # Apply layers
    for i, layer in enumerate(state.layers):
        x, kvc[i] = ll.layer.forward(config, layer, state.rope, mask, x, kvc[i])

    # Convert kv caches back into immutable sequence
    kv_cache = KVCache(kvc)

    # Apply head
    x = ll.head.forward(config, state.head, x, position_mask)

    # Return updated cache if provided
    if external_cache:
        return x, kv_cache

    return x


@partial(jax.jit, static_argnames=("temperature", "top_k", "top_p"))
def next_token(
    logits: Array,
    *,
    key: Array | None = None,
    temperature: float | None = None,
    top_k: int | None = None,
    top_p: float | None = None,
) -> Array:
    """Select next token using temperature, top k, and top p sampling."""
    # Validate
    if logits.ndim != 2:
        raise ValueError(f"Unexpected logits shape {logits.shape}. Expected (bs, vocab_size).")

    if key is None and temperature != 0:
        raise ValueError("Key must be specified unless temperature is 0.")

    # Temperature
    # -----------

    # Defaults
    temperature = default_arg(temperature, 0.6)

    # If temperature is 0, return the top token
    if temperature == 0:
        return jnp.argmax(logits, axis=-1, keepdims=True)

    # Apply temperature
    logits = logits / temperature

    # Ranking
    # -------

    # Sort logits in descending order, maintaining original indices
    indices = jnp.argsort(logits, axis=-1, descending=True)

    # Top K
    # -----

    # Defaults
    top_k = default_arg(top_k, 50)

    # Apply top k to entire batch at once
    indices = indices[:, :top_k]
    logits = jnp.take_along_axis(logits, indices, axis=-1)

    # Top P
    # -----

    # Defaults
    top_p = default_arg(top_p, 0.9)

    # Convert remaining logits to probabilities
    probs = softmax(logits, axis=-1)

    # Find index where cumulative sum of probs exceeds p
    cumulative_mask = probs.cumsum(axis=-1) <= top_p
    cutoff = jnp.sum(cumulative_mask, axis=-1, keepdims=True)

    # Calculate mask for indicies <= cutoff
    mask = jnp.broadcast_to(jnp.arange(logits.shape[-1]), logits.shape) <= cutoff

    # Zero out logits above cutoff
    logits = jnp.where(mask, logits, 0)

    # Random Selection
    # ----------------

    assert key is not None

    # Randomly choose from remaining logits
    key, subkey = random.split(key)
    selected = random.categorical(subkey, logits, axis=-1)[:, None]

    # Map selected back to original logit indices
    next_token_id = jnp.take_along_axis(indices, selected, axis=-1)

    return next_token_id


def attention_mask(config: ModelConfig, position_mask: Array) -> Array:
    """Compute attention mask."""
    # Sanity check
    assert position_mask.dtype == jnp.int32

    # Start with (max_tokens, max_tokens) causal mask
    causal_mask = jnp.tril(jnp.ones((config.max_tokens, config.max_tokens), dtype=jnp.int32))

    # Pad position mask from (bs, n) to (bs, max_tokens)
    position_mask = jnp.pad(
        position_mask,
        (
            (0, 0),  # (before0, after0)
            (0, config.max_tokens - position_mask.shape[1]),  # (before1, after1)
        ),
        constant_values=1,
    )

    # Combine masks: m[b, i, j] = causal_mask[i, j] AND position_mask[b, j]
    #   1) Broadcast causal_mask from (n, n) to (bs, n, n)
    #   2) Broadcast position mask from (bs, n) to (bs, n, n)
    #   3) Logically AND them together

    m = causal_mask[None, :, :] & position_mask[:, None, :]

    # Convert to attention mask w/ 0s and -infs
    m = jnp.where(m, 0, -jnp.inf)

    return m


def increment_position_mask(position_mask: Array) -> Array:
    """Pad position mask with a 1 to represent latest token."""
    return jnp.pad(position_mask, ((0, 0), (0, 1)), constant_values=1)

ll.model = SimpleNamespace(Model=Model, create=create, forward=forward, next_token=next_token, attention_mask=attention_mask, increment_position_mask=increment_position_mask, logger=logger)  # scaffolding: module namespace


# ---- src/llama_jax/text.py ----
"""Text completions."""

from collections.abc import Iterator, Sequence
from typing import Any, Callable

from jax import Array, random
from jax import numpy as jnp

# import llama_jax as ll  # scaffolding: the package is flattened into this file
# from llama_jax.checkpoint import ModelConfig, TrainingLevel  # scaffolding: defined above in this file
# from llama_jax.model import Model  # scaffolding: defined above in this file
# from llama_jax.tools import default_arg  # scaffolding: defined above in this file

__all__ = [
    "generator",
]

TextGenerator = Callable[[str | Sequence[str]], Iterator[str | Sequence[str]]]


def generator(
    config: ModelConfig,
    *,
    key: Array | None = None,
    model: Model | None = None,
    temperature: float | None = None,
    top_k: int | None = None,
    top_p: float | None = None,
    max_tokens: int | None = None,
) -> TextGenerator:
    """Create a text generator."""
    # Defaults
    max_tokens = default_arg(max_tokens, 32)

    # Validate
    if config.training is not TrainingLevel.PRETRAINED:
        raise ValueError("Chat generator requires PRETRAINED model.")

    # Initialize tokenizer
    tokenizer = ll.checkpoint.load_tokenizer(config)

    # Initialize model if not provided
    if model is None:
        model = ll.model.create(config, ll.checkpoint.load_parameters(config))

    # Define generator callable
    def wrapper(prompts: str | Sequence[str], **kwargs: Any) -> Iterator[str | Sequence[str]]:
        nonlocal key, max_tokens, temperature, top_k, top_p

        # Override ctor args
        max_tokens = kwargs.get("max_tokens", max_tokens)
        temperature = kwargs.get("temperature", temperature)
        top_k = kwargs.get("top_k", top_k)
        top_p = kwargs.get("top_p", top_p)

        assert max_tokens is not None

        # Remember if prompts are batched
        batched = not isinstance(prompts, str)

        # Split prompts into tokens
        token_ids, position_mask = tokenizer.encode(prompts)

        # Initialize key/value cache
        kv_cache = ll.kv_cache.create(config, bs=token_ids.shape[0])

        # Initialize x with entire sequence on first pass
        x = token_ids

        # All sequences in batch start off active
        active = jnp.ones(x.shape[0], dtype=bool)

        # Sample up to max tokens
        for _ in range(max_tokens):
            # Transform x into logits
            logits, kv_cache = ll.model.forward(config, model, x, position_mask, kv_cache=kv_cache)

            # Sample next token
            key, subkey = random.split(key) if key is not None else (None, None)
            next_token_id = ll.model.next_token(logits, key=subkey, temperature=temperature, top_k=top_k, top_p=top_p)

            # Track active sequences
            is_stop_token = jnp.isin(next_token_id.squeeze(), tokenizer.stop_tokens)
            active = active & ~is_stop_token
            if not jnp.any(active):
                break

            # Yield next token
            tokens = tokenizer.decode(next_token_id, special=False)
            yield tokens if batched else tokens[0]

            # Subsequent iterations process one token at a time.
            #   We multiply by active to explicitly zero out inactive sequences moving forward.
            x = next_token_id * active[:, None]
            position_mask = ll.model.increment_position_mask(position_mask) * active[:, None]

    return wrapper

ll.text = SimpleNamespace(generator=generator, TextGenerator=TextGenerator)  # scaffolding: module namespace



# ---- scaffolding: a tiny random Llama checkpoint instead of ~/.llama/checkpoints/Llama3.2-1B ----
import numpy as np  # scaffolding
from pathlib import Path  # scaffolding

config = ModelConfig(  # scaffolding: tiny sizes; 320 = 64 base tokens + 256 special tokens of the tokenizer
    checkpoint_path=Path("/tmp/llama-checkpoint"),  # scaffolding
    max_tokens=32,  # scaffolding
    vocab_size=320,  # scaffolding
    d_model=32,  # scaffolding
    d_head=8,  # scaffolding
    d_ffn=64,  # scaffolding
    n_layers=2,  # scaffolding
    n_heads=4,  # scaffolding
    n_kv_heads=2,  # scaffolding
    rms_norm_eps=1e-5,  # scaffolding
    dtype=jnp.float32,  # scaffolding
    training=TrainingLevel.PRETRAINED,  # scaffolding
    rope_theta=500000.0,  # scaffolding
)  # scaffolding
_rng = np.random.default_rng(0)  # scaffolding
_params = {"tok_embeddings.weight": _rng.normal(size=(320, 32)), "norm.weight": np.ones(32), "output.weight": _rng.normal(size=(320, 32))}  # scaffolding
for _i in range(2):  # scaffolding
    for _w, _s in [("wq", (32, 32)), ("wk", (16, 32)), ("wv", (16, 32)), ("wo", (32, 32))]:  # scaffolding
        _params[f"layers.{_i}.attention.{_w}.weight"] = _rng.normal(size=_s) * 0.1  # scaffolding
    for _w, _s in [("w1", (64, 32)), ("w2", (32, 64)), ("w3", (64, 32))]:  # scaffolding
        _params[f"layers.{_i}.feed_forward.{_w}.weight"] = _rng.normal(size=_s) * 0.1  # scaffolding
    _params[f"layers.{_i}.attention_norm.weight"] = np.ones(32)  # scaffolding
    _params[f"layers.{_i}.ffn_norm.weight"] = np.ones(32)  # scaffolding
_params = {k: jnp.asarray(v, dtype=jnp.float32) for k, v in _params.items()}  # scaffolding

try:  # scaffolding
    model = ll.model.create(config, _params)  # scaffolding
    generator = ll.text.generator(config, model=model, temperature=0, max_tokens=6)  # scaffolding: greedy, 6 tokens
    tokens = list(generator("My name is"))  # scaffolding
    _report({"jit(next_token)"}, len(tokens))  # scaffolding: one next_token call per generated token (forward is not jitted in this commit)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
