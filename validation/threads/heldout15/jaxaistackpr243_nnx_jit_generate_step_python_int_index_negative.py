# source: https://github.com/jax-ml/jax-ai-stack/pull/243
# expect: none
# runtime: COMPILES 1 CALLS 6
# why: the jitted generate_step gets a Python int sample_index that changes on every token, but nnx.jit traces it (it is not static) and the padded input always has length maxlen, so generate_step compiles once for all generation steps; the nested @nnx.jit sample_from is inlined.
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
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
from flax import nnx  # scaffolding

maxlen = 16  # scaffolding
vocab_size = 32  # scaffolding
top_k = 5  # scaffolding


class Tokenizer:  # scaffolding: stand-in for tiktoken
    def encode(self, text, allowed_special=None):  # scaffolding
        return [31] if text == '<|endoftext|>' else [ord(c) % 30 for c in text]  # scaffolding

    def decode(self, tokens):  # scaffolding
        return "".join(chr(97 + t % 26) for t in tokens)  # scaffolding


tokenizer = Tokenizer()  # scaffolding


class MiniGPT(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):  # scaffolding: reduced model
        self.embedding_layer = nnx.Embed(vocab_size, 8, rngs=rngs)  # scaffolding
        self.output_layer = nnx.Linear(8, vocab_size, rngs=rngs)  # scaffolding

    def __call__(self, inputs, training: bool = False):  # scaffolding
        return self.output_layer(self.embedding_layer(inputs))  # scaffolding

    @nnx.jit
    def sample_from(self, logits):
        logits, indices = jax.lax.top_k(logits, k=top_k)
        logits = nnx.softmax(logits)
        return jax.random.choice(jax.random.PRNGKey(0), indices, p=logits)

    @nnx.jit
    def generate_step(self, padded_tokens, sample_index):
        logits = self(padded_tokens)
        next_token = self.sample_from(logits[0][sample_index])
        return next_token

    def generate_text(self, max_tokens, start_tokens):
        generated = []
        print(tokenizer.decode(start_tokens), flush=True, end='')
        for i in range(max_tokens):
            sample_index = len(start_tokens) + len(generated) - 1

            padded_tokens = jnp.array((start_tokens + generated + [0] * (maxlen - len(start_tokens) - len(generated))))[None, :]
            next_token = int(self.generate_step(padded_tokens, sample_index))
            if next_token == tokenizer.encode('<|endoftext|>', allowed_special={'<|endoftext|>'})[0]:
              break
            generated.append(next_token)
            # decode and print next_token
            print(tokenizer.decode([next_token]), flush=True, end='')
        return tokenizer.decode(start_tokens + generated)


model = MiniGPT(nnx.Rngs(0))  # scaffolding
model.generate_text(6, tokenizer.encode("once"))  # scaffolding
print()  # scaffolding
print(sorted(set(_COMPILED)))  # scaffolding
_report({n for n in _COMPILED if "generate_step" in n}, 6)  # scaffolding: at most 6 steps
