# source: https://github.com/LiquidGunay/nano-vllm-jax/blob/a43ef9f9ac4f1be20797a99a0891575f6b6f68f7/nanovllm_jax/model_jit.py
# expect: bad-static-spec at line 39
# runtime: ERROR ValueError
# why: _mlp_block_jit declares static_argnums=(2, ..., 9) but takes only 5 positional parameters (and _embedding_lookup_jit/_lm_head_jit point one past their last parameter), so jax 0.10.2 raises ValueError as soon as the decorator runs; the 'alternative JIT implementation' module cannot be imported.

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
import jax
import jax.numpy as jnp
from jax import nn, lax
from typing import Tuple, Optional
from functools import partial

# nanovllm_jax.config / layers / kv_cache / conv1d_metal imports cut: rms_norm and get_activation are never reached


try:  # scaffolding: the error is raised when the first decorator runs, at import
    @partial(jax.jit, static_argnums=(2, 3, 4, 5, 6, 7, 8, 9))
    def _mlp_block_jit(
        x,
        params_tuple,
        hidden_act,
        rms_norm_eps,
        dtype_code,
    ):
        """JIT-compiled MLP block."""
        dtype = [jnp.float16, jnp.bfloat16, jnp.float32][dtype_code]
    
        ffn_norm, gate_proj, up_proj, down_proj = params_tuple
    
        x = rms_norm(x, ffn_norm, rms_norm_eps)
        x = x.astype(dtype)
    
        gate = jnp.dot(x, gate_proj)
        up = jnp.dot(x, up_proj)
        x = get_activation(hidden_act)(gate) * up
        x = jnp.dot(x, down_proj)
    
        return x


    @partial(jax.jit, static_argnums=(3,))
    def _embedding_lookup_jit(tokens, embed_tokens, dtype_code):
        """JIT-compiled embedding lookup."""
        dtype = [jnp.float16, jnp.bfloat16, jnp.float32][dtype_code]
        return embed_tokens[tokens].astype(dtype)


    @partial(jax.jit, static_argnums=(2,))
    def _lm_head_jit(x, lm_head):
        """JIT-compiled LM head projection."""
        x = x.astype(jnp.float32)
        return jnp.dot(x, lm_head)
    _report({"jit(_mlp_block_jit)", "jit(_embedding_lookup_jit)", "jit(_lm_head_jit)"}, 0)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
