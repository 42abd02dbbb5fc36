# source: https://github.com/novastar53/jaxpt/blob/158191630f02ccbfbe86516dac00d09b7c5a5153/jaxpt/infer.py
# expect: shape-churn at line 71
# runtime: COMPILES 17 CALLS 17
# why: The nnx.jit-ed forward pass _generate is called on the token array x, which grows by one column per generated token, so every call sees a new shape and compiles again (17 compiles for 17 tokens).

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

# ---- jaxpt/infer.py at 1581916 (hobby GPT-2 in flax.nnx); `import tiktoken` replaced by the stand-in above ----
import jax
import jax.numpy as jnp
import flax.nnx as nnx


def top_k_sampling(logits, key, k=50):
    top_k_indices = jnp.argsort(logits, axis=-1)[..., -k:]
    top_k_logits = jnp.take_along_axis(logits, top_k_indices, axis=-1)
    probabilities = jax.nn.softmax(top_k_logits, axis=-1)
    key, subkey = jax.random.split(key)
    sampled_index = jax.random.categorical(subkey, probabilities)
    return jnp.take_along_axis(top_k_indices, sampled_index[..., None], axis=-1).squeeze(-1), key


@nnx.jit
def _generate(model, x):
    return model(x)


def generate_completion(model: nnx.Module, prefix: str, *, max_length=50, num_completions=5, 
                        temperature=0.7, top_k = 50):

    key = jax.random.PRNGKey(0)    
    model.eval()
    enc = tiktoken.get_encoding('gpt2')
    tokens = enc.encode(prefix)
    tokens = jnp.array(tokens, dtype=jnp.int32) 

    tokens = jnp.expand_dims(tokens, axis=0)
    x = jnp.tile(tokens, (num_completions, 1)) 

    while x.shape[1] < max_length: 
        logits = _generate(model, x) 
        _calls[0] += 1  # scaffolding
        logits = logits[:, -1, :] / temperature # (B, vocab_size)
        x_next, key = top_k_sampling(logits, key, k=top_k)
        x_next = x_next.reshape(x_next.shape[0], 1)
        x = jnp.concatenate((x, x_next), axis=1) # (B, T+1)
 
    for i in range(num_completions):
        tokens = x[i, :max_length].tolist()
        decoded = enc.decode(tokens)
        print(">", decoded)


# ---- scaffolding: a tiny nnx model in place of jaxpt's GPT, and the notebook's call ----
class TinyLM(nnx.Module):  # scaffolding
    def __init__(self, rngs):
        self.embed = nnx.Embed(64, 16, rngs=rngs)
        self.head = nnx.Linear(16, 64, rngs=rngs)
    def __call__(self, x):
        return self.head(self.embed(x))

_calls = [0]  # scaffolding
m = TinyLM(nnx.Rngs(0))  # scaffolding
generate_completion(m, "The Clever Fox", max_length=20) # Make sure you can do a forward pass
_report({"jit(_generate)"}, _calls[0])  # scaffolding
