# source: https://github.com/kathir-ks/activation-extract/blob/aa88f6711b00994f53c4cd62ecd52d2a5e1c98b1/qwen2_jax.py
# expect: shape-churn at line 357
# runtime: COMPILES 6 CALLS 6
# why: The @jax.jit generate_token is fed generated_ids, which grows by one token per step via jnp.concatenate, so every generation step traces and compiles the whole model again (the author's PERFORMANCE_ISSUE.md in the same commit names it).

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
"""
Qwen 2.5 0.5B Model JAX Implementation for TPUs

Requirements:
pip install jax[tpu] -f https://storage.googleapis.com/jax-releases/libtpu_releases.html
pip install transformers flax torch einops
"""

import jax
import jax.numpy as jnp
from jax import lax
import flax.linen as nn
from flax import struct
from typing import Optional, Tuple, Dict, Any
import numpy as np
from dataclasses import dataclass
import math


@dataclass
class QwenConfig:
    """Configuration for Qwen model."""
    vocab_size: int = 151936
    hidden_size: int = 896
    intermediate_size: int = 4864
    num_hidden_layers: int = 24
    num_attention_heads: int = 14
    num_key_value_heads: int = 2
    max_position_embeddings: int = 32768
    rope_theta: float = 1000000.0
    rms_norm_eps: float = 1e-6
    tie_word_embeddings: bool = True
    use_sliding_window: bool = False
    sliding_window: int = 32768
    dtype: Any = jnp.float32


def rotate_half(x):
    """Rotates half the hidden dims of the input."""
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return jnp.concatenate([-x2, x1], axis=-1)


def apply_rotary_pos_emb(q, k, cos, sin, position_ids):
    """Apply rotary position embeddings to query and key tensors."""
    # q, k shape: (batch, num_heads, seq_len, head_dim)
    # cos, sin shape: (max_seq_len, head_dim)
    
    # Get cos and sin for the specific positions
    cos = jnp.take(cos, position_ids, axis=0)  # (seq_len, head_dim)
    sin = jnp.take(sin, position_ids, axis=0)  # (seq_len, head_dim)
    
    # Reshape to (1, 1, seq_len, head_dim) for broadcasting
    cos = cos[None, None, :, :]
    sin = sin[None, None, :, :]
    
    q_embed = (q * cos) + (rotate_half(q) * sin)
    k_embed = (k * cos) + (rotate_half(k) * sin)
    return q_embed, k_embed


class RMSNorm(nn.Module):
    """RMSNorm implementation."""
    dim: int
    eps: float = 1e-6
    dtype: Any = jnp.float32
    
    @nn.compact
    def __call__(self, x):
        weight = self.param('weight', nn.initializers.ones, (self.dim,), self.dtype)
        variance = jnp.mean(x.astype(jnp.float32) ** 2, axis=-1, keepdims=True)
        x = x * lax.rsqrt(variance + self.eps)
        return (weight * x).astype(self.dtype)


class QwenMLP(nn.Module):
    """Qwen MLP block."""
    config: QwenConfig
    
    @nn.compact
    def __call__(self, x):
        gate_proj = nn.Dense(
            self.config.intermediate_size,
            use_bias=False,
            dtype=self.config.dtype,
            name='gate_proj'
        )(x)
        up_proj = nn.Dense(
            self.config.intermediate_size,
            use_bias=False,
            dtype=self.config.dtype,
            name='up_proj'
        )(x)
        
        hidden_states = nn.silu(gate_proj) * up_proj
        
        down_proj = nn.Dense(
            self.config.hidden_size,
            use_bias=False,
            dtype=self.config.dtype,
            name='down_proj'
        )(hidden_states)
        
        return down_proj


class QwenAttention(nn.Module):
    """Multi-headed attention with grouped query attention support."""
    config: QwenConfig
    
    def setup(self):
        self.hidden_size = self.config.hidden_size
        self.num_heads = self.config.num_attention_heads
        self.head_dim = self.hidden_size // self.num_heads
        self.num_key_value_heads = self.config.num_key_value_heads
        self.num_key_value_groups = self.num_heads // self.num_key_value_heads
        self.max_position_embeddings = self.config.max_position_embeddings
        self.rope_theta = self.config.rope_theta
    
    def _init_rope(self):
        """Initialize rotary position embeddings."""
        dim = self.head_dim
        max_seq_len = self.max_position_embeddings
        
        inv_freq = 1.0 / (self.rope_theta ** (jnp.arange(0, dim, 2).astype(jnp.float32) / dim))
        t = jnp.arange(max_seq_len).astype(jnp.float32)
        
        freqs = jnp.outer(t, inv_freq)
        emb = jnp.concatenate([freqs, freqs], axis=-1)
        
        cos = jnp.cos(emb)
        sin = jnp.sin(emb)
        return cos, sin
    
    @nn.compact
    def __call__(self, hidden_states, attention_mask=None):
        batch_size, seq_len, _ = hidden_states.shape
        
        q_proj = nn.Dense(
            self.num_heads * self.head_dim,
            use_bias=True,
            dtype=self.config.dtype,
            name='q_proj'
        )(hidden_states)
        k_proj = nn.Dense(
            self.num_key_value_heads * self.head_dim,
            use_bias=True,
            dtype=self.config.dtype,
            name='k_proj'
        )(hidden_states)
        v_proj = nn.Dense(
            self.num_key_value_heads * self.head_dim,
            use_bias=True,
            dtype=self.config.dtype,
            name='v_proj'
        )(hidden_states)
        
        # Reshape for attention computation
        q = q_proj.reshape(batch_size, seq_len, self.num_heads, self.head_dim).transpose(0, 2, 1, 3)
        k = k_proj.reshape(batch_size, seq_len, self.num_key_value_heads, self.head_dim).transpose(0, 2, 1, 3)
        v = v_proj.reshape(batch_size, seq_len, self.num_key_value_heads, self.head_dim).transpose(0, 2, 1, 3)
        
        # Apply rotary embeddings
        cos, sin = self._init_rope()
        position_ids = jnp.arange(seq_len)
        q, k = apply_rotary_pos_emb(q, k, cos, sin, position_ids)
        
        # Repeat k/v heads if using GQA
        if self.num_key_value_groups > 1:
            k = jnp.repeat(k, self.num_key_value_groups, axis=1)
            v = jnp.repeat(v, self.num_key_value_groups, axis=1)
        
        # Compute attention scores
        attn_weights = jnp.matmul(q, k.transpose(0, 1, 3, 2)) / math.sqrt(self.head_dim)
        
        # Apply attention mask
        if attention_mask is not None:
            attn_weights = attn_weights + attention_mask
        
        attn_weights = nn.softmax(attn_weights, axis=-1).astype(self.config.dtype)
        attn_output = jnp.matmul(attn_weights, v)
        
        # Reshape back
        attn_output = attn_output.transpose(0, 2, 1, 3).reshape(batch_size, seq_len, self.hidden_size)
        
        # Output projection
        attn_output = nn.Dense(
            self.hidden_size,
            use_bias=False,
            dtype=self.config.dtype,
            name='o_proj'
        )(attn_output)
        
        return attn_output


class QwenDecoderLayer(nn.Module):
    """Qwen decoder layer."""
    config: QwenConfig
    
    @nn.compact
    def __call__(self, hidden_states, attention_mask=None):
        residual = hidden_states
        
        # Self Attention
        hidden_states = RMSNorm(self.config.hidden_size, self.config.rms_norm_eps, self.config.dtype, name='input_layernorm')(hidden_states)
        hidden_states = QwenAttention(self.config, name='self_attn')(hidden_states, attention_mask)
        hidden_states = residual + hidden_states
        
        # MLP
        residual = hidden_states
        hidden_states = RMSNorm(self.config.hidden_size, self.config.rms_norm_eps, self.config.dtype, name='post_attention_layernorm')(hidden_states)
        hidden_states = QwenMLP(self.config, name='mlp')(hidden_states)
        hidden_states = residual + hidden_states
        
        return hidden_states


class QwenModel(nn.Module):
    """Qwen model implementation in JAX."""
    config: QwenConfig
    
    @nn.compact
    def __call__(self, input_ids, attention_mask=None):
        batch_size, seq_len = input_ids.shape
        
        # Token embeddings
        embed_tokens = nn.Embed(
            self.config.vocab_size,
            self.config.hidden_size,
            dtype=self.config.dtype,
            name='embed_tokens'
        )
        hidden_states = embed_tokens(input_ids)
        
        # Create causal mask if not provided
        if attention_mask is None:
            attention_mask = jnp.tril(jnp.ones((seq_len, seq_len)))
            attention_mask = jnp.where(attention_mask == 0, -1e9, 0.0)
            attention_mask = jnp.expand_dims(jnp.expand_dims(attention_mask, 0), 0)
        
        # Apply decoder layers
        for i in range(self.config.num_hidden_layers):
            hidden_states = QwenDecoderLayer(self.config, name=f'layers_{i}')(
                hidden_states, attention_mask
            )
        
        # print("layer")
        # Final norm
        hidden_states = RMSNorm(
            self.config.hidden_size,
            self.config.rms_norm_eps,
            self.config.dtype,
            name='norm'
        )(hidden_states)
        
        # LM head
        if self.config.tie_word_embeddings:
            lm_logits = embed_tokens.attend(hidden_states)
        else:
            lm_head = nn.Dense(
                self.config.vocab_size,
                use_bias=False,
                dtype=self.config.dtype,
                name='lm_head'
            )
            lm_logits = lm_head(hidden_states)
        
        return lm_logits



class _StandInTokenizer:  # scaffolding: stand-in for AutoTokenizer (transformers not installed)
    eos_token_id = 63  # scaffolding: an id the tiny random model does not produce here

    def __call__(self, text, return_tensors="np"):
        return {"input_ids": np.array([[(ord(c) % 60) + 1 for c in text[:8]]], dtype=np.int32)}

    def decode(self, ids, skip_special_tokens=True):
        return " ".join(str(int(i)) for i in ids)


def main():
    """Main function to load and run Qwen model on TPUs."""
    # scaffolding: HF model download and weight conversion cut; a tiny random-weight config instead
    tokenizer = _StandInTokenizer()
    config = QwenConfig(
        vocab_size=64,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=1,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=128,
    )

    # Initialize JAX model
    print("\nInitializing JAX model...")
    jax_model = QwenModel(config)

    # Create dummy input for initialization
    dummy_input = jnp.ones((1, 10), dtype=jnp.int32)
    rng = jax.random.PRNGKey(0)

    # Initialize parameters
    params = jax_model.init(rng, dummy_input)

    # Prepare input
    text = "The future of artificial intelligence"
    print(f"\nInput text: '{text}'")

    inputs = tokenizer(text, return_tensors="np")
    input_ids = jnp.array(inputs['input_ids'])

    # Run inference
    print("\nRunning inference...")
    # JIT compile the model for better performance on TPU
    @jax.jit
    def generate_token(params, input_ids):
        return jax_model.apply(params, input_ids)
    
    # Generate tokens
    max_new_tokens = 6  # scaffolding: 50 in the script
    generated_ids = input_ids
    
    print("\nGenerating text...")
    for _ in range(max_new_tokens):
        logits = generate_token(params, generated_ids)
        next_token_logits = logits[:, -1, :]
        next_token_id = jnp.argmax(next_token_logits, axis=-1, keepdims=True)
        generated_ids = jnp.concatenate([generated_ids, next_token_id], axis=1)
        
        # Check for EOS token
        if tokenizer.eos_token_id and next_token_id[0, 0] == tokenizer.eos_token_id:
            break
    
    # Decode output
    generated_text = tokenizer.decode(generated_ids[0], skip_special_tokens=True)
    print(f"\nGenerated text:\n{generated_text}")
    
    return generated_ids.shape[1] - input_ids.shape[1]  # scaffolding


n_calls = main()  # scaffolding
_report({"jit(generate_token)"}, n_calls)
