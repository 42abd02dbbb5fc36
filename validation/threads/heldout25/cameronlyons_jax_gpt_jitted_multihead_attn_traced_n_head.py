# source: https://github.com/Cameron-Lyons/jax-gpt/blob/0b37b39426ba0c65c70e2ed2dd80e37e4676dddb/jax_gpt/gpt2.py
# expect: trace-time-error at line 105; shape-churn at line 213
# runtime: ERROR ConcretizationTypeError
# why: n_head is a traced argument of the jitted generate_step/gpt2/multihead_attn, so jnp.split(x, n_head, axis=1) gets a tracer and raises ConcretizationTypeError; behind it, the growing input_array would recompile generate_step for every token.
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


"""GPT-2 model. For text generation."""

from dataclasses import dataclass
from typing import Any, Dict, List, Literal, Optional, Tuple, cast

import jax
import jax.numpy as jnp
from jax import jit, random

# from .utils import (  # scaffolding: package-relative import; the three constants are copied from jax_gpt/utils.py
CAUSAL_MASK_FILL_VALUE = -1e9  # scaffolding
DEFAULT_GPT2_BLOCK_SIZE = 1024  # scaffolding
DEFAULT_PADDED_VOCAB_SIZE = 50304  # scaffolding

LinearParams = Dict[str, jax.Array]


@dataclass
class GPTConfig:
    """GPT-2 model configuration."""

    block_size: int = DEFAULT_GPT2_BLOCK_SIZE
    vocab_size: int = DEFAULT_PADDED_VOCAB_SIZE
    n_layer: int = 12
    n_head: int = 12
    n_embd: int = 768
    dropout: float = 0.0
    bias: bool = (
        True  # True: bias in Linears and LayerNorms, like GPT-2. False: a bit better and faster
    )


@jit
def linear(x: jax.Array, w: jax.Array, b: jax.Array) -> jax.Array:
    """Linear layer. Multiplies input by weight matrix and adds bias.
    For use in attention layers."""
    return x @ w + b


@jit
def softmax(x: jax.Array) -> jax.Array:
    """Softmax activation function."""
    exp_x = jnp.exp(x - jnp.max(x, axis=-1, keepdims=True))
    return exp_x / jnp.sum(exp_x, axis=-1, keepdims=True)


@jit
def gelu(x: jax.Array) -> jax.Array:
    """Gaussian Error Linear Unit activation function.
    See https://arxiv.org/abs/1606.08415.
    Improves learning over ReLU at near zero values
    """
    return 0.5 * x * (1 + jnp.tanh(jnp.sqrt(2 / jnp.pi) * (x + 0.044715 * x**3)))


@jit
def layer_norm(x: jax.Array, g: jax.Array, b: jax.Array, eps: float = 1e-5) -> jax.Array:
    """Layer normalization.
    for consistent range to speed up training."""
    mean = jnp.mean(x, axis=-1, keepdims=True)
    std = jnp.std(x, axis=-1, keepdims=True)
    return g * (x - mean) / (std + eps) + b


@jit
def attention(q: jax.Array, k: jax.Array, v: jax.Array, mask: jax.Array) -> jax.Array:
    """Scaled dot-product attention."""
    return cast(jax.Array, softmax(q @ k.T / jnp.sqrt(q.shape[-1]) + mask) @ v)


@jit
def multihead_attn(
    x: jax.Array, c_attn: LinearParams, c_proj: LinearParams, n_head: int
) -> jax.Array:
    """Multi-head attention layer.
    Splits input into n_head chunks and runs attention on each chunk."""
    x = linear(x, **c_attn)
    qkv = jnp.split(x, 3, axis=-1)
    qkv_heads = list(map(lambda x: jnp.split(x, n_head, axis=1), qkv))
    causal_mask = (1 - jnp.tri(x.shape[0], dtype=x.dtype)) * CAUSAL_MASK_FILL_VALUE
    out_heads = [attention(q, k, v, causal_mask) for q, k, v in zip(*qkv_heads)]
    x = jnp.hstack(out_heads)
    return cast(jax.Array, linear(x, **c_proj))


@jit
def feed_forward_network(x, c_fc, c_proj):
    """Feed-forward network for each position."""
    a = gelu(linear(x, **c_fc))
    x = linear(a, **c_proj)
    return x


@jit
def transformer_block(x, mlp, attn, ln_1, ln_2, n_head):
    """Transformer block.
    Consists of a causal self-attention layer and a feed-forward network.
    """
    x = x + multihead_attn(layer_norm(x, **ln_1), **attn, n_head=n_head)
    x = x + feed_forward_network(layer_norm(x, **ln_2), **mlp)

    return x


@jit
def gpt2(inputs: jax.Array, wte: jax.Array, wpe, blocks: Dict, ln_f, n_head: int):
    """GPT-2 model. Consists of an embedding layer and a stack of transformer blocks."""
    x = wte[inputs] + wpe[jnp.arange(len(inputs))]

    for block in blocks:
        x = transformer_block(x, **block, n_head=n_head)

    x = layer_norm(x, **ln_f)
    return x @ wte.T


def sample_top_k(logits: jax.Array, k: int, rng: jax.Array) -> jax.Array:
    """Sample from top-k logits."""
    top_k_logits, top_k_indices = jax.lax.top_k(logits, k)
    probs = jax.nn.softmax(top_k_logits)
    sampled_index = jax.random.categorical(rng, probs)
    return top_k_indices[sampled_index]


def sample_top_p(logits: jax.Array, p: float, rng: jax.Array) -> jax.Array:
    """Sample from top-p (nucleus) logits."""
    sorted_logits = jnp.sort(logits)[::-1]
    cumulative_probs = jnp.cumsum(jax.nn.softmax(sorted_logits))
    sorted_indices_to_remove = cumulative_probs > p
    sorted_indices_to_remove = jnp.roll(sorted_indices_to_remove, 1)
    sorted_indices_to_remove = sorted_indices_to_remove.at[0].set(False)

    indices_to_remove = sorted_indices_to_remove[jnp.argsort(jnp.argsort(logits))]
    filtered_logits = jnp.where(indices_to_remove, -float("inf"), logits)
    probs = jax.nn.softmax(filtered_logits)
    return jax.random.categorical(rng, probs)


@jit
def generate_step(
    inputs: jax.Array,
    params: Dict[str, Any],
    n_head: int,
    temperature: float = 1.0,
    top_k: Optional[int] = None,
    top_p: Optional[float] = None,
    rng: Optional[jax.Array] = None,
) -> Tuple[jax.Array, jax.Array]:
    """Generate one token from the model."""
    logits = gpt2(inputs, **params, n_head=n_head)
    logits = logits[-1] / temperature

    if (top_k is not None or top_p is not None) and rng is None:
        raise ValueError("rng is required when top_k or top_p sampling is enabled")

    if top_k is not None:
        assert rng is not None
        next_id = sample_top_k(logits, top_k, rng)
    elif top_p is not None:
        assert rng is not None
        next_id = sample_top_p(logits, top_p, rng)
    else:
        next_id = jnp.argmax(logits)

    return next_id, logits


def generate(
    inputs: List[int],
    params: Dict[str, Any],
    n_head: int,
    n_tokens_to_generate: int,
    temperature: float = 1.0,
    top_k: Optional[int] = None,
    top_p: Optional[float] = None,
    rng: Optional[jax.Array] = None,
) -> List[int]:
    """Generate text from a prompt with sampling controls."""
    if rng is None:
        rng = random.PRNGKey(0)

    input_array = jnp.array(inputs)
    generated_tokens = []

    for _ in range(n_tokens_to_generate):
        rng, step_rng = random.split(rng)
        next_id, _ = generate_step(input_array, params, n_head, temperature, top_k, top_p, step_rng)
        next_id = int(next_id)
        generated_tokens.append(next_id)
        input_array = jnp.append(input_array, next_id)

    return generated_tokens



# main() loads the 124M checkpoint with load_encoder_hparams_and_params; tiny random params instead  # scaffolding
def _tiny_params(key, n_vocab=50, n_ctx=32, n_embd=8, n_layer=1):  # scaffolding
    ks = iter(random.split(key, 32))  # scaffolding
    nrm = lambda *s: 0.02 * random.normal(next(ks), s)  # scaffolding
    lin = lambda i, o: {"w": nrm(i, o), "b": jnp.zeros(o)}  # scaffolding
    ln = lambda: {"g": jnp.ones(n_embd), "b": jnp.zeros(n_embd)}  # scaffolding
    blocks = [{"mlp": {"c_fc": lin(n_embd, 4 * n_embd), "c_proj": lin(4 * n_embd, n_embd)},  # scaffolding
               "attn": {"c_attn": lin(n_embd, 3 * n_embd), "c_proj": lin(n_embd, n_embd)},  # scaffolding
               "ln_1": ln(), "ln_2": ln()} for _ in range(n_layer)]  # scaffolding
    return {"wte": nrm(n_vocab, n_embd), "wpe": nrm(n_ctx, n_embd), "blocks": blocks, "ln_f": ln()}  # scaffolding


params = _tiny_params(random.PRNGKey(0))  # scaffolding
hparams = {"n_head": 2, "n_ctx": 32}  # scaffolding
input_ids = [3, 7, 11]  # scaffolding: stands for encoder.encode(prompt)
try:  # scaffolding
    output_ids = generate(input_ids, params, hparams["n_head"], 5)  # scaffolding: main()'s call, 5 tokens
    print(output_ids)  # scaffolding
    _report({"jit(generate_step)"}, 5)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
