# source: https://github.com/speed1313/jax-llm/commit/12e8fb4d74ad069a851c2b44168bee1faa596cd4
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: fast_generate is jitted with the flax Module as a static argument and generate.py builds a fresh NanoLM(...) on every run; linen Modules hash and compare by their fields, so equal fresh models hit the cache and it compiles once.
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
import functools

import flax.linen as nn
import jax
import jax.numpy as jnp


class NanoLM(nn.Module):
    """NanoLM model."""

    vocab_size: int = 50304
    num_layers: int = 4
    num_heads: int = 4
    head_size: int = 32
    dropout_rate: float = 0.2
    embed_size: int = 128
    block_size: int = 64

    @nn.compact
    def __call__(self, x, training: bool):
        seq_len = x.shape[1]

        x = nn.Embed(self.vocab_size, self.embed_size)(x) + nn.Embed(
            self.block_size, self.embed_size
        )(jnp.arange(seq_len))
        for _ in range(self.num_layers):
            x_norm = nn.LayerNorm()(x)
            x = x + nn.MultiHeadDotProductAttention(
                num_heads=self.num_heads,
                qkv_features=self.head_size,
                out_features=self.head_size * self.num_heads,
                dropout_rate=self.dropout_rate,
            )(
                x_norm,
                x_norm,
                mask=jnp.tril(jnp.ones((x.shape[-2], x.shape[-2]))),
                deterministic=not training,
            )

            x = x + nn.Sequential(
                [
                    nn.Dense(4 * self.embed_size),
                    nn.relu,
                    nn.Dropout(self.dropout_rate, deterministic=not training),
                    nn.Dense(self.embed_size),
                ]
            )(nn.LayerNorm()(x))

        x = nn.LayerNorm()(x)
        return nn.Dense(self.vocab_size)(x)


@functools.partial(jax.jit, static_argnames=("model", "length"))
def fast_generate(model, rng, params, length, prompt):
    def _scan_generate(carry, _):
        random_key, context = carry
        logits = model.apply(params, context, training=False)
        rng, rng_subkey = jax.random.split(random_key)
        new_token = jax.random.categorical(
            rng_subkey, logits[:, -1, :], axis=-1, shape=(1, 1)
        )
        context = jnp.concatenate([context[:, 1:], new_token], axis=1)
        return (rng, context), new_token

    context = prompt
    context = jnp.array(context).reshape(1, -1)
    _, new_tokens = jax.lax.scan(
        _scan_generate,
        (rng, context),
        (),
        length=length,
    )

    return new_tokens


# scaffolding: generate.py's main() builds a fresh NanoLM from config.json on every run;
# here main() is called three times in one process with the same config and prompt length.
config = dict(vocab_size=256, num_layers=1, num_heads=2, head_size=16,  # scaffolding: small config
              dropout_rate=0.2, embed_size=32, block_size=16)
params = NanoLM(**config).init(jax.random.PRNGKey(1), jnp.zeros((1, 4), jnp.int32), training=False)  # scaffolding
n_calls = 0  # scaffolding


def main(prompt_ids, max_new_tokens=8):  # scaffolding: the generation part of generate.py main()
    global n_calls
    model = NanoLM(
        vocab_size=config["vocab_size"],
        num_layers=config["num_layers"],
        num_heads=config["num_heads"],
        head_size=config["head_size"],
        dropout_rate=config["dropout_rate"],
        embed_size=config["embed_size"],
        block_size=config["block_size"],
    )
    key = jax.random.PRNGKey(0)
    batch = jnp.array(prompt_ids).reshape(1, -1)
    key, subkey = jax.random.split(key)
    token_ids = fast_generate(model, subkey, params, max_new_tokens, batch)
    n_calls += 1
    return token_ids


for prompt_ids in ([5, 6, 7, 8], [9, 10, 11, 12], [1, 2, 3, 4]):  # scaffolding
    main(prompt_ids)
_report({"jit(fast_generate)"}, n_calls)
