# source: https://github.com/google/flax/issues/587
# expect: unhashable-static at line 39
# runtime: ERROR ValueError
# why: create_model marks model_kwargs, a dict, as static; dicts cannot be hashed, so the call raises ValueError (non-hashable static arguments).

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


import functools
import jax
import jax.numpy as jnp  # scaffolding

model_kwargs = {'vocab_size': 32000, 'output_vocab_size': 32000, 'emb_dim': 1024, 'num_heads': 16, 'num_layers': 6, 'qkv_dim': 1024, 'mlp_dim': 4096, 'max_len': 256, 'share_embeddings': True, 'logits_via_embedding': True}

@functools.partial(jax.jit, static_argnums=(1, 2, 3))
def create_model(key, input_shape, target_shape, model_kwargs):
  return jax.random.normal(key, input_shape + (model_kwargs['emb_dim'] // 256,))  # scaffolding: flax.nn Transformer init

try:  # scaffolding
  create_model(jax.random.PRNGKey(0), (2, 4), (2, 4), model_kwargs)
  _report({"jit(create_model)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
