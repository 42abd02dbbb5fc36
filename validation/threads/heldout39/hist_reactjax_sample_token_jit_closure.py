# source: https://github.com/neel04/ReAct_Jax/commit/92cbf1012bdf2674a6125743716edd2ffdab66a0
# expect: stale-closure at line 96
# runtime: COMPILES 1 CALLS 12
# why: sample_token is eqx.filter_jit-ed once per generate() and closes over self.key and model_input, which the token loop rebinds every step; the cached trace keeps the first key and the first prompt (1 compile for 12 calls), so the sampled tokens differ from the un-jitted run and the repetition penalty never sees generated tokens.

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
import argparse

import equinox as eqx
import jax
import jax.numpy as jnp
from jaxtyping import Array, PRNGKeyArray


class TinyGPT(eqx.Module):  # scaffolding: stands in for ReAct.model.baseline.GPT (same call signature)
    emb: eqx.nn.Embedding  # scaffolding
    head: eqx.nn.Linear  # scaffolding

    def __init__(self, vocab_size, width, key):  # scaffolding
        k1, k2 = jax.random.split(key)  # scaffolding
        self.emb = eqx.nn.Embedding(vocab_size, width, key=k1)  # scaffolding
        self.head = eqx.nn.Linear(width, vocab_size, key=k2)  # scaffolding

    def __call__(self, x, pad_mask, enable_dropout, key):  # scaffolding
        h = jax.vmap(self.emb)(x) * pad_mask[:, None]  # scaffolding
        h = jnp.cumsum(h, axis=0)  # scaffolding: causal mixing
        return jax.vmap(self.head)(h)  # scaffolding


class Inferencer:
    def __init__(self, args: argparse.Namespace, key: PRNGKeyArray):
        self.pad_token = 50257
        self.key = key
        self.args = args

        self.decode_fn = lambda ids: [int(i) for i in ids]  # scaffolding: was the OWT tokenizer's decode
        self.encode_fn = lambda s: {'input_ids': [ord(c) % 1000 for c in s]}  # scaffolding: was the OWT tokenizer's encode

    def encode_input(self, my_input: str) -> Array:
        encoded = self.encode_fn(my_input)['input_ids']
        encoded = jnp.asarray([i for i in encoded if i != self.pad_token])

        return encoded

    def sample_model(
        self,
        model: eqx.Module,
        my_input: str,
        num_tokens: int = 128,
        temperature: float = 0.7,
        top_k: int = 50,
        top_p: float = 0.9,
        repetition_penalty: float = 1.2,
        max_repeat_tokens: int = 3,
    ) -> str:
        '''
        Samples the model autoregressively using more advanced techniques:
        - Temperature scaling
        - Top-k sampling
        - Nucleus (top-p) sampling
        - Repetition penalty
        '''
        inference_model = eqx.nn.inference_mode(model)

        if hasattr(self.args, "system_prompt"):
            prompt = self.args.system_prompt + my_input
        else:
            prompt = my_input

        model_input = self.encode_input(prompt)
    
        def generate(model_input: Array, num_tokens: int) -> Array:

            @eqx.filter_jit
            def sample_token(padded_array: Array):
                pad_mask = jnp.where(padded_array == self.pad_token, 0, 1)

                last_tok_idx = jnp.sum(pad_mask) - 1

                if self.args.baseline:
                    logits = inference_model(padded_array, pad_mask, False, self.key)
                else:
                    logits = inference_model(padded_array, self.args.max_iters, 
                                             pad_mask, False, False, self.key)[0]
        
                logits = logits[last_tok_idx, :]  # extract the logits for the last token

                # Apply temperature
                scaled_logits = logits / temperature
            
                # Apply repetition penalty
                if model_input.shape[0] > max_repeat_tokens:
                    recent_tokens = model_input[-max_repeat_tokens:]
                    scaled_logits = jax.vmap(lambda t: jnp.where(t == jnp.arange(logits.shape[0]), 
                                                                 scaled_logits / repetition_penalty, 
                                                                 scaled_logits))(recent_tokens)
                    scaled_logits = scaled_logits.min(axis=0)
            
                # Top-k sampling
                top_k_logits, top_k_indices = jax.lax.top_k(scaled_logits, top_k)
            
                # Top-p (nucleus) sampling
                probs = jax.nn.softmax(top_k_logits)
                cumulative_probs = jnp.cumsum(probs)
                nucleus = jnp.where(cumulative_probs > top_p, 0.0, probs)
                nucleus = nucleus / jnp.sum(nucleus)
            
                # Sample from the nucleus
                token = jax.random.choice(self.key, top_k_indices, p=nucleus)
            
                return token

            for _ in range(num_tokens):
                if model_input.shape[0] < self.args.seqlen:
                    padded_array = jnp.pad(
                        model_input,
                        (0, self.args.seqlen - model_input.shape[0]),
                        constant_values=self.pad_token,
                    )
                else:
                    padded_array = model_input[-self.args.seqlen:]

                gen = sample_token(padded_array)
                calls_box[0] += 1  # scaffolding

                model_input = jnp.concatenate([model_input, gen.reshape(-1)])  # append the generated token for AR
            
                # Update PRNG key
                self.key, _ = jax.random.split(self.key)

            return model_input

        generated_output = generate(model_input, num_tokens)

        return self.decode_fn(generated_output[-num_tokens:])


# --- usage as in inferencer.py's __main__ / Inferencer.inference (checkpoint loading replaced) ---
calls_box = [0]  # scaffolding
key = jax.random.PRNGKey(0)
args = argparse.Namespace(baseline=True, seqlen=32, max_iters=1, num_classes=50304)  # scaffolding: small config
inferencer = Inferencer(args, key)
model = TinyGPT(args.num_classes, 8, jax.random.PRNGKey(1))  # scaffolding: untrained stand-in for the checkpoint
try:  # scaffolding
    output = inferencer.sample_model(model=model, my_input="hello", num_tokens=12, temperature=0.7,
                                     top_k=50, top_p=0.9, repetition_penalty=1.2, max_repeat_tokens=3)
    print("tokens:", output)  # scaffolding: the generated ids (compare with the twin)
    _report({"jit(sample_token)"}, calls_box[0])  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
