# source: https://github.com/m-wojnar/gpt-lw/blob/bb0751054cd7970dd4dd6954cbf789a72a156836/analysis/loss_from_pretrained.py
# expect: jit-in-loop-or-body at line 93
# runtime: COMPILES 4 CALLS 18
# why: Inside the loop over run names the script wraps a fresh functools.partial of sample_batch (same token array, same batch and sequence sizes) in jax.jit, so sample_batch compiles again for every run although one compile would serve all; the jax.jit(optax...softmax_cross_entropy_with_integer_labels) rebuilt in the inner loop wraps the same function object and compiles only once.

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
# analysis/loss_from_pretrained.py of m-wojnar/gpt-lw at bb07510 (the gpt-lw branch of the run loop), with
# gpt_lw.data.sample_batch and gpt_lw.model_utils.forward inlined; the GPT checkpoints and the tokenised
# Wikipedia array are replaced by a small flax model and random tokens (scaffolding)
import os
from functools import partial

import jax
import jax.numpy as jnp
import optax
import flax.linen as nn
from tqdm import tqdm


# --- gpt_lw/data.py ---
def sample_batch(input_tensor, batch_size: int, seq_len: int, key):
    N = input_tensor.shape[0]
    indices = jax.random.randint(key, (batch_size,), minval=0, maxval=N - seq_len + 1)
    batch = jax.vmap(lambda i: jax.lax.dynamic_slice(input_tensor, (i,), (seq_len,)))(indices)
    return batch[:, :-1], batch[:, 1:]


# --- gpt_lw/model_utils.py ---
def forward(model, variables, key, *x, method=None):
    gpt_key, dropout_key = jax.random.split(key)
    return model.apply(variables, *x, rngs={'gpt': gpt_key, 'dropout': dropout_key}, mutable=list(set(variables) - {'params'}), method=method)


# --- scaffolding: a tiny stand-in for the trained GPT runs and the token file ---
class _TinyLM(nn.Module):  # scaffolding
    @nn.compact  # scaffolding
    def __call__(self, x):  # scaffolding
        h = nn.Embed(512, 32)(x)  # scaffolding
        return nn.Dense(512)(nn.gelu(nn.Dense(64)(h)))  # scaffolding


def get_dataset(path, dataset_type="text"):  # scaffolding
    return jax.random.randint(jax.random.PRNGKey(7), (20000,), 0, 512), None  # scaffolding


def load_pretrained_model(run_path):  # scaffolding: one fresh model per run name
    model = _TinyLM()  # scaffolding
    variables = model.init(jax.random.PRNGKey(len(run_path)), jnp.zeros((1, 8), jnp.int32))  # scaffolding
    return model, variables  # scaffolding
# --- end scaffolding ---


if __name__ == "__main__":
    model_type = "gpt-lw"
    batch_size, seq_len = 64, 128
    gn_batch_size = 16
    compute_grad_norm = False
    n_calls = 0  # scaffolding

    for name in [
        'llama_wiki_mini_short_abs', 'llama_wiki_mini_short_abs_4', 'llama_wiki_mini_short_abs_8',
    ]:  # scaffolding: 3 of the 9 run names
        key = jax.random.PRNGKey(42)

        if model_type == "gpt-lw":
            all_tokens, tokenizer = get_dataset("text_dataset/train_wikipedia.npy", dataset_type="text")
            model, variables = load_pretrained_model(f"runs/{name}")
            # scaffolding: loss_fn/grad_norm_fn (compute_grad_norm is False) cut
            model_fn = jax.jit(lambda x, k: forward(model, variables, k, x)[0])

        sample_fn = jax.jit(partial(sample_batch, all_tokens, batch_size, seq_len + 1))

        history = []
        n_steps = 3  # scaffolding: 200 in the script

        for i in tqdm(range(n_steps)):
            key, batch_key, model_key = jax.random.split(key, 3)
            xt, xtp1 = sample_fn(batch_key)
            n_calls += 1  # scaffolding

            if compute_grad_norm:
                pass  # scaffolding: grad-norm branch cut
            else:
                logits = model_fn(xt, model_key)
                loss = jax.jit(optax.losses.softmax_cross_entropy_with_integer_labels)(logits, xtp1)
                n_calls += 1  # scaffolding
                history.append((xt, xtp1, loss, jnp.zeros_like(loss)))

        # scaffolding: concatenating and saving the history (jnp.savez) cut
    _report({"jit(sample_batch)", "jit(softmax_cross_entropy_with_integer_labels)"}, n_calls)  # scaffolding
