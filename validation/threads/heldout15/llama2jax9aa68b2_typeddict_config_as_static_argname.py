# source: https://github.com/ayaka14732/llama-2-jax/commit/9aa68b204d3dec8eeddbaf8b5eec1f73473186e9
# expect: unhashable-static at line 32
# runtime: ERROR ValueError
# why: Config is a TypedDict, so a config is a plain dict, and every model function marks config as a static_argname; calling the jitted embedding with it raises ValueError (non-hashable static argument).

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
# lib/model/Config.py (before the commit)
from typing import TypedDict

class Config(TypedDict):
    d_k: int
    d_model: int
    d_v: int
    dropout_rate: int
    n_heads: int
    n_layers: int
    vocab_size: int

_config: Config = {
    'd_k': 128,
    'd_model': 4096,
    'd_v': 128,
    'dropout_rate': 0.1,
    'n_heads': 32,
    'n_layers': 32,
    'vocab_size': 32000,
}


# lib/model/embedding.py (before the commit)
from functools import partial
import jax
from jax import Array
import jax.numpy as jnp

@partial(jax.jit, static_argnames=('config',))
def embedding(params: Array, x: Array, *, config: Config) -> Array:
    assert isinstance(params, Array)
    assert params.dtype == jnp.uint16
    assert params.shape == (config['vocab_size'], config['d_model'])

    y = params[x]
    return y


# scaffolding: a small config of the same type (the 7B embedding table would be 32000 x 4096)
small_config: Config = {'d_k': 4, 'd_model': 8, 'd_v': 4, 'dropout_rate': 0.1, 'n_heads': 2, 'n_layers': 2, 'vocab_size': 16}  # scaffolding
params = jnp.zeros((small_config['vocab_size'], small_config['d_model']), dtype=jnp.uint16)  # scaffolding
calls = 0  # scaffolding
try:  # scaffolding
    for x in (jnp.array([1, 2, 3]), jnp.array([4, 5, 6])):  # scaffolding
        y = embedding(params, x, config=small_config)
        calls += 1
    _report({"jit(embedding)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
