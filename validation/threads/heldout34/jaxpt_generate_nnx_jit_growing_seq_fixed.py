# source: https://github.com/novastar53/jaxpt/commit/0c49c91a5b58005f45df84261903db6cf89dc44f
# expect: none
# runtime: COMPILES 0 CALLS 1
# why: The author's fix drops jit from generation (the nnx.jit decorator is commented out), so the growing token array runs the model eagerly and nothing is recompiled per token.

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

# ---- notebooks/train_gpt2.ipynb at 0c49c91 ("Removed jit from generate function as it slows down inference") ----
# %% [cell]
from functools import partial

import jax
import jax.numpy as jnp
import flax.nnx as nnx

# import tiktoken  (replaced by the stand-in above)

def top_k_sampling(logits, key, k=50):
    top_k_indices = jnp.argsort(logits, axis=-1)[..., -k:]
    top_k_logits = jnp.take_along_axis(logits, top_k_indices, axis=-1)
    probabilities = jax.nn.softmax(top_k_logits, axis=-1)
    key, subkey = jax.random.split(key)
    sampled_index = jax.random.categorical(subkey, probabilities)
    return jnp.take_along_axis(top_k_indices, sampled_index[..., None], axis=-1).squeeze(-1), key


#@nnx.jit(static_argnames=("max_length", "temperature", "top_k"))
def generate(model: nnx.Module,  *, x: jax.Array, max_length=50,
                        temperature=0.7, top_k = 50) -> jax.Array:

    key = jax.random.PRNGKey(0)

    while x.shape[1] < max_length:
        logits = model(x)[:, -1, :] / temperature
        x_next, key = top_k_sampling(logits, key, k=top_k)
        x_next = x_next.reshape(x_next.shape[0], 1)
        x = jnp.concatenate((x, x_next), axis=1) # (B, T+1)#
    return x


# ---- scaffolding: a tiny nnx model in place of jaxpt's GPT ----
class TinyLM(nnx.Module):  # scaffolding
    def __init__(self, rngs):
        self.embed = nnx.Embed(64, 16, rngs=rngs)
        self.head = nnx.Linear(16, 64, rngs=rngs)
    def __call__(self, x):
        return self.head(self.embed(x))
m = TinyLM(nnx.Rngs(0))  # scaffolding

# %% [cell]
m.eval()

num_completions = 5
max_length = 20
generate_completion = partial(generate, m, max_length=max_length)
prefix = "The brown fox"
enc = tiktoken.get_encoding('gpt2')
tokens = enc.encode(prefix)
tokens = jnp.array(tokens, dtype=jnp.int32)
tokens = jnp.expand_dims(tokens, axis=0)
x = jnp.tile(tokens, (num_completions, 1))


x = generate_completion(x=x) # Make sure you can do a forward pass
for i in range(num_completions):
    tokens = x[i, :max_length].tolist()
    decoded = enc.decode(tokens)
    print(">", decoded)
_report({"jit(generate)", "jit(_generate)"}, 1)  # scaffolding
