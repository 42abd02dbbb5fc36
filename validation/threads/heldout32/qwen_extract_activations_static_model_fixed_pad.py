# source: https://github.com/kathir-ks/activation-extract/blob/f24a21ddd8cdab3ca74560673caa5ea3c44e7fa5/extract_activations.py
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: extract_activations_sharded is jitted with the flax model as static argument 0 and is fed prompts of different lengths with a short final batch, which look like unhashable-static and ragged-batch problems, but the model (with a frozen struct.dataclass config) hashes by value, and process_batch pads the batch dimension and every sequence to max_seq_length, so one compile serves every batch.

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
from functools import partial
from typing import Any, Dict, List, Optional, Tuple
import math
import numpy as np
import jax
import jax.numpy as jnp
from jax import jit, lax
import flax.linen as nn
from flax import struct


# --- qwen2_jax.py (model classes used by the hooks model) ---
@struct.dataclass
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
    use_fixed_cache: bool = False  # Use MaxText-style fixed-size cache
    dtype: Any = struct.field(pytree_node=False, default=jnp.float32)


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

        # Pre-compute and cache RoPE embeddings
        dim = self.head_dim
        max_seq_len = self.max_position_embeddings
        inv_freq = 1.0 / (self.rope_theta ** (jnp.arange(0, dim, 2).astype(jnp.float32) / dim))
        t = jnp.arange(max_seq_len).astype(jnp.float32)
        freqs = jnp.outer(t, inv_freq)
        emb = jnp.concatenate([freqs, freqs], axis=-1)
        self.rope_cos = jnp.cos(emb)
        self.rope_sin = jnp.sin(emb)

    @nn.compact
    def __call__(self, hidden_states, attention_mask=None, kv_cache=None, position_offset=0):
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

        # Apply rotary embeddings (use cached values)
        # Use dynamic_slice instead of arange to avoid tracer issues
        # Create position_ids by slicing the pre-computed position array
        all_positions = jnp.arange(self.max_position_embeddings)
        position_ids = lax.dynamic_slice(all_positions, (position_offset,), (seq_len,))
        q, k = apply_rotary_pos_emb(q, k, self.rope_cos, self.rope_sin, position_ids)

        # Handle KV cache
        if kv_cache is not None:
            k_cache, v_cache = kv_cache
            k = jnp.concatenate([k_cache, k], axis=2)
            v = jnp.concatenate([v_cache, v], axis=2)

        new_kv_cache = (k, v)

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

        return attn_output, new_kv_cache



# --- qwen2_jax_with_hooks.py ---
class QwenDecoderLayerWithHooks(nn.Module):
    """Qwen decoder layer with optional activation capture"""
    config: QwenConfig

    @nn.compact
    def __call__(self, hidden_states, attention_mask=None, kv_cache=None,
                 position_offset=0, return_activations=False):
        residual = hidden_states

        # Self Attention with pre-attention norm
        hidden_states_norm = RMSNorm(
            self.config.hidden_size,
            self.config.rms_norm_eps,
            self.config.dtype,
            name='input_layernorm'
        )(hidden_states)

        hidden_states_attn, new_kv_cache = QwenAttention(
            self.config,
            name='self_attn'
        )(hidden_states_norm, attention_mask, kv_cache, position_offset)

        hidden_states = residual + hidden_states_attn

        # Store post-attention activation if requested
        post_attn_activation = hidden_states if return_activations else None

        # MLP with post-attention norm
        residual = hidden_states
        hidden_states_norm = RMSNorm(
            self.config.hidden_size,
            self.config.rms_norm_eps,
            self.config.dtype,
            name='post_attention_layernorm'
        )(hidden_states)

        hidden_states_mlp = QwenMLP(self.config, name='mlp')(hidden_states_norm)
        hidden_states = residual + hidden_states_mlp

        # Store post-MLP activation if requested (this is the layer output)
        layer_output_activation = hidden_states if return_activations else None

        # Return based on what's requested
        if return_activations:
            activations = {
                'post_attn': post_attn_activation,
                'layer_output': layer_output_activation
            }
            return hidden_states, new_kv_cache, activations
        else:
            return hidden_states, new_kv_cache, None


class QwenModelWithActivations(nn.Module):
    """
    Qwen model that supports both KV caching and activation extraction

    This model can operate in three modes:
    1. Fast inference (return_activations=False, with KV cache)
    2. Normal inference (return_activations=False, without KV cache)
    3. Activation extraction (return_activations=True, with or without KV cache)

    Returns:
        When return_activations=False:
            - logits: [batch, seq_len, vocab_size]
            - new_kv_caches: List of per-layer (k, v) tuples

        When return_activations=True:
            - logits: [batch, seq_len, vocab_size]
            - new_kv_caches: List of per-layer (k, v) tuples
            - activations: Dict mapping 'layer_{i}' -> layer hidden states
    """
    config: QwenConfig
    layers_to_extract: Optional[Tuple[int, ...]] = None  # Tuple for static arg compatibility

    @nn.compact
    def __call__(self, input_ids, attention_mask=None, kv_caches=None,
                 position_offset=0, return_activations=False):
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
            if kv_caches is not None:
                # Decode phase: no masking needed (attend to all cached tokens)
                attention_mask = None
            else:
                # Prefill phase: use causal mask
                attention_mask = jnp.tril(jnp.ones((seq_len, seq_len)))
                attention_mask = jnp.where(attention_mask == 0, -1e9, 0.0)
                attention_mask = jnp.expand_dims(jnp.expand_dims(attention_mask, 0), 0)

        # Apply decoder layers
        new_kv_caches = []
        activations = {} if return_activations else None

        for i in range(self.config.num_hidden_layers):
            layer_kv_cache = kv_caches[i] if kv_caches is not None else None

            # Determine if we should extract activations from this layer
            extract_this_layer = return_activations and (
                self.layers_to_extract is None or i in self.layers_to_extract
            )

            hidden_states, new_kv_cache, layer_activations = QwenDecoderLayerWithHooks(
                self.config,
                name=f'layers_{i}'
            )(hidden_states, attention_mask, layer_kv_cache, position_offset, extract_this_layer)

            new_kv_caches.append(new_kv_cache)

            # Store layer activation if extracted
            if extract_this_layer and layer_activations is not None:
                # Store the final layer output (post-MLP)
                activations[f'layer_{i}'] = layer_activations['layer_output']

        # Final norm
        hidden_states = RMSNorm(
            self.config.hidden_size,
            self.config.rms_norm_eps,
            self.config.dtype,
            name='norm'
        )(hidden_states)

        # Store final normalized activation if requested
        if return_activations:
            activations['final_norm'] = hidden_states

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

        if return_activations:
            return lm_logits, new_kv_caches, activations
        else:
            return lm_logits, new_kv_caches


def create_model_with_hooks(config: QwenConfig, layers_to_extract: Optional[List[int]] = None):
    """
    Create a Qwen model with activation extraction hooks

    Args:
        config: Model configuration
        layers_to_extract: List of layer indices to extract (None = all layers)

    Returns:
        QwenModelWithActivations instance

    Note: layers_to_extract is converted to tuple for JIT compatibility
    """
    # Convert list to tuple for JIT static argument compatibility
    layers_tuple = tuple(layers_to_extract) if layers_to_extract is not None else None
    return QwenModelWithActivations(config=config, layers_to_extract=layers_tuple)




# --- core/jax_utils.py ---
@partial(jit, static_argnums=(0,))
def extract_activations_sharded(model, params, input_ids):
    """
    Extract activations with sharded model (JIT compiled)

    This is the core JIT-compiled function for activation extraction.
    It's decorated with @jit for XLA compilation and performance.

    Args:
        model: JAX model with hooks (static argument)
        params: Sharded model parameters
        input_ids: [batch, seq_len] - replicated across devices

    Returns:
        activations: Dict mapping layer names to activation tensors
    """
    # Single forward pass with sharded params - NO GENERATION!
    # The model automatically handles sharded computation across devices
    _, _, activations = model.apply(
        params,
        input_ids,
        return_activations=True
    )

    return activations


def pad_sequences(
    sequences: list,
    pad_token_id: int = 0,
    fixed_length: Optional[int] = None
) -> list:
    """
    Pad sequences to uniform length

    Args:
        sequences: List of sequences (lists of token IDs)
        pad_token_id: Token ID to use for padding
        fixed_length: If specified, pad to this exact length

    Returns:
        List of padded sequences
    """
    if not sequences:
        return []

    # Determine target length
    if fixed_length is not None:
        max_len = fixed_length
    else:
        max_len = max(len(seq) for seq in sequences)

    # Pad all sequences
    padded = []
    for seq in sequences:
        if len(seq) < max_len:
            padded.append(seq + [pad_token_id] * (max_len - len(seq)))
        elif len(seq) > max_len:
            # Truncate if too long
            padded.append(seq[:max_len])
        else:
            padded.append(seq)

    return padded


# --- extract_activations.py ---
def process_batch(
    model,
    params,
    sequences: List,
    sample_indices: List[int],
    prompts_data: List[Dict],
    storage,  # ActivationStorage (annotation dropped: scaffolding)
    layers_to_extract: List[int],
    pad_token_id: int,
    batch_size: Optional[int] = None,
    max_seq_length: Optional[int] = None
):
    """Process a single batch of sequences"""
    # Pad batch dimension if needed
    actual_batch_size = len(sequences)
    if batch_size is not None and actual_batch_size < batch_size:
        pad_count = batch_size - actual_batch_size
        sequences = sequences + [sequences[-1]] * pad_count

    # Pad sequences to fixed length
    padded = pad_sequences(sequences, pad_token_id=pad_token_id, fixed_length=max_seq_length)
    input_ids = jnp.array(padded)

    # Forward pass (JIT-compiled)
    activations = extract_activations_sharded(model, params, input_ids)

    # Async device→host transfer for all layers
    host_activations = {}
    for layer_idx in layers_to_extract:
        layer_key = f'layer_{layer_idx}'
        if layer_key in activations:
            host_activations[layer_key] = jax.device_get(activations[layer_key])

    # Process only actual samples
    for i, sample_idx in enumerate(sample_indices):
        prompt_data = prompts_data[sample_idx]
        for layer_idx in layers_to_extract:
            layer_key = f'layer_{layer_idx}'
            if layer_key in host_activations:
                layer_act = host_activations[layer_key][i]
                layer_act_np = np.array(layer_act)
                storage.add_activation(
                    layer_idx=layer_idx,
                    activation=layer_act_np,
                    sample_idx=sample_idx,
                    text_preview=f"Task: {prompt_data['task_id']}, Prompt: {prompt_data['prompt'][:100]}"
                )




class _StandInStorage:  # scaffolding: stand-in for core.ActivationStorage (local shards / GCS upload)
    def __init__(self):
        self.n = 0

    def add_activation(self, layer_idx, activation, sample_idx, text_preview):
        self.n += 1


# --- extract_activations.py main(), scaffolding: HF model/tokenizer and ARC dataset replaced ---
config = QwenConfig(vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=2,  # scaffolding: tiny
                    num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=128)
layers_to_extract = [0, 1]
jax_model = create_model_with_hooks(config, layers_to_extract=layers_to_extract)
params = jax_model.init(jax.random.PRNGKey(0), jnp.ones((1, 10), dtype=jnp.int32))  # scaffolding: converted HF weights
batch_size, max_seq_length = 4, 48  # scaffolding: --batch_size 4, --max_seq_length 2048
_rs = np.random.RandomState(0)  # scaffolding
sequences = [list(_rs.randint(1, 64, size=_rs.randint(10, 40))) for _ in range(10)]  # scaffolding: 10 tokenized prompts of varying length
prompts_data = [{"task_id": f"t{i}", "prompt": "..."} for i in range(len(sequences))]  # scaffolding
storage = _StandInStorage()  # scaffolding

num_batches = (len(sequences) + batch_size - 1) // batch_size
for batch_idx in range(num_batches):
    start_idx = batch_idx * batch_size
    end_idx = min(start_idx + batch_size, len(sequences))

    batch_sequences = sequences[start_idx:end_idx]
    batch_sample_indices = list(range(start_idx, end_idx))

    process_batch(
        jax_model, params, batch_sequences, batch_sample_indices,
        prompts_data, storage, layers_to_extract,
        0,
        batch_size, max_seq_length
    )

_report({"jit(extract_activations_sharded)"}, num_batches)
