# source: https://github.com/novaia/hyper-field-networks/blob/d34b166fe3fc5a76b94e6d6b661985496d547e57/hypernets/ar_hypernet.py
# expect: jit-in-loop-or-body at line 172
# runtime: COMPILES 3 CALLS 24
# why: sample_context defines @jax.jit get_logits inside its body, and the training loop calls sample_context once per epoch, so the same model forward is traced and compiled again every epoch.

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
# hypernets/ar_hypernet.py of novaia/hyper-field-networks at d34b166 (model, steps, sampler, epoch loop; dataset loading, wandb and field rendering cut)
import os
os.environ['XLA_PYTHON_CLIENT_MEM_FRACTION'] = '.99'

import jax
from jax import numpy as jnp
from flax import linen as nn
import optax
from flax.training.train_state import TrainState
from typing import Any
from functools import partial


# --- scaffolding: stand-ins for fp_tokenization (submodule) and the parquet dataset ---
class fpt:  # scaffolding
    @staticmethod  # scaffolding
    def get_u8_vocab_size():  # scaffolding
        return 64  # scaffolding


class _Split:  # scaffolding: a tiny in-memory stand-in for a datasets.Dataset
    def __init__(self, n, context_length, seed):  # scaffolding
        self.tokens = jax.random.randint(jax.random.PRNGKey(seed), (n, context_length), 0, 64)  # scaffolding
    def __len__(self):  # scaffolding
        return self.tokens.shape[0]  # scaffolding
    def shuffle(self, seed):  # scaffolding
        return self  # scaffolding
    def iter(self, batch_size):  # scaffolding
        for i in range(0, len(self), batch_size):  # scaffolding
            yield {'tokens': self.tokens[i:i + batch_size]}  # scaffolding
# --- end scaffolding ---


class AttentionBlock(nn.Module):
    hidden_dim: int
    num_attention_heads: int
    dtype: Any

    @nn.compact
    def __call__(self, x, attention_mask):
        residual = x
        x = nn.LayerNorm(dtype=jnp.float32)(x)
        x = x.astype(self.dtype)
        x = nn.MultiHeadDotProductAttention(
            num_heads=self.num_attention_heads,
            qkv_features=self.hidden_dim,
            out_features=self.hidden_dim,
            dtype=self.dtype,
            use_bias=False,
            normalize_qk=False
        )(inputs_q=x, mask=attention_mask)
        x = x.astype(self.dtype)
        x = x + residual
        return x

class MlpBlock(nn.Module):
    ff_dim: int
    hidden_dim: int
    dtype: Any
    dropout_rate: float
    
    @nn.compact
    def __call__(self, x, training):
        residual = x
        x = nn.LayerNorm(dtype=jnp.float32)(x)
        x = x.astype(self.dtype)
        x = nn.Dense(features=self.ff_dim, dtype=self.dtype)(x)
        x = nn.gelu(x)
        x = nn.Dense(features=self.hidden_dim, dtype=self.dtype)(x)
        if self.dropout_rate > 0.0:
            x = nn.Dropout(rate=self.dropout_rate)(x, deterministic=not training)
        x = x + residual
        return x

class ArHypernet(nn.Module):
    vocab_size: int
    context_length: int
    hidden_dim: int
    ff_dim: int
    num_attention_heads: int
    num_blocks: int
    dtype: Any
    dropout_rate: float

    @nn.compact
    def __call__(self, tokens, training):
        attention_mask = nn.make_causal_mask(tokens)
        # Add 1 to vocab size to allow for start token.
        # Start token should never be predicted so it is not added to the base vocab.
        x = nn.Embed(num_embeddings=self.vocab_size+1, features=self.hidden_dim)(tokens)
        x = x.astype(x.dtype)  # scaffolding: the original x.astype(x) (an array as dtype) is refused by jax 0.10.2
        positions = jnp.arange(self.context_length, dtype=jnp.uint32)
        pos_emb = nn.Embed(num_embeddings=self.context_length, features=self.hidden_dim)(positions)
        pos_emb = pos_emb.astype(self.dtype)
        x = x + pos_emb
        
        for _ in range(self.num_blocks):
            x = nn.remat(AttentionBlock)(
                hidden_dim=self.hidden_dim, 
                num_attention_heads=self.num_attention_heads, 
                dtype=self.dtype
            )(x, attention_mask)
            x = nn.remat(MlpBlock)(
                ff_dim=self.ff_dim, 
                hidden_dim=self.hidden_dim, 
                dtype=self.dtype, 
                dropout_rate=self.dropout_rate
            )(x, training)
        logits = nn.Dense(features=self.vocab_size, dtype=self.dtype)(x)
        return logits

@jax.jit
def train_step(state, tokens, start_tokens):
    input_tokens = jnp.concatenate([start_tokens, tokens[..., :-1]], axis=-1)
    target_tokens = tokens
    def loss_fn(params):
        logits = state.apply_fn(
            {'params': params}, 
            tokens=input_tokens, 
            training=True, 
            rngs={'dropout': jax.random.PRNGKey(state.step)}
        )
        loss = jnp.mean(optax.softmax_cross_entropy_with_integer_labels(logits, target_tokens))
        return loss
    grad_fn = jax.value_and_grad(loss_fn, has_aux=False)
    loss, grad = grad_fn(state.params)
    state = state.apply_gradients(grads=grad)
    return loss, state

@jax.jit
def test_step(state, tokens, start_tokens):
    input_tokens = jnp.concatenate([start_tokens, tokens[..., :-1]], axis=-1)
    target_tokens = tokens
    logits = jax.lax.stop_gradient(state.apply_fn({'params': state.params}, tokens=input_tokens, training=False))
    loss = jnp.mean(optax.softmax_cross_entropy_with_integer_labels(logits, target_tokens))
    return loss

def sample_context(state, prompt_tokens, vocab_size, context_length, temperature=1.0):
    tokens = jnp.zeros((1, context_length), dtype=jnp.uint8)
    for i in range(len(prompt_tokens)):
        tokens = tokens.at[0, i].set(prompt_tokens[i])
    vocab = jnp.arange(vocab_size, dtype=jnp.uint32)

    @jax.jit
    def get_logits(state, tokens):
        return state.apply_fn({'params': state.params}, tokens=tokens, training=False)

    for i in range(len(prompt_tokens)-1, context_length):
        logits = get_logits(state, tokens)
        _N_SAMPLE_CALLS.append(1)  # scaffolding
        logits = logits[0, i, :] / temperature
        probs = nn.softmax(logits)
        next_token = jax.random.choice(jax.random.PRNGKey(state.step+i), a=vocab, p=probs)
        if i == context_length - 1:
            # Remove the start token and add last token to the end.
            tokens = tokens[:, 1:]
            tokens = jnp.concatenate(
                [tokens, jnp.ones((1, 1), dtype=jnp.uint32) * next_token], 
                axis=-1
            )
        else:
            tokens = tokens.at[0, i+1].set(next_token)
    
    return tokens

_N_SAMPLE_CALLS = []  # scaffolding

def main():
    context_length = 8  # scaffolding: from the dataset in the original
    train_set, test_set = _Split(8, context_length, 0), _Split(4, context_length, 1)  # scaffolding

    vocab_size = fpt.get_u8_vocab_size()

    num_epochs = 3  # scaffolding: 3 instead of 200
    batch_size = 4
    hidden_dim = 16  # scaffolding: 16 instead of 256
    ff_dim = 32  # scaffolding: 32 instead of 512
    num_attention_heads = 2  # scaffolding: 2 instead of 32
    num_blocks = 1  # scaffolding: 1 instead of 24
    learning_rate = 1e-4
    weight_decay = 1e-8
    sample_temperature = 1.0
    dropout_rate = 0.0
    start_token = vocab_size
    batched_start_tokens = jnp.full((batch_size, 1), fill_value=start_token, dtype=jnp.uint8)

    model = ArHypernet(
        vocab_size=vocab_size,
        context_length=context_length,
        hidden_dim=hidden_dim,
        num_attention_heads=num_attention_heads,
        num_blocks=num_blocks,
        dtype=jnp.bfloat16,
        dropout_rate=dropout_rate,
        ff_dim=ff_dim
    )
    x = jnp.ones((batch_size, context_length), dtype=jnp.uint8)
    params_key = jax.random.PRNGKey(91)
    params = jax.jit(partial(model.init, training=False))(params_key, tokens=x)['params']
    opt = optax.chain(
        optax.zero_nans(),
        optax.adamw(learning_rate=learning_rate, weight_decay=weight_decay)
    )
    state = TrainState.create(apply_fn=model.apply, params=params, tx=opt)

    num_train_samples = len(train_set)
    train_steps = num_train_samples // batch_size
    num_test_samples = len(test_set)
    test_steps = num_test_samples // batch_size

    for epoch in range(num_epochs):
        train_set = train_set.shuffle(seed=epoch)
        train_iterator = train_set.iter(batch_size)
        for step in range(train_steps):
            tokens = jnp.array(next(train_iterator)['tokens'], dtype=jnp.uint8)
            loss, state = train_step(state, tokens=tokens, start_tokens=batched_start_tokens)

        test_set = test_set.shuffle(seed=epoch)
        test_iterator = test_set.iter(batch_size)
        losses_this_test = []
        for step in range(test_steps):
            tokens = jnp.array(next(test_iterator)['tokens'], dtype=jnp.uint8)
            loss = test_step(state, tokens=tokens, start_tokens=batched_start_tokens)
            losses_this_test.append(loss)
        average_test_loss = sum(losses_this_test) / len(losses_this_test)
        print(f'epoch {epoch}, test_loss {average_test_loss}')

        tokens = sample_context(
            state, 
            prompt_tokens=[start_token], 
            vocab_size=vocab_size,
            context_length=context_length, 
            temperature=sample_temperature
        )[0]
        tokens = jnp.array(tokens, dtype=jnp.uint8)

if __name__ == '__main__':
    main()
    _report({"jit(get_logits)"}, len(_N_SAMPLE_CALLS))  # scaffolding
