# source: https://github.com/young-geng/EasyLM/blob/fe5b2c354e25d697fce7cd225e23bbbe72570da3/EasyLM/models/llama/llama_serve.py
# expect: none
# runtime: COMPILES 1 CALLS 7
# why: loglikelihood_rolling tokenizes with padding='longest' (a different length for every request) but pads short inputs up to seq_length and cuts long ones into seq_length windows, taking the last window as the final seq_length tokens with a mask, so the pjit-ed forward_loglikelihood always sees (batch, seq_length) and compiles once for requests of any length.

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
import jax
import jax.numpy as jnp
import numpy as np
import optax


class FLAGS:  # scaffolding: absl flags, shrunk
    seq_length = 64


class _Enc:  # scaffolding: a character-level stand-in for the HF tokenizer
    def __init__(self, ids, mask):
        self.input_ids = ids
        self.attention_mask = mask


class CharTokenizer:
    pad_token_id = 0
    bos_token_id = 1

    def __call__(self, text, padding='longest', truncation=False, max_length=None, return_tensors='np'):
        seqs = [[2 + (ord(c) % 60) for c in t] for t in text]
        n = max(len(s) for s in seqs)
        ids = np.zeros((len(seqs), n), np.int32)
        mask = np.zeros((len(seqs), n), np.int32)
        for k, s in enumerate(seqs):
            ids[k, :len(s)] = s
            mask[k, :len(s)] = 1
        return _Enc(ids, mask)


tokenizer = CharTokenizer()
params = {"emb": jnp.ones((64, 64)) * 0.01}
sharded_rng = jax.random.PRNGKey(0)


@jax.jit  # scaffolding: pjit with in/out shardings; the LLaMA module is a stand-in embedding
def forward_loglikelihood(params, rng, batch):
    rng, _ = jax.random.split(rng)  # scaffolding: JaxRNG
    input_tokens = batch['input_tokens']
    output_tokens = batch['output_tokens']
    input_mask = batch['input_mask']
    output_mask = batch['output_mask']

    logits = params["emb"][input_tokens] * input_mask[..., None]
    loglikelihood = -optax.softmax_cross_entropy_with_integer_labels(
        logits, output_tokens
    )
    loglikelihood = jnp.sum(loglikelihood * output_mask, axis=-1)
    match_count = jnp.sum(
        (jnp.argmax(logits, axis=-1) == output_tokens) * output_mask,
        axis=-1
    )
    total = jnp.sum(output_mask, axis=-1)
    is_greedy = match_count == total
    return loglikelihood, is_greedy, rng


N_CALLS = [0]  # scaffolding


def loglikelihood_rolling(text):
    global sharded_rng  # scaffolding: nonlocal in the original closure
    inputs = tokenizer(
        text,
        padding='longest',
        truncation=False,
        max_length=np.iinfo(np.int32).max,
        return_tensors='np',
    )
    batch_size = inputs.input_ids.shape[0]
    output_tokens = inputs.input_ids
    attention_mask = inputs.attention_mask

    if output_tokens.shape[1] < FLAGS.seq_length:
        padding_length = FLAGS.seq_length - output_tokens.shape[1]
        pad_tokens = np.full(
            (batch_size, padding_length), tokenizer.pad_token_id, dtype=np.int32
        )
        output_tokens = np.concatenate([output_tokens, pad_tokens], axis=-1)
        pad_mask = np.zeros(
            (batch_size, padding_length), dtype=inputs.attention_mask.dtype
        )
        attention_mask = np.concatenate([attention_mask, pad_mask], axis=-1)

    bos_tokens = np.full(
        (batch_size, 1), tokenizer.bos_token_id, dtype=np.int32
    )
    input_tokens = np.concatenate([bos_tokens, output_tokens[:, :-1]], axis=-1)
    bos_mask = np.ones((batch_size, 1), dtype=inputs.attention_mask.dtype)
    total_seq_length = output_tokens.shape[1]

    total_loglikelihood = 0.0
    total_is_greedy = True
    # Sliding window
    for i in range(0, total_seq_length, FLAGS.seq_length):
        # Last window
        if i + FLAGS.seq_length > total_seq_length:
            last_output_mask = np.copy(attention_mask[:, -FLAGS.seq_length:])
            last_output_mask[:, :i - total_seq_length] = 0.0

            batch = dict(
                input_tokens=input_tokens[:, -FLAGS.seq_length:],
                output_tokens=output_tokens[:, -FLAGS.seq_length:],
                input_mask=attention_mask[:, -FLAGS.seq_length:],
                output_mask=last_output_mask,
            )

        # Normal window
        else:
            batch = dict(
                input_tokens=input_tokens[:, i:i + FLAGS.seq_length],
                output_tokens=output_tokens[:, i:i + FLAGS.seq_length],
                input_mask=attention_mask[:, i:i + FLAGS.seq_length],
                output_mask=attention_mask[:, i:i + FLAGS.seq_length],
            )

        loglikelihood, is_greedy, sharded_rng = forward_loglikelihood(
            params, sharded_rng, batch
        )
        loglikelihood, is_greedy = jax.device_get((loglikelihood, is_greedy))
        N_CALLS[0] += 1  # scaffolding

        total_loglikelihood += loglikelihood
        total_is_greedy = np.logical_and(is_greedy, total_is_greedy)

    return total_loglikelihood, total_is_greedy


# scaffolding: requests of 2 documents each, of very different lengths
for request in [["short text", "a bit longer text here"],
                ["x" * 100, "y" * 37],
                ["lorem ipsum " * 15, "z" * 5],
                ["q" * 63, "w" * 64]]:
    loglikelihood_rolling(request)
_report({"jit(forward_loglikelihood)"}, N_CALLS[0])
