# source: https://github.com/saran-gangster/nanovllm_jax/commit/80b3ea2f5a40e22d284738889dcadbb431eb1c50
# expect: none
# runtime: COMPILES 2 CALLS 30
# why: profile_component builds jax.jit(fn) inside the helper, but it is called once per component and the jitted function is reused for its 5 warmup and 10 timed calls, so each of the two components compiles once (2 compiles for 30 calls).
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



# ---- profile_attention.py at 80b3ea2: configuration and section [4] (per-component profiling); sections [1]-[3] are in the paired files ----
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
scale_float = float(scale)  # scaffolding: defined in section [1] of the script, as at 80b3ea2
print("\n[4] Profiling decode components...")

def profile_component(name, fn, *args):
    """Profile a single component."""
    jit_fn = jax.jit(fn)
    
    # Warmup
    for _ in range(5):
        _ = jit_fn(*args)
    jax.block_until_ready(_)
    
    # Benchmark
    times = []
    for i in range(10):
        start = time.perf_counter()
        out = jit_fn(*args)
        jax.block_until_ready(out)
        elapsed = time.perf_counter() - start
        times.append(elapsed * 1000)
    
    median_time = jnp.median(jnp.array(times))
    print(f"  {name}: {median_time:.2f}ms")
    return out

# Component: Block table lookup
def gather_blocks(k_cache, block_tables, seq_idx):
    """Gather KV blocks for a sequence."""
    blocks = block_tables[seq_idx]
    return k_cache[blocks]

print(f"\n  Testing block gather overhead...")
_ = profile_component(
    "Block gather (single seq)", 
    gather_blocks,
    k_cache, block_tables, 0
)

# Component: Attention computation
def single_seq_attention(q_seq, k_blocks, v_blocks, context_len):
    """Attention for one sequence."""
    # q_seq: [num_heads, head_dim]
    # k_blocks: [num_blocks, block_size, num_heads, head_dim]
    # v_blocks: [num_blocks, block_size, num_heads, head_dim]
    
    # Reshape for attention
    k_flat = k_blocks.reshape(-1, num_heads, head_dim)  # [num_blocks*block_size, num_heads, head_dim]
    v_flat = v_blocks.reshape(-1, num_heads, head_dim)
    
    # Compute attention scores
    scores = jnp.einsum('hd,nhd->hn', q_seq, k_flat) * scale_float
    
    # Mask
    mask = jnp.arange(k_flat.shape[0]) < context_len
    scores = jnp.where(mask[None, :], scores, -jnp.inf)
    
    # Softmax and weighted sum
    weights = jax.nn.softmax(scores, axis=-1)
    out = jnp.einsum('hn,nhd->hd', weights, v_flat)
    return out

q_single = q[0]  # [num_heads, head_dim]
k_single = k_cache[block_tables[0]]  # [max_blocks, block_size, num_heads, head_dim]
v_single = v_cache[block_tables[0]]
context_len_single = context_lens[0]

_ = profile_component(
    "Single seq attention",
    single_seq_attention,
    q_single, k_single, v_single, context_len_single
)

print("\n" + "=" * 70)
print("PROFILING COMPLETE")
print("=" * 70)
print("\nKey Insights:")
print("1. Vectorized decode is the current bottleneck")
print("2. Mosaic prefill is working and optimized")
print("3. Next: Enable Mosaic decode to match/beat vectorized performance")
_report({"jit(gather_blocks)", "jit(single_seq_attention)"}, 2 * (5 + 10))  # scaffolding
