# source: https://github.com/AI-Hypercomputer/accelerator-agents/pull/36
# expect: trace-time-error at line 81
# runtime: ERROR IndexError
# why: under jit group_sizes is traced, so start and size are tracers and lhs[start:start + size, :] is a slice with traced bounds, which raises IndexError (slice indices must be static); the file itself says it is not jit-compatible.
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
# AI-Hypercomputer/accelerator-agents PR #36 (0eb842f^): JAXBench/benchmark/11p_Megablox_GMM/baseline.py before the PR
"""Grouped Matrix Multiply (Megablox GMM) — Qwen3-235B-A22B MoE dimensions.

Reference grouped matmul: for each expert group, slice the input tokens
and multiply with that expert's weight matrix. Core primitive for MoE layers.
From JAX experimental pallas ops (reference_gmm).

Not jit-compatible: uses data-dependent slicing on group_sizes.
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

_skip_jit = True


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
    tokens_per_expert = M // G
    group_sizes = jnp.full((G,), tokens_per_expert, dtype=jnp.int32)
    return lhs, rhs, group_sizes


def workload(lhs, rhs, group_sizes):
    """Reference grouped matmul from upstream JAX tests.

    For each group i, slices lhs[start:start+size] and computes dot with rhs[i].
    Uses data-dependent slicing so must be run eagerly (not under jax.jit).
    """
    start = 0
    out = []
    for i, size in enumerate(group_sizes):
        result = jax.lax.dot(
            lhs[start:start + size, :],
            rhs[i, :, :],
            preferred_element_type=jnp.float32,
        )
        out.append(result)
        start += group_sizes[i]
    return jnp.concatenate(out, axis=0)


CONFIG.update(num_experts=4, num_experts_per_tok=2, emb_dim=16, moe_mlp_dim=8, seq_len=16)  # scaffolding: small sizes for CPU

inputs = create_inputs(dtype=jnp.float32)  # scaffolding
fn = jax.jit(workload)  # scaffolding: JAXBench's runner jits every workload unless _skip_jit (the PR removes _skip_jit)
try:  # scaffolding
    out = fn(*inputs)  # scaffolding
    _report({"jit(workload)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
