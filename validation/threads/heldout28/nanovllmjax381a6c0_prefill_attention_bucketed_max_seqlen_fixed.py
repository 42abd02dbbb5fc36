# source: https://github.com/saran-gangster/nanovllm_jax/commit/381a6c01271575700636c5c13ded54d7ca676e44
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: the commit passes power-of-2 bucketed max_seqlen values (min 16) as the static arguments, so the five prefill batches all hit one bucket and variable_length_attention_prefill compiles once for 5 calls.
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



# ---- utils/context.py at 381a6c0 ----
from dataclasses import dataclass
import jax
import jax.numpy as jnp


@dataclass
class AttentionContext:
    """Context containing all metadata needed for attention computation.
    
    This is passed explicitly to the model's forward function rather than
    using global state, maintaining JAX's functional paradigm.
    
    Registered as a JAX PyTree for JIT compatibility.
    
    OPTIMIZATION: max_seqlen_q/k are now JAX arrays (traced) instead of
    Python ints (static). This prevents recompilation when lengths change.
    
    Attributes:
        is_prefill: True for prefill phase (processing prompt), False for decode.
        
        # Prefill-specific (variable-length sequences):
        cu_seqlens_q: Cumulative sequence lengths for queries [num_seqs + 1].
        cu_seqlens_k: Cumulative sequence lengths for keys [num_seqs + 1].
        max_seqlen_q: Maximum query sequence length in batch (JAX scalar array).
        max_seqlen_k: Maximum key sequence length in batch (JAX scalar array).
        
        # Decode-specific (single token per sequence):
        context_lens: Current context length for each sequence [batch_size].
        
        # Shared:
        slot_mapping: Maps token positions to KV cache slots [num_tokens].
                     -1 indicates cached token (don't store).
        block_tables: Block table for paged attention [batch_size, max_blocks].
                     Maps logical blocks to physical block IDs.
        
        # For LM head in prefill:
        last_token_indices: Indices of last tokens in packed sequence [batch_size].
        
        # Bucketed sizes for JIT cache efficiency (static - used for padding)
        bucketed_max_seqlen_q: Power-of-2 bucket for max_seqlen_q.
        bucketed_max_seqlen_k: Power-of-2 bucket for max_seqlen_k.
    """
    is_prefill: bool = False
    
    # Prefill metadata (max_seqlen now as traced arrays to avoid recompilation)
    cu_seqlens_q: jnp.ndarray | None = None
    cu_seqlens_k: jnp.ndarray | None = None
    max_seqlen_q: jnp.ndarray | None = None  # Changed: JAX scalar array, traced
    max_seqlen_k: jnp.ndarray | None = None  # Changed: JAX scalar array, traced
    
    # Decode metadata  
    context_lens: jnp.ndarray | None = None
    
    # Shared metadata
    slot_mapping: jnp.ndarray | None = None
    block_tables: jnp.ndarray | None = None
    
    # LM head metadata
    last_token_indices: jnp.ndarray | None = None
    
    # Static bucketed sizes for JIT efficiency (power of 2)
    bucketed_max_seqlen_q: int = 0
    bucketed_max_seqlen_k: int = 0


# Register AttentionContext as a JAX PyTree
# Static fields (not traced): is_prefill, bucketed_max_seqlen_q, bucketed_max_seqlen_k
# Dynamic fields (traced as arrays): cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k,
#                                     context_lens, slot_mapping, block_tables, last_token_indices
def _attention_context_flatten(ctx):
    """Flatten AttentionContext for PyTree registration.
    
    OPTIMIZATION: max_seqlen_q/k moved to children (traced) to prevent
    recompilation when sequence lengths change.
    """
    # Children are the dynamic (array) fields - these are traced through JIT
    children = (
        ctx.cu_seqlens_q,
        ctx.cu_seqlens_k,
        ctx.max_seqlen_q,  # Now traced as JAX array
        ctx.max_seqlen_k,  # Now traced as JAX array
        ctx.context_lens,
        ctx.slot_mapping,
        ctx.block_tables,
        ctx.last_token_indices,
    )
    # Aux data is the static fields - changing these triggers recompilation
    # Only is_prefill and bucketed sizes are static (bucketed sizes change rarely)
    aux_data = (ctx.is_prefill, ctx.bucketed_max_seqlen_q, ctx.bucketed_max_seqlen_k)
    return children, aux_data


def _attention_context_unflatten(aux_data, children):
    """Unflatten to reconstruct AttentionContext."""
    is_prefill, bucketed_max_seqlen_q, bucketed_max_seqlen_k = aux_data
    (cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k,
     context_lens, slot_mapping, block_tables, last_token_indices) = children
    return AttentionContext(
        is_prefill=is_prefill,
        cu_seqlens_q=cu_seqlens_q,
        cu_seqlens_k=cu_seqlens_k,
        max_seqlen_q=max_seqlen_q,
        max_seqlen_k=max_seqlen_k,
        context_lens=context_lens,
        slot_mapping=slot_mapping,
        block_tables=block_tables,
        last_token_indices=last_token_indices,
        bucketed_max_seqlen_q=bucketed_max_seqlen_q,
        bucketed_max_seqlen_k=bucketed_max_seqlen_k,
    )


# Register the PyTree
jax.tree_util.register_pytree_node(
    AttentionContext,
    _attention_context_flatten,
    _attention_context_unflatten,
)


import math


def _bucket_size(n: int, min_size: int = 16) -> int:
    """Round up to next power of 2 for JIT cache efficiency."""
    if n <= min_size:
        return min_size
    return 2 ** math.ceil(math.log2(n))


def create_prefill_context(
    cu_seqlens_q: jnp.ndarray,
    cu_seqlens_k: jnp.ndarray,
    max_seqlen_q: int,
    max_seqlen_k: int,
    slot_mapping: jnp.ndarray,
    block_tables: jnp.ndarray | None = None,
) -> AttentionContext:
    """Create context for prefill phase.
    
    Args:
        cu_seqlens_q: Cumulative query sequence lengths [num_seqs + 1].
        cu_seqlens_k: Cumulative key sequence lengths [num_seqs + 1].
        max_seqlen_q: Maximum query length in batch.
        max_seqlen_k: Maximum key length in batch.
        slot_mapping: Token to KV cache slot mapping.
        block_tables: Optional block tables for prefix caching.
    
    Returns:
        AttentionContext configured for prefill.
    """
    # Compute last token indices for LM head
    last_token_indices = cu_seqlens_q[1:] - 1
    
    # OPTIMIZATION: Bucket sizes to powers of 2 to reduce JIT recompilations
    bucketed_q = _bucket_size(max_seqlen_q)
    bucketed_k = _bucket_size(max_seqlen_k)
    
    return AttentionContext(
        is_prefill=True,
        cu_seqlens_q=cu_seqlens_q,
        cu_seqlens_k=cu_seqlens_k,
        max_seqlen_q=jnp.array(max_seqlen_q, dtype=jnp.int32),  # Traced array
        max_seqlen_k=jnp.array(max_seqlen_k, dtype=jnp.int32),  # Traced array
        slot_mapping=slot_mapping,
        block_tables=block_tables,
        last_token_indices=last_token_indices,
        bucketed_max_seqlen_q=bucketed_q,  # Static, powers of 2
        bucketed_max_seqlen_k=bucketed_k,  # Static, powers of 2
    )


def create_decode_context(
    context_lens: jnp.ndarray,
    slot_mapping: jnp.ndarray,
    block_tables: jnp.ndarray,
) -> AttentionContext:
    """Create context for decode phase.
    
    Args:
        context_lens: Current context length for each sequence [batch_size].
        slot_mapping: Token to KV cache slot mapping [batch_size].
        block_tables: Block tables for paged attention [batch_size, max_blocks].
    
    Returns:
        AttentionContext configured for decode.
    
    Note: For decode, max_seqlen is not used (single query token), so we use
    fixed bucket sizes to avoid any recompilation.
    """
    return AttentionContext(
        is_prefill=False,
        context_lens=context_lens,
        slot_mapping=slot_mapping,
        block_tables=block_tables,
        last_token_indices=None,  # Not needed for decode (all tokens are "last")
        # Fixed bucket sizes for decode (query len is always 1)
        bucketed_max_seqlen_q=1,
        bucketed_max_seqlen_k=0,  # Not used in decode path
    )


# ---- layers/attention.py at 381a6c0 ----
import math
import jax
import jax.numpy as jnp
from jax import lax
from flax import nnx
from typing import NamedTuple
from functools import partial

# from nanovllm_jax.utils.context import AttentionContext  # scaffolding: defined above in this file
def bucket_size(n: int, min_size: int = 16) -> int:
    """Round up to next power of 2 for JIT cache efficiency.
    
    This reduces JIT recompilations from O(unique_lengths) to O(log(max_length)).
    For example: 17 -> 32, 100 -> 128, 256 -> 256
    
    Args:
        n: The size to bucket.
        min_size: Minimum bucket size.
    
    Returns:
        Power of 2 >= max(n, min_size).
    """
    if n <= min_size:
        return min_size
    return 2 ** math.ceil(math.log2(n))

def _make_causal_mask(seq_len: int, dtype: jnp.dtype = jnp.bfloat16) -> jax.Array:
    """Create a causal attention mask."""
    mask = jnp.tril(jnp.ones((seq_len, seq_len), dtype=jnp.bool_))
    return mask

@partial(jax.jit, static_argnums=(5, 6, 7, 8, 9, 10))
def variable_length_attention_prefill(
    q: jax.Array,  # [total_tokens, num_heads, head_dim]
    k: jax.Array,  # [total_tokens, num_kv_heads, head_dim]
    v: jax.Array,  # [total_tokens, num_kv_heads, head_dim]
    cu_seqlens_q: jax.Array,  # [batch_size + 1]
    cu_seqlens_k: jax.Array,  # [batch_size + 1]
    bucketed_max_seqlen_q: int,  # CHANGED: Bucketed (power of 2) for JIT cache
    bucketed_max_seqlen_k: int,  # CHANGED: Bucketed (power of 2) for JIT cache
    num_heads: int,
    num_kv_heads: int,
    scale: float,
    batch_size: int,
) -> jax.Array:
    """Variable-length attention for prefill - FULLY VECTORIZED.
    
    OPTIMIZATION: Uses bucketed max_seqlen values (powers of 2) as static args
    to reduce JIT recompilations from O(unique_lengths) to O(log(max_length)).
    Uses batched attention with padding and masking for GPU efficiency.
    This replaces the slow fori_loop implementation.
    
    Args:
        q, k, v: Packed tensors [total_tokens, heads, head_dim]
        cu_seqlens_q, cu_seqlens_k: Cumulative sequence lengths [batch+1]
        max_seqlen_q, max_seqlen_k: Maximum sequence lengths (for static shapes)
        num_heads, num_kv_heads: Attention head counts
        scale: Softmax scale factor
        batch_size: Number of sequences in batch
    
    Returns:
        Output tensor [total_tokens, num_heads, head_dim]
    """
    head_dim = q.shape[-1]
    total_tokens = q.shape[0]
    
    # Note: GQA is handled by jax.nn.dot_product_attention via broadcasting
    # No need to expand KV heads - it supports num_heads != num_kv_heads natively
    
    # For single sequence, use jax.nn.dot_product_attention directly
    if batch_size == 1:
        # q: [seq_len, num_heads, head_dim] -> [1, seq_len, num_heads, head_dim]
        # k, v: [seq_len, num_kv_heads, head_dim] -> [1, seq_len, num_kv_heads, head_dim]
        seq_len = total_tokens
        q_batched = q[None, :, :, :]  # [1, seq, heads, dim]
        k_batched = k[None, :, :, :]  # [1, seq, kv_heads, dim]
        v_batched = v[None, :, :, :]  # [1, seq, kv_heads, dim]
        
        # Causal mask: [1, 1, seq, seq]
        causal_mask = jnp.tril(jnp.ones((seq_len, seq_len), dtype=jnp.bool_))
        mask = causal_mask[None, None, :, :]  # [1, 1, seq, seq]
        
        # Use fused attention - handles GQA via broadcasting
        output = jax.nn.dot_product_attention(
            q_batched, k_batched, v_batched,
            mask=mask,
            scale=scale,
        )  # [1, seq, num_heads, dim]
        
        return output.squeeze(0)  # [seq, num_heads, dim]
    
    # ==========================================================================
    # VECTORIZED padding using advanced indexing (replaces O(N) fori_loop)
    # ==========================================================================
    
    # Use bucketed sizes for static shape allocation (reduces recompilations)
    max_seqlen_q = bucketed_max_seqlen_q
    max_seqlen_k = bucketed_max_seqlen_k
    
    # Compute sequence lengths
    seq_lens_q = cu_seqlens_q[1:] - cu_seqlens_q[:-1]  # [batch]
    seq_lens_k = cu_seqlens_k[1:] - cu_seqlens_k[:-1]  # [batch]
    
    # Create index arrays for vectorized gather
    # For each (batch, position), compute the source index in packed array
    pos_indices_q = jnp.arange(max_seqlen_q)[None, :]  # [1, max_seq_q]
    pos_indices_k = jnp.arange(max_seqlen_k)[None, :]  # [1, max_seq_k]
    
    # Source indices: cu_seqlens[i] + pos for each sequence
    # Shape: [batch, max_seq]
    q_src_indices = cu_seqlens_q[:-1, None] + pos_indices_q  # [batch, max_seq_q]
    k_src_indices = cu_seqlens_k[:-1, None] + pos_indices_k  # [batch, max_seq_k]
    
    # Clamp indices to valid range (out-of-bounds will be masked anyway)
    q_src_indices = jnp.clip(q_src_indices, 0, total_tokens - 1)
    k_src_indices = jnp.clip(k_src_indices, 0, total_tokens - 1)
    
    # Validity masks for padding
    q_valid = pos_indices_q < seq_lens_q[:, None]  # [batch, max_seq_q]
    k_valid = pos_indices_k < seq_lens_k[:, None]  # [batch, max_seq_k]
    
    # Vectorized gather using advanced indexing - O(1) parallel operation!
    # q: [total_tokens, heads, dim] -> q_padded: [batch, max_seq, heads, dim]
    q_padded = q[q_src_indices]  # [batch, max_seq_q, heads, dim]
    k_padded = k[k_src_indices]  # [batch, max_seq_k, heads, dim]
    v_padded = v[k_src_indices]  # [batch, max_seq_k, heads, dim]
    
    # Zero out invalid (padding) positions
    q_padded = jnp.where(q_valid[:, :, None, None], q_padded, 0)
    k_padded = jnp.where(k_valid[:, :, None, None], k_padded, 0)
    v_padded = jnp.where(k_valid[:, :, None, None], v_padded, 0)
    
    # Create attention mask combining causal + padding
    # [batch, max_seq_q, max_seq_k]
    q_pos = jnp.arange(max_seqlen_q)[None, :, None]  # [1, seq_q, 1]
    k_pos = jnp.arange(max_seqlen_k)[None, None, :]  # [1, 1, seq_k]
    
    # Causal mask: q_pos >= k_pos
    causal_mask = q_pos >= k_pos  # [1, seq_q, seq_k]
    
    # Padding mask: only attend to valid positions
    q_valid = jnp.arange(max_seqlen_q)[None, :] < seq_lens_q[:, None]  # [batch, seq_q]
    k_valid = jnp.arange(max_seqlen_k)[None, :] < seq_lens_k[:, None]  # [batch, seq_k]
    padding_mask = q_valid[:, :, None] & k_valid[:, None, :]  # [batch, seq_q, seq_k]
    
    # Combined mask: [batch, seq_q, seq_k]
    full_mask = causal_mask & padding_mask
    
    # Use jax.nn.dot_product_attention for fused implementation
    # Input shape for BNTS format: [batch, seq, heads, dim]
    # Mask shape: [batch, 1, seq_q, seq_k] for broadcasting over heads
    mask_for_attn = full_mask[:, None, :, :]  # Add head dimension
    
    output_padded = jax.nn.dot_product_attention(
        q_padded, k_padded, v_padded,
        mask=mask_for_attn,
        scale=scale,
    )  # [batch, max_seq_q, heads, dim]
    
    # ==========================================================================
    # VECTORIZED scatter back to packed output (replaces O(N) fori_loop)
    # ==========================================================================
    
    # Compute destination indices for each (batch, position) -> packed index
    # dest_indices[b, p] = cu_seqlens_q[b] + p
    dest_indices = cu_seqlens_q[:-1, None] + pos_indices_q  # [batch, max_seq_q]
    dest_indices = jnp.clip(dest_indices, 0, total_tokens - 1)
    
    # Flatten for scatter operation
    dest_flat = dest_indices.reshape(-1)  # [batch * max_seq_q]
    output_flat = output_padded.reshape(-1, num_heads, head_dim)  # [batch * max_seq_q, heads, dim]
    valid_flat = q_valid.reshape(-1)  # [batch * max_seq_q]
    
    # Initialize output and scatter valid entries using vectorized operation
    output = jnp.zeros((total_tokens, num_heads, head_dim), dtype=q.dtype)
    
    # Masked scatter: only write valid positions
    # Use .at[].set() with masked values - invalid positions write zeros which we overwrite
    masked_output = jnp.where(valid_flat[:, None, None], output_flat, 0)
    output = output.at[dest_flat].add(masked_output)
    
    return output


class Attention(nnx.Module):
    """Multi-head attention with paged KV-cache.
    
    Supports both prefill (processing full sequences) and decode (single token)
    phases with paged attention for efficient memory usage.
    
    Optimized for GPU efficiency using:
    - jax.nn.dot_product_attention (XLA fused Flash Attention)
    - Batched operations instead of sequential loops
    - Efficient KV-cache scatter operations
    
    Attributes:
        num_heads: Number of query attention heads.
        head_dim: Dimension of each attention head.
        scale: Softmax scale factor (typically 1/sqrt(head_dim)).
        num_kv_heads: Number of key/value heads (for GQA/MQA).
        k_cache: Reference to layer's key cache (set by model runner).
        v_cache: Reference to layer's value cache (set by model runner).
        block_size: Number of tokens per cache block.
    """
    
    # Declare cache attributes as data (mutable) for Flax NNX 0.12+
    k_cache: jax.Array | None = nnx.data()
    v_cache: jax.Array | None = nnx.data()
    
    def __init__(
        self,
        num_heads: int,
        head_dim: int,
        scale: float,
        num_kv_heads: int,
        block_size: int = 256,
    ):
        self.num_heads = num_heads
        self.head_dim = head_dim
        self.scale = scale
        self.num_kv_heads = num_kv_heads
        self.block_size = block_size
        
        # KV cache will be set by model runner after allocation
        # Shape: [num_blocks, block_size, num_kv_heads, head_dim]
        self.k_cache = None
        self.v_cache = None
    
    def set_kv_cache(self, k_cache: jax.Array, v_cache: jax.Array):
        """Set KV cache references (called by model runner)."""
        self.k_cache = k_cache
        self.v_cache = v_cache
    
    def _prefill_attention(
        self,
        q: jax.Array,
        k: jax.Array,
        v: jax.Array,
        context: AttentionContext,
    ) -> jax.Array:
        """Attention for prefill phase with variable-length sequences.
        
        Uses optimized batched attention with jax.nn.dot_product_attention.
        
        Args:
            q: Query tensor [total_tokens, num_heads, head_dim].
            k: Key tensor [total_tokens, num_kv_heads, head_dim].
            v: Value tensor [total_tokens, num_kv_heads, head_dim].
            context: Attention context with sequence boundaries.
        
        Returns:
            Output tensor [total_tokens, num_heads, head_dim].
        """
        batch_size = context.cu_seqlens_q.shape[0] - 1
        return variable_length_attention_prefill(
            q=q,
            k=k,
            v=v,
            cu_seqlens_q=context.cu_seqlens_q,
            cu_seqlens_k=context.cu_seqlens_k,
            bucketed_max_seqlen_q=context.bucketed_max_seqlen_q,  # Use bucketed sizes
            bucketed_max_seqlen_k=context.bucketed_max_seqlen_k,  # Use bucketed sizes
            num_heads=self.num_heads,
            num_kv_heads=self.num_kv_heads,
            scale=self.scale,
            batch_size=batch_size,
        )
    # (the _decode_attention and __call__ methods are cut: the reproduction runs prefill only)


# ---- scaffolding: prefill batches of two prompts, always 8 packed tokens, with different longest prompt ----
import numpy as np  # scaffolding
attn = Attention(num_heads=2, head_dim=8, scale=8 ** -0.5, num_kv_heads=2, block_size=16)  # scaffolding
calls = 0  # scaffolding
try:  # scaffolding
    for lens in [(3, 5), (4, 4), (2, 6), (1, 7), (5, 3)]:  # scaffolding: each batch packs 8 tokens
        cu = jnp.asarray(np.concatenate([[0], np.cumsum(lens)]), dtype=jnp.int32)  # scaffolding
        q = jax.random.normal(jax.random.PRNGKey(calls), (8, 2, 8))  # scaffolding
        ctx = create_prefill_context(cu, cu, max(lens), max(lens), jnp.arange(8, dtype=jnp.int32))  # scaffolding
        out = attn._prefill_attention(q, q, q, ctx)  # scaffolding
        calls += 1  # scaffolding
    _report({"jit(variable_length_attention_prefill)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
