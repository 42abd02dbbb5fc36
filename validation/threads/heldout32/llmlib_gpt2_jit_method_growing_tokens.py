# source: https://github.com/fizzAI/llmlib/blob/9638fdaa52c58cdddb927584db4acc6c99bfcf81/test_gpt2.py
# expect: shape-churn at line 264
# runtime: COMPILES 5 CALLS 5
# why: GPT2MultiLayerPerceptron.__call__ is decorated with @jax.jit, and test_gpt2.py feeds the model an ever-longer token list (tokens += list(output)), so the jitted MLP is traced and compiled again for every new sequence length.

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
from typing import Optional
from jaxtyping import Array, Float, Int
import equinox as eqx
import jax
import jax.numpy as jnp


# --- llmlib/activations/gelu.py ---
class GELU(eqx.Module):
    @jax.jit
    def __call__(self, x: Array):
        return (
            x / 2
        ) * (
            1 + jax.lax.erf(
                x / jnp.sqrt(2)
            )
        )

class ApproximateGELU(eqx.Module):
    @jax.jit
    def __call__(self, x: Array):
        return x * (
            1 + jnp.tanh(
                jnp.sqrt(
                    2 / jnp.pi
                ) * (
                    x + 0.44715 * jnp.power(x, 3)
                )
            )
        ) * 0.5

def get_activation_by_name(name: str):
    match name:
        case "gelu":
            return GELU()
        case "approx_gelu":
            return ApproximateGELU()
        case _:
            raise ValueError(f"Unknown activation function: {name}")

# --- llmlib/normalization/layernorm.py ---
class LayerNorm(eqx.Module):
    shape: Int
    epsilon: Float
    weight: Optional[Array]
    bias: Optional[Array]

    def __init__(self, shape: Int, epsilon: Float = 1e-5, use_weight: bool = True, use_bias: bool = True):
        self.shape = shape
        self.weight = jnp.ones(shape) if use_weight else None
        self.bias = jnp.zeros(shape) if use_bias else None
        self.epsilon = epsilon
    
    def __call__(self, x: Array, dtype=jnp.float32) -> Array:
        x = jnp.asarray(x, dtype=dtype)
        mean = jnp.mean(x, keepdims=True)
        variance = jnp.var(x, keepdims=True)
        variance = jnp.maximum(0.0, variance)
        inv = jax.lax.rsqrt(variance + self.epsilon)
        y = (x - mean) * inv
        # FIXME: do i need double negation here
        if not (self.weight is None):
            y = y * self.weight
        if not (self.bias is None):
            y = y + self.bias
        
        return y

# --- llmlib/attention/self_attention.py ---
# basic self-attention module () as described in Attention is All You Need
class FusedSelfAttention(eqx.Module):
    dim: Int
    n_heads: Int
    n_kv_heads: Int
    head_dim: Int

    qkv_proj: eqx.nn.Linear
    o_proj: eqx.nn.Linear

    mask: Array

    def __init__(self, dim: int, max_seq_len: int, num_heads: int = 1, num_kv_heads: Optional[int] = None):
        self.dim = dim
        self.n_heads = num_heads
        self.n_kv_heads = num_heads if num_kv_heads is None else num_kv_heads
        self.head_dim = dim // num_heads
        
        self.qkv_proj = eqx.nn.Linear(dim, 3 * self.n_heads * self.head_dim, use_bias=False, key=jax.random.PRNGKey(0))
        self.o_proj = eqx.nn.Linear(self.n_heads * self.head_dim, dim, use_bias=False, key=jax.random.PRNGKey(0))

        self.mask = jnp.tril(jnp.ones((max_seq_len, max_seq_len)))

    def __call__(self, x: jax.Array) -> jax.Array:
        # x.shape == (batch_size, seq_len, dim)
        T, C = x.shape
        assert C == self.dim
        
        qkv = x @ self.qkv_proj.weight
        q, k, v = jnp.split(qkv, [self.n_heads * self.head_dim, (self.n_heads + self.n_kv_heads) * self.head_dim], axis=-1)
        q = q.reshape(T, self.n_heads, self.head_dim).transpose(1, 0, 2)
        k = k.reshape(T, self.n_kv_heads, self.head_dim).transpose(1, 0, 2)
        v = v.reshape(T, self.n_kv_heads, self.head_dim).transpose(1, 0, 2)

        # If n_kv_heads < n_heads, we need to repeat k and v
        if self.n_kv_heads < self.n_heads:
            k = jnp.repeat(k, self.n_heads // self.n_kv_heads, axis=1)
            v = jnp.repeat(v, self.n_heads // self.n_kv_heads, axis=1)

        scores = jnp.einsum('hid,hjd->hij', q, k) / jnp.sqrt(self.head_dim)
        mask = self.mask[None, :T, :T]
        scores = jnp.where(mask, scores, -jnp.inf)

        attn = jax.nn.softmax(scores, axis=-1)
        out = jnp.einsum('hij,hjd->hid', attn, v)
        out = out.transpose(1, 0, 2).reshape(T, self.dim)
        out = out @ self.o_proj.weight

        return out


# --- llmlib/models/template.py ---
class GenerativeModel():
    def __init__(self):
        pass

    def generate(self, input: Array, n_output: int = 1):
        pass

# --- llmlib/models/gpt2.py (load_from_pretrained_torch cut) ---
class GPT2MultiLayerPerceptron(eqx.Module):
    c_fc: eqx.nn.Linear
    c_proj: eqx.nn.Linear

    actv: eqx.Module

    def __init__(self, dim: Int, intermediate_dim: Int, actv: eqx.Module = "approx_gelu"):
        self.c_fc = eqx.nn.Linear(dim, intermediate_dim, key=jax.random.PRNGKey(0))
        self.c_proj = eqx.nn.Linear(intermediate_dim, dim, key=jax.random.PRNGKey(0))
        self.actv = get_activation_by_name(actv)

    @jax.jit
    def __call__(self, x: Array) -> Array:
        x = x @ self.c_fc.weight + self.c_fc.bias
        x = self.actv(x)
        x = x @ self.c_proj.weight + self.c_proj.bias
        return x

class GPT2TransformerBlock(eqx.Module):
    n_heads: Int
    n_kv_heads: Int
    head_dim: Int

    ln1: LayerNorm
    attn: FusedSelfAttention
    ln2: LayerNorm
    mlp: GPT2MultiLayerPerceptron

    def __init__(self, dim: Int, max_seq_len: Int, num_heads: Int = 1, num_kv_heads: Optional[Int] = None):
        self.n_heads = num_heads
        self.n_kv_heads = num_heads if num_kv_heads is None else num_kv_heads
        self.head_dim = dim // self.n_heads

        self.ln1 = LayerNorm(dim)
        self.attn = FusedSelfAttention(dim, max_seq_len, num_heads, num_kv_heads)
        self.ln2 = LayerNorm(dim)
        self.mlp = GPT2MultiLayerPerceptron(dim, dim * 4)

    def __call__(self, x: Array) -> Array:
        x = self.ln1(x)
        x = x + self.attn(x)
        x = x + self.mlp(x)
        return x

class GPT2(GenerativeModel):
    n_layers: Int
    dim: Int
    max_seq_len: Int
    n_heads: Int
    n_kv_heads: Int

    wte: eqx.nn.Embedding
    wpe: eqx.nn.Embedding
    transformers: list[GPT2TransformerBlock]
    ln_f: LayerNorm
    lm_head: eqx.nn.Linear

    def __init__(self, vocab_size: Int, dim: Int, max_seq_len: Int, n_layers: Int, num_heads: Int = 1, num_kv_heads: Optional[Int] = None):
        self.n_layers = n_layers
        self.dim = dim
        self.max_seq_len = max_seq_len
        self.n_heads = num_heads
        self.n_kv_heads = num_heads if num_kv_heads is None else num_kv_heads

        self.wte = eqx.nn.Embedding(vocab_size, dim, key=jax.random.PRNGKey(0))
        self.wpe = eqx.nn.Embedding(max_seq_len, dim, key=jax.random.PRNGKey(0)) # i think??
        self.transformers = [
            GPT2TransformerBlock(dim, max_seq_len, num_heads, num_kv_heads)
            for _ in range(n_layers)
        ]
        self.ln_f = LayerNorm(dim)
        self.lm_head = eqx.nn.Linear(dim, vocab_size, use_bias=False, key=jax.random.PRNGKey(0))

    def __call__(self, x: Array) -> Array:
        if x.shape[0] > self.max_seq_len:
            raise ValueError(f"Input sequence length {x.shape[0]} exceeds maximum sequence length {self.max_seq_len}")

        pos = jnp.arange(x.shape[0])
        
        x = jax.vmap(self.wte)(x)
        x = x + jax.vmap(self.wpe)(pos)
        for transformer in self.transformers:
            x = transformer(x)
        x = self.ln_f(x)
        return jax.vmap(lambda x: x @ self.lm_head.weight)(x)

    def generate(self, inp: any):
        inp = jnp.asarray(inp)
        logits = self(inp)
        return logits


# --- test_gpt2.py ---
# scaffolding: tiktoken and the GPT-2 safetensors are not available; a tiny random-weight GPT2 and token ids instead
model = GPT2(vocab_size=64, dim=32, max_seq_len=1024, n_layers=2, num_heads=4, num_kv_heads=4)  # scaffolding (GPT-2's n_ctx kept)
for _i, _t in enumerate(model.transformers):  # scaffolding: put random weights in the HF Conv1D (in, out) layout, as load_from_pretrained_torch does
    _t = eqx.tree_at(lambda t: t.attn.qkv_proj.weight, _t, _t.attn.qkv_proj.weight.T)  # scaffolding
    _t = eqx.tree_at(lambda t: t.mlp.c_fc.weight, _t, _t.mlp.c_fc.weight.T)  # scaffolding
    _t = eqx.tree_at(lambda t: t.mlp.c_proj.weight, _t, _t.mlp.c_proj.weight.T)  # scaffolding
    model.transformers[_i] = _t  # scaffolding
model.lm_head = eqx.tree_at(lambda x: x.weight, model.lm_head, jnp.transpose(model.wte.weight))  # scaffolding
tokens = [5, 17, 3, 42, 8, 11, 29, 7]  # scaffolding: stand-in for tokenizer.encode(...)
n_calls = 0  # scaffolding

while True:
    logits = model.generate(tokens)
    n_calls += 1  # scaffolding
    output = jnp.argmax(logits, axis=-1)
    tokens += list(output)
    if len(tokens) > 200:  # scaffolding: 1000 in test_gpt2.py
        break

_report({"jit(__call__)"}, n_calls)
