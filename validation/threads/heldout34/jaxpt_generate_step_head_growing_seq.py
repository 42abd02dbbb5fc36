# source: https://github.com/novastar53/jaxpt/blob/626d73c8ae1c44b751222841bf8f2c589f664490/src/jaxpt/infer.py
# expect: shape-churn at line 96
# runtime: COMPILES 17 CALLS 17
# why: generate_completion_slow calls the nnx.jit-ed _generate_step on the whole token array x, which grows by one token per step, so the sampling step recompiles for every generated token (17 compiles for 17 steps).

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
# ---- scaffolding: tiktoken is not installed; a tiny stand-in encoder with the same encode/decode calls ----
import types  # scaffolding
class _Enc:  # scaffolding
    def encode(self, s):
        return [ord(c) % 64 for c in s.split()[0]][:3]
    def decode(self, toks):
        return " ".join(str(t) for t in toks)
tiktoken = types.SimpleNamespace(get_encoding=lambda name: _Enc())  # scaffolding

# ---- src/jaxpt/infer.py at 626d73c (lines 1-75); `import tiktoken` and the chatml import dropped ----
import sys
from functools import partial
from typing import Literal
import logging

import jax
import jax.numpy as jnp
import flax.nnx as nnx


logger = logging.getLogger(__name__)


def top_k_sampling(logits, key, k=50):
    """
    Sample from top-k logits.
    """
    top_k_vals, top_k_indices = jax.lax.top_k(logits, k)
    key, subkey = jax.random.split(key)
    top_k_logit_idxs = jax.random.categorical(subkey, top_k_vals)
    top_k_logit_idxs = top_k_logit_idxs[..., None]
    sample_idxs = jnp.take_along_axis(top_k_indices, top_k_logit_idxs, axis=-1)
    return sample_idxs, key


@nnx.jit
def _generate_step(m, x, attn_mask, temperature, key):
    logits = m(x, mask=attn_mask) / temperature
    x_new = logits[:, -1, :]
    top_k_vals, top_k_indices = jax.lax.top_k(x_new, 50)
    key, subkey = jax.random.split(key)
    top_k_logit_idxs = jax.random.categorical(subkey, top_k_vals)
    top_k_logit_idxs = top_k_logit_idxs[..., None]
    sample_idxs = jnp.take_along_axis(top_k_indices, top_k_logit_idxs, axis=-1)
    return sample_idxs, key


def generate_completion_slow(
    model,
    enc=None,
    prefix="Hello, I'm a language model,",
    attn_mask: jax.Array | None = None,
    num_completions=8,
    max_length=20,
    temperature=0.2,
    key=None,
):
    if enc is None:
        enc = tiktoken.get_encoding("gpt2")
    if key is None:
        key = jax.random.PRNGKey(1337)

    tokens = enc.encode(prefix)
    tokens = jnp.array(tokens, dtype=jnp.int32)
    tokens = jnp.expand_dims(tokens, axis=0)
    x = jnp.tile(tokens, (num_completions, 1))
    while x.shape[1] < max_length:
        x_next, key = _generate_step(model, x, attn_mask, temperature, key)
        _calls[0] += 1  # scaffolding
        x = jnp.concatenate((x, x_next), axis=1)
        if attn_mask:
            attn_mask = jnp.concatenate(
                (attn_mask, jnp.ones((attn_mask.shape[0], 1), dtype=jnp.bool)),
                axis=1,
            )
    output = []
    for i in range(num_completions):
        tokens = x[i, :max_length].tolist()
        decoded = enc.decode(tokens)
        output.append(decoded)
    return output


# ---- scaffolding: a tiny nnx model (accepting mask=) in place of jaxpt's models, and a default call ----
class TinyLM(nnx.Module):  # scaffolding
    def __init__(self, rngs):
        self.embed = nnx.Embed(64, 16, rngs=rngs)
        self.head = nnx.Linear(16, 64, rngs=rngs)
    def __call__(self, x, mask=None):
        return self.head(self.embed(x))

_calls = [0]  # scaffolding
for completion in generate_completion_slow(TinyLM(nnx.Rngs(0))):  # scaffolding: defaults (max_length=20)
    print(completion)
_report({"jit(_generate_step)"}, _calls[0])  # scaffolding
