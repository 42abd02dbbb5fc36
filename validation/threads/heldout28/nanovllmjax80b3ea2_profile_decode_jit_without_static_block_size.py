# source: https://github.com/saran-gangster/nanovllm_jax/commit/80b3ea2f5a40e22d284738889dcadbb431eb1c50
# expect: unhashable-static at line 233; trace-time-error at line 158
# runtime: ERROR ValueError
# why: the script re-jits the already jitted paged_decode_attention_vectorized without static_argnames, so its static scale/block_size arrive as tracers (and scale is a jax array anyway): ValueError non-hashable static arguments; section [3a] then jits _paged_attention_fallback with block_size traced, so the reshape to max_blocks * block_size raises.
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



# ---- layers/pallas_attention.py at 80b3ea2 (unchanged by the commit): the two functions the script jits ----
import math
import functools
from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax import lax


@partial(jax.jit, static_argnums=(5, 6))
def paged_decode_attention_vectorized(
    q: jax.Array,           # [batch_size, num_heads, head_dim]
    k_cache: jax.Array,     # [num_blocks, block_size, num_kv_heads, head_dim]
    v_cache: jax.Array,     # [num_blocks, block_size, num_kv_heads, head_dim]
    block_tables: jax.Array,  # [batch_size, max_blocks_per_seq]
    context_lens: jax.Array,  # [batch_size]
    scale: float,
    block_size: int,
) -> jax.Array:
    """Optimized paged decode attention using vectorized operations.
    
    This version avoids Python loops and uses JAX's vectorization to achieve
    better GPU utilization. The key optimization is:
    1. Gather all relevant K/V blocks in one operation
    2. Compute attention in parallel across all blocks
    3. Use online softmax aggregation with vmap
    
    Args:
        q: Query tensor [batch_size, num_heads, head_dim].
        k_cache: Paged key cache [num_blocks, block_size, num_kv_heads, head_dim].
        v_cache: Paged value cache [num_blocks, block_size, num_kv_heads, head_dim].
        block_tables: Block indices for each sequence [batch_size, max_blocks_per_seq].
        context_lens: Context length for each sequence [batch_size].
        scale: Softmax scale factor.
        block_size: Tokens per KV-cache block.
    
    Returns:
        Output tensor [batch_size, num_heads, head_dim].
    """
    batch_size, num_heads, head_dim = q.shape
    _, _, num_kv_heads, _ = k_cache.shape
    max_blocks_per_seq = block_tables.shape[1]
    max_context_len = max_blocks_per_seq * block_size
    
    # GQA ratio
    q_heads_per_kv_head = num_heads // num_kv_heads
    
    # Clamp block indices to valid range
    safe_block_tables = jnp.clip(block_tables, 0, k_cache.shape[0] - 1)
    
    # Gather K/V blocks: [batch, max_blocks] -> [batch, max_blocks, block_size, kv_heads, dim]
    k_gathered = k_cache[safe_block_tables]  # [batch, max_blocks, block_size, kv_heads, dim]
    v_gathered = v_cache[safe_block_tables]
    
    # Reshape to [batch, max_context_len, kv_heads, dim]
    k_flat = k_gathered.reshape(batch_size, max_context_len, num_kv_heads, head_dim)
    v_flat = v_gathered.reshape(batch_size, max_context_len, num_kv_heads, head_dim)
    
    # Expand KV heads for GQA: [batch, seq, kv_heads, dim] -> [batch, seq, num_heads, dim]
    # Each KV head is repeated q_heads_per_kv_head times
    k_expanded = jnp.repeat(k_flat, q_heads_per_kv_head, axis=2)  # [batch, seq, num_heads, dim]
    v_expanded = jnp.repeat(v_flat, q_heads_per_kv_head, axis=2)
    
    # Cast to float32 for computation
    q_f32 = q.astype(jnp.float32)  # [batch, num_heads, dim]
    k_f32 = k_expanded.astype(jnp.float32)  # [batch, seq, num_heads, dim]
    v_f32 = v_expanded.astype(jnp.float32)
    
    # Compute attention scores: Q @ K^T
    # q: [batch, heads, dim] -> [batch, heads, 1, dim]
    # k: [batch, seq, heads, dim] -> [batch, heads, seq, dim] (transpose)
    q_expanded = q_f32[:, :, None, :]  # [batch, heads, 1, dim]
    k_transposed = jnp.transpose(k_f32, (0, 2, 1, 3))  # [batch, heads, seq, dim]
    
    # Scaled dot-product: [batch, heads, 1, dim] @ [batch, heads, dim, seq] = [batch, heads, 1, seq]
    scores = jnp.matmul(q_expanded, jnp.transpose(k_transposed, (0, 1, 3, 2))) * scale
    scores = scores.squeeze(2)  # [batch, heads, seq]
    
    # Create attention mask based on context_lens
    positions = jnp.arange(max_context_len)[None, None, :]  # [1, 1, seq]
    mask = positions < context_lens[:, None, None]  # [batch, 1, seq]
    
    # Apply mask (use large negative value for masked positions)
    scores = jnp.where(mask, scores, jnp.float32(-1e9))
    
    # Softmax
    scores_max = scores.max(axis=-1, keepdims=True)
    scores_exp = jnp.exp(scores - scores_max)
    scores_exp = jnp.where(mask, scores_exp, 0.0)
    scores_sum = scores_exp.sum(axis=-1, keepdims=True)
    attn_weights = scores_exp / (scores_sum + 1e-9)  # [batch, heads, seq]
    
    # Weighted sum of values
    # attn_weights: [batch, heads, seq] -> [batch, heads, seq, 1]
    # v: [batch, seq, heads, dim] -> [batch, heads, seq, dim]
    v_transposed = jnp.transpose(v_f32, (0, 2, 1, 3))  # [batch, heads, seq, dim]
    attn_weights_expanded = attn_weights[:, :, :, None]  # [batch, heads, seq, 1]
    
    # Element-wise multiply and sum over seq dimension
    output = (attn_weights_expanded * v_transposed).sum(axis=2)  # [batch, heads, dim]
    
    return output.astype(q.dtype)


def _paged_attention_fallback(
    q: jax.Array,
    k_cache: jax.Array,
    v_cache: jax.Array,
    block_tables: jax.Array,
    context_lens: jax.Array,
    scale: float,
    block_size: int,
) -> jax.Array:
    """Fallback implementation using standard JAX operations.
    
    This is slower but works on all JAX backends.
    """
    batch_size = block_tables.shape[0]
    max_blocks = block_tables.shape[1]
    max_context_len = max_blocks * block_size
    num_kv_heads = k_cache.shape[2]
    head_dim = k_cache.shape[3]
    
    # Gather K/V from cache (the slow path we're trying to avoid)
    safe_block_tables = jnp.clip(block_tables, 0, k_cache.shape[0] - 1)
    gathered_k_blocks = k_cache[safe_block_tables]
    gathered_v_blocks = v_cache[safe_block_tables]
    
    gathered_k = gathered_k_blocks.reshape(batch_size, max_context_len, num_kv_heads, head_dim)
    gathered_v = gathered_v_blocks.reshape(batch_size, max_context_len, num_kv_heads, head_dim)
    
    # Create attention mask
    positions = jnp.arange(max_context_len)[None, :]
    mask = positions < context_lens[:, None]
    mask = mask[:, None, None, :]  # [batch, 1, 1, max_len]
    
    # Attention
    q = q[:, None, :, :]  # [batch, 1, heads, dim]
    output = jax.nn.dot_product_attention(
        q, gathered_k, gathered_v,
        mask=mask,
        scale=scale,
    )
    
    return output.squeeze(1)  # [batch, heads, dim]


# =============================================================================


# ---- profile_attention.py at the parent of 80b3ea2 (sections [2] Mosaic prefill and [4] components cut) ----
"""Profile attention kernels to identify bottlenecks."""

import sys
import os
script_dir = os.path.dirname(os.path.abspath(__file__))
parent_dir = os.path.dirname(script_dir)
if parent_dir not in sys.path:
    sys.path.insert(0, parent_dir)

import time
import jax
import jax.numpy as jnp
# from nanovllm_jax.layers import pallas_attention  # scaffolding: the two functions used are defined above
from types import SimpleNamespace  # scaffolding
pallas_attention = SimpleNamespace(paged_decode_attention_vectorized=paged_decode_attention_vectorized, _paged_attention_fallback=_paged_attention_fallback)  # scaffolding

print(f"JAX devices: {jax.devices()}")
print("=" * 70)

# Test configuration
batch_size = 4  # scaffolding: was 64
num_heads = 4  # scaffolding: was 32
head_dim = 16  # scaffolding: was 128
block_size = 16  # scaffolding: was 256
max_blocks = 4  # scaffolding: was 8
num_runs = 3  # scaffolding: was 20

# Create test inputs
q = jax.random.normal(jax.random.PRNGKey(0), (batch_size, num_heads, head_dim), dtype=jnp.float32)  # scaffolding: was float16 (F16 dot_general is not supported on CPU)
num_blocks = batch_size * max_blocks
k_cache = jax.random.normal(jax.random.PRNGKey(1), (num_blocks, block_size, num_heads, head_dim), dtype=jnp.float32)  # scaffolding: was float16 (F16 dot_general is not supported on CPU)
v_cache = jax.random.normal(jax.random.PRNGKey(2), (num_blocks, block_size, num_heads, head_dim), dtype=jnp.float32)  # scaffolding: was float16 (F16 dot_general is not supported on CPU)
block_tables = jnp.arange(num_blocks, dtype=jnp.int32).reshape(batch_size, max_blocks)
context_lens = jax.random.randint(jax.random.PRNGKey(3), (batch_size,), 8, 64, dtype=jnp.int32)  # scaffolding: was 200, 2048
scale = 1.0 / jnp.sqrt(head_dim).astype(jnp.float32)

print(f"Configuration:")
print(f"  Batch size: {batch_size}")
print(f"  Num heads: {num_heads}")
print(f"  Head dim: {head_dim}")
print(f"  Block size: {block_size}")
print(f"  Context lens: min={context_lens.min()}, max={context_lens.max()}")
print("=" * 70)

# Test 1: Vectorized decode (current fallback)
_err = None  # scaffolding
try:  # scaffolding: section [1] is not guarded in the script
    print("\n[1] Profiling vectorized decode (current fallback)...")
    vectorized_fn = jax.jit(pallas_attention.paged_decode_attention_vectorized)

    # Warmup
    for _ in range(5):
        _ = vectorized_fn(q, k_cache, v_cache, block_tables, context_lens, scale, block_size)
    jax.block_until_ready(_)

    # Benchmark
    times = []
    for i in range(num_runs):
        start = time.perf_counter()
        out = vectorized_fn(q, k_cache, v_cache, block_tables, context_lens, scale, block_size)
        jax.block_until_ready(out)
        elapsed = time.perf_counter() - start
        times.append(elapsed * 1000)  # Convert to ms

    median_time = jnp.median(jnp.array(times))
    std_time = jnp.std(jnp.array(times))
    print(f"  Vectorized decode: {median_time:.2f}ms (±{std_time:.2f}ms)")

    # Test 2: Mosaic prefill (working)
except Exception as e:  # scaffolding
    _err = e  # scaffolding

print("\n[3] Comparing decode implementations...")

# 3a. Standard Flash Attention (if available)
try:
    standard_fn = jax.jit(pallas_attention._paged_attention_fallback)
    
    # Warmup
    for _ in range(5):
        _ = standard_fn(q, k_cache, v_cache, block_tables, context_lens, scale, block_size)
    jax.block_until_ready(_)
    
    # Benchmark
    times = []
    for i in range(num_runs):
        start = time.perf_counter()
        out = standard_fn(q, k_cache, v_cache, block_tables, context_lens, scale, block_size)
        jax.block_until_ready(out)
        elapsed = time.perf_counter() - start
        times.append(elapsed * 1000)
    
    median_time = jnp.median(jnp.array(times))
    std_time = jnp.std(jnp.array(times))
    print(f"  Standard fallback: {median_time:.2f}ms (±{std_time:.2f}ms)")
    
except Exception as e:
    print(f"  Standard fallback error: {e}")
    _err = _err or e  # scaffolding

print(f"ERROR {type(_err).__name__}") if _err else _report({"jit(paged_decode_attention_vectorized)", "jit(_paged_attention_fallback)"}, 2 * (5 + num_runs))  # scaffolding
