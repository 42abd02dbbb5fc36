# source: https://github.com/domluna/learnjax/blob/c82db12e3033af99602558f8219c975a2c6506f7/Learn%20Jax%20The%20Way%20That%20Makes%20Sense%20To%20Nobody%20Else.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 40
# why: The notebook's rewrite preallocates K_cache/V_cache of length s and writes each step with lax.dynamic_update_slice_in_dim at a traced step, so all 40 calls share one shape and jit compiles once.
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
# "Learn Jax The Way That Makes Sense To Nobody Else.ipynb" of domluna/learnjax (a learning notebook); cells 1, 36, 37 (the rewrite that follows the growing-cache version)
# cell 1
import jax
from jax.experimental import pallas as pl
import jax.numpy as jnp
import numpy as np
from jax import random
# cell 36
@jax.jit
def mqa_incremental_cache(step, x, Q, K, V, K_cache, V_cache):
    """
    x is the input tensor of shape (b, d)
    Q are the weight matrices of shape (d, d)
    K, V are the weight matrices of shape (d, k) where k = d // h
    mask is the mask tensor of shape (b, h, s, s)
    K_cache, V_cache is of shape (b, s, k)
    
    the output is of shape(b, s, d)

    b is the batch size
    s is the sequence length
    d is the embedding dimension
    h is the number of heads

    each head gets its own attention matrix.
    
    Omitting the output matrix O just to simplify things.
    """
    b,d = x.shape
    hd = d  // h
    q = (x @ Q).reshape(b, h, hd)
    k = (x @ K)
    v = (x @ V)
      
    K_cache = jax.lax.dynamic_update_slice_in_dim(K_cache, jnp.expand_dims(k, axis=1), step, axis=1)
    V_cache = jax.lax.dynamic_update_slice_in_dim(V_cache, jnp.expand_dims(v, axis=1), step, axis=1)

    # I think we can just do K_cache here since 0s function as same as just using the step
    attn_m = jnp.einsum('bhk,bsk->bhs', q, K_cache) / jnp.sqrt(hd)
    logits = jax.nn.softmax(attn_m)
    o = jnp.einsum('bhs,bsk->bhk', logits, V_cache).reshape(b, d)
    return o, K_cache, V_cache
# cell 37
key = jax.random.PRNGKey(0)
b = 4
s = 10
d = 128
h = 8
x = jax.random.normal(key, (b, d))

key1, key2, key3 = jax.random.split(key, num=3)

Q = jax.random.normal(key1, (d, d))
K = jax.random.normal(key2, (d, d // h))
V = jax.random.normal(key3, (d, d // h))

K_cache = jnp.zeros((b, s, d // h))
V_cache = jnp.zeros((b, s, d // h))

for step in range(s*4):
    step % s
    x, K_cache, V_cache = mqa_incremental_cache(step, x, Q, K, V, K_cache, V_cache)
    print(f'caches step {step}: {K_cache.shape}')

print(x.shape)
_report({"jit(mqa_incremental_cache)"}, s * 4)  # scaffolding
