# source: https://github.com/AI-Hypercomputer/accelerator-agents/pull/36
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the PR rewrites workload with a static max_expert_size (static_argnums=(3,)), lax.dynamic_slice of that static size, a mask and lax.scan, so the jitted workload compiles once for 3 calls.
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
# AI-Hypercomputer/accelerator-agents PR #36 (0eb842f): the same file after the PR
"""Grouped Matrix Multiply (Megablox GMM) — Qwen3-235B-A22B MoE dimensions.

Reference grouped matmul: for each expert group, slice the input tokens
and multiply with that expert's weight matrix. Core primitive for MoE layers.
From JAX experimental pallas ops (reference_gmm).

"""

import jax
import jax.numpy as jnp

CONFIG = {
    'name': 'megablox_gmm_qwen3_235b',
    'model': 'Qwen3-235B-A22B',
    'operator': 'grouped_matmul',
    'num_experts': 128,
    'num_experts_per_tok': 8,
    'emb_dim': 4096,
    'moe_mlp_dim': 1536,
    'seq_len': 4096,
}


def create_inputs(dtype=jnp.bfloat16):
    key = jax.random.key(42)
    k1, k2 = jax.random.split(key, 2)
    G = CONFIG['num_experts']
    top_k = CONFIG['num_experts_per_tok']
    K = CONFIG['emb_dim']
    N = CONFIG['moe_mlp_dim']
    S = CONFIG['seq_len']
    M = S * top_k
    limit = 1 / (M * K)
    lhs = jax.random.uniform(k1, (M, K), dtype=dtype, minval=-limit, maxval=limit)
    lhs = lhs.astype(jnp.bfloat16).astype(dtype)
    rhs = jax.random.uniform(k2, (G, K, N), dtype=dtype, minval=-limit, maxval=limit)
    rhs = rhs.astype(jnp.bfloat16).astype(dtype)
    max_expert_size = M // G
    group_sizes = jnp.full((G,), max_expert_size, dtype=jnp.int32)
    return lhs, rhs, group_sizes, max_expert_size


def workload(lhs, rhs, group_sizes, max_expert_size):
    """Jittable grouped matmul using static shapes and masking.

    Computes dot product for each group with static slice sizes to allow JIT.
    """
    G = rhs.shape[0]
    M, K = lhs.shape
    N = rhs.shape[2]

    # Compute expert offsets
    group_ends = jnp.cumsum(group_sizes)
    group_starts = jnp.concatenate(
        [jnp.zeros(1, dtype=jnp.int32), group_ends[:-1]]
    )

    # Initialize flat result array with padding
    res_flat = jnp.zeros((M + max_expert_size, N), dtype=lhs.dtype)

    def body_fun(carry_res_flat, i):
        start = group_starts[i]
        count = group_sizes[i]

        # Slice with a STATIC size
        expert_lhs = jax.lax.dynamic_slice(
            lhs, (start, 0), (max_expert_size, K)
        )
        expert_rhs = rhs[i, :, :]

        # Compute GEMM
        res = jax.lax.dot(
            expert_lhs, expert_rhs, preferred_element_type=jnp.float32
        )

        # Mask out invalid rows
        mask = (
            jax.lax.broadcasted_iota(jnp.int32, (max_expert_size, N), 0) < count
        )
        res_masked = jnp.where(mask, res, 0.0)

        # Read-Modify-Write to accumulate results
        current_slice = jax.lax.dynamic_slice(
            carry_res_flat, (start, 0), (max_expert_size, N)
        )
        updated_slice = current_slice + res_masked.astype(carry_res_flat.dtype)
        carry_res_flat = jax.lax.dynamic_update_slice(
            carry_res_flat, updated_slice, (start, 0)
        )

        return carry_res_flat, None

    res_flat, _ = jax.lax.scan(body_fun, res_flat, jnp.arange(G))

    return res_flat[:M, :]


CONFIG.update(num_experts=4, num_experts_per_tok=2, emb_dim=16, moe_mlp_dim=8, seq_len=16)  # scaffolding: small sizes for CPU

inputs = create_inputs(dtype=jnp.float32)  # scaffolding
fn = jax.jit(workload, static_argnums=(3,))
for _ in range(3):  # scaffolding: warmup + iterations of benchmark()
    out = fn(*inputs)
    out.block_until_ready()
_report({"jit(workload)"}, 3)  # scaffolding
