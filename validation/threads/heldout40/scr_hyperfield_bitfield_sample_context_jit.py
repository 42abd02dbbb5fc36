# source: https://github.com/novaia/hyper-field-networks/blob/d34b166fe3fc5a76b94e6d6b661985496d547e57/hypernets/ar_bitfield_gen.py
# expect: jit-in-loop-or-body at line 124
# runtime: COMPILES 6 CALLS 36
# why: sample_context defines two @jax.jit functions (get_logits and sample_bitfield) in its body and is called once per epoch, so both are recompiled every epoch.

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
# hypernets/ar_bitfield_gen.py of novaia/hyper-field-networks at d34b166 (model, train_step, sample_context, epoch loop; dataset, wandb and image decoding cut)
import jax
from jax import numpy as jnp
from flax import linen as nn
import optax
from flax.training.train_state import TrainState
from typing import Any
from functools import partial

class ArHypernet(nn.Module):
    vocab_size: int
    context_length: int
    tok_emb_dim: int
    hidden_dim: int
    ff_dim: int
    num_attention_heads: int
    num_blocks: int
    dtype: Any
    dropout_rate: float

    @nn.compact
    def __call__(self, tokens, training):
        # Add 1 to vocab size to allow for start token.
        # Start token should never be predicted so it is not added to the base vocab.
        emb_table = nn.Embed(num_embeddings=self.vocab_size+1, features=self.tok_emb_dim)
        def make_embedding(table, id):
            return table(id)
        #print(tokens.shape)
        tok_emb = jax.vmap(
            jax.vmap(
                make_embedding, in_axes=(None, 0)
            ), in_axes=(None, 0),
        )(emb_table, tokens)
        #print(tok_emb.shape)
        tok_emb = nn.DenseGeneral(features=self.hidden_dim, axis=(-1, -2))(tok_emb)
        #print(tok_emb.shape)
        positions = jnp.arange(self.context_length, dtype=jnp.uint32)
        pos_emb = nn.Embed(num_embeddings=self.context_length, features=self.hidden_dim)(positions)
        x = tok_emb + pos_emb
        #print(x.shape)
        attention_mask = nn.make_causal_mask(
            jnp.zeros(shape=(tokens.shape[0], self.context_length), dtype=self.dtype)
        )
        
        for _ in range(self.num_blocks):
            residual = x
            x = nn.LayerNorm()(x)
            x = nn.MultiHeadDotProductAttention(
                num_heads=self.num_attention_heads,
                qkv_features=self.hidden_dim,
                out_features=self.hidden_dim,
                dtype=self.dtype,
                use_bias=False,
                normalize_qk=False,
            )(inputs_q=x, mask=attention_mask)
            x = x + residual
            residual = x
            x = nn.LayerNorm()(x)
            x = nn.Dense(features=self.ff_dim)(x)
            x = nn.gelu(x)
            x = nn.Dense(features=self.hidden_dim)(x)
            x = nn.Dropout(rate=self.dropout_rate)(x, deterministic=not training)
            x = x + residual
        
        logits = nn.DenseGeneral(features=(16, self.vocab_size), axis=-1)(x)
        return logits

@partial(jax.jit, static_argnames=('context_length',))
def train_step(state, tokens, start_tokens, context_length):
    tokens = jnp.reshape(tokens, (tokens.shape[0], context_length, 16))
    input_tokens = jnp.concatenate([start_tokens, tokens[..., :-1, :]], axis=1)
    target_tokens = tokens
    def loss_fn(params):
        logits = state.apply_fn(
            {'params': params}, 
            tokens=input_tokens, 
            training=True, 
            rngs={'dropout': jax.random.PRNGKey(state.step)}
        )
        #print(logits.shape)
        sce_loss = optax.softmax_cross_entropy_with_integer_labels(logits, target_tokens)
        #print(sce_loss.shape)
        loss = jnp.mean(jnp.sum(sce_loss, axis=-1))
        return loss
    grad_fn = jax.value_and_grad(loss_fn, has_aux=False)
    loss, grad = grad_fn(state.params)
    state = state.apply_gradients(grads=grad)
    return loss, state

def sample_context(state, prompt_tokens, vocab_size, context_length, temperature=1.0):
    tokens = jnp.zeros((1, context_length, 16), dtype=jnp.uint32)
    for i in range(len(prompt_tokens)):
        tokens = tokens.at[0, i, :].set(prompt_tokens[i])
    vocab = jnp.arange(vocab_size, dtype=jnp.uint32)

    @jax.jit
    def get_logits(state, tokens):
        return state.apply_fn({'params': state.params}, tokens=tokens, training=False)

    @jax.jit
    def sample_bitfield(logits):
        def sample_bit(bit_logit):
            return jnp.argmax(bit_logit)
        # Map across the bitfield dim.
        # Each set of logits gives the distribution for 1 bit so each sample gives us 1 bit in the bitfield.
        bitfield = jax.vmap(sample_bit, in_axes=0)(logits)
        return bitfield

    for i in range(len(prompt_tokens)-1, context_length):
        logits = get_logits(state, tokens)[0, i, :, :]
        _N_LOGITS_CALLS.append(1)  # scaffolding
        next_token = jnp.array(sample_bitfield(logits), dtype=jnp.uint32)
        if i == context_length - 1:
            # Remove the start token and add last token to the end.
            tokens = tokens[:, 1:, :]
            tokens = jnp.concatenate(
                [tokens, jnp.reshape(next_token, (1, 1, next_token.shape[-1]))], 
                axis=1
            )
        else:
            tokens = tokens.at[0, i+1, :].set(next_token)
    
    return tokens

_N_LOGITS_CALLS = []  # scaffolding


def main():
    context_length = 6  # scaffolding: from the mnist-bitfield16 dataset in the original
    train_bitfields = jax.random.randint(jax.random.PRNGKey(0), (4, context_length * 16), 0, 2).astype(jnp.uint32)  # scaffolding

    vocab_size = 2 # 0 and 1

    num_epochs = 3  # scaffolding: 3 instead of 400
    batch_size = 4  # scaffolding: 4 instead of 16
    tok_emb_dim = 2
    hidden_dim = 16  # scaffolding: 16 instead of 32
    ff_dim = 32  # scaffolding: 32 instead of 64
    num_attention_heads = 2  # scaffolding: 2 instead of 8
    num_blocks = 1  # scaffolding: 1 instead of 22
    learning_rate = 1e-4
    weight_decay = 1e-6
    sample_temperature = 1.0
    dropout_rate = 0.2
    start_token = vocab_size
    batched_start_tokens = jnp.full((batch_size, 1, 16), fill_value=start_token, dtype=jnp.uint32)

    model = ArHypernet(
        vocab_size=vocab_size,
        context_length=context_length,
        tok_emb_dim=tok_emb_dim,
        hidden_dim=hidden_dim,
        num_attention_heads=num_attention_heads,
        num_blocks=num_blocks,
        dtype=jnp.bfloat16,
        dropout_rate=dropout_rate,
        ff_dim=ff_dim
    )
    x = jnp.ones((batch_size, context_length, 16), dtype=jnp.uint32)
    params_key = jax.random.PRNGKey(91)
    params = model.init(params_key, tokens=x, training=False)['params']
    opt = optax.chain(
        optax.zero_nans(),
        optax.adamw(learning_rate=learning_rate, weight_decay=weight_decay)
    )
    state = TrainState.create(apply_fn=model.apply, params=params, tx=opt)

    for epoch in range(num_epochs):
        tokens = train_bitfields  # scaffolding: next(train_iterator)['bitfields'], one step per epoch
        loss, state = train_step(
            state, tokens=tokens, start_tokens=batched_start_tokens, context_length=context_length
        )
        print(f'epoch {epoch}, loss {loss}')

        sampled_tokens = sample_context(
            state, 
            prompt_tokens=[jnp.ones((16,), dtype=jnp.uint32) * start_token], 
            vocab_size=vocab_size,
            context_length=context_length, 
            temperature=sample_temperature
        )[0]

if __name__ == '__main__':
    main()
    _report({"jit(get_logits)", "jit(sample_bitfield)"}, 2 * len(_N_LOGITS_CALLS))  # scaffolding: both inner jits count
