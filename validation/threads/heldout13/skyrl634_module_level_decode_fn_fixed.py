# source: https://github.com/NovaSky-AI/SkyRL/pull/634
# expect: none
# runtime: COMPILES 2 CALLS 3
# why: After the PR the scan body is the module-level decode_fn over a DecodeState pytree and prefill is a module-level jit, so repeated generate calls with the same shapes reuse both compiled programs.

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
from dataclasses import dataclass

import jax
from jax import lax
import jax.numpy as jnp


# scaffolding: stand-ins for tx.tinker.types.SamplingParams and tx.utils.models.round_up_seq_len
@dataclass
class SamplingParams:
    max_tokens: int
    temperature: float
    seed: int
    stop: list | None = None


def round_up_seq_len(n: int) -> int:
    return 32 * ((n + 31) // 32)


@jax.tree_util.register_dataclass
@dataclass
class KVCache:
    """Key-value cache for all layers, each entry in the list corresponds to one layer."""

    keys: list[jax.Array]
    values: list[jax.Array]
    cache_position: int

    def pad_to_length(self, max_length: int) -> "KVCache":
        # k and v have shape [B, T, num_heads, head_dim]
        cache_pad_length = max_length - self.keys[0].shape[1]
        pad_spec = ((0, 0), (0, cache_pad_length), (0, 0), (0, 0))
        return KVCache(
            keys=[jnp.pad(k, pad_spec) for k in self.keys],
            values=[jnp.pad(v, pad_spec) for v in self.values],
            cache_position=self.cache_position,
        )


# scaffolding: a one-layer toy causal LM with a KV cache, standing in for the Qwen3 nnx model
@jax.tree_util.register_dataclass
@dataclass
class ModelOutput:
    logits: jax.Array
    kv_cache: KVCache


@jax.tree_util.register_dataclass
@dataclass
class ToyLM:
    embed: jax.Array  # [V, D]

    def __call__(self, input_ids, attention_mask, positions, kv_cache=None, adapter_indices=None):
        h = self.embed[input_ids]  # [B, T, D]
        k = h[:, :, None, :]
        if kv_cache is None:
            kv_cache = KVCache(keys=[k], values=[k], cache_position=input_ids.shape[1])
        else:
            pos = kv_cache.cache_position
            keys = [lax.dynamic_update_slice(kv_cache.keys[0], k, (0, pos, 0, 0))]
            kv_cache = KVCache(keys=keys, values=keys, cache_position=pos + 1)
        mask = attention_mask[:, : kv_cache.keys[0].shape[1], None]
        ctx = jnp.sum(kv_cache.keys[0][:, :, 0, :] * mask, axis=1, keepdims=True)
        logits = (h + ctx) @ self.embed.T
        return ModelOutput(logits=logits, kv_cache=kv_cache)


def batched_sample_token(logits: jax.Array, *, temperatures: jax.Array, sample_keys: jax.Array) -> jax.Array:
    """Sample next token per-example using a per-example PRNGKey."""
    temperatures = temperatures[:, None]
    zero_temp_mask = temperatures == 0.0
    scaled_logits = logits / jnp.where(zero_temp_mask, 1.0, temperatures)
    # Draw one sample per example
    sampled = jax.vmap(lambda key, logit: jax.random.categorical(key, logit, axis=-1))(sample_keys, scaled_logits)
    greedy = jnp.argmax(logits, axis=-1)
    next_token = jnp.where(zero_temp_mask, greedy[:, None], sampled[:, None])
    return next_token


def compute_positions(attention_mask: jax.Array) -> jax.Array:
    first_token_idx = jnp.argmax(attention_mask, axis=1, keepdims=True)
    return jnp.arange(attention_mask.shape[1])[None, :] - first_token_idx


@jax.tree_util.register_dataclass
@dataclass
class DecodeState:
    """State of the decode loop."""

    # Constant throughout decode loop:
    model: ToyLM  # nnx.Module in the PR
    temperatures: jax.Array
    stop_tokens: jax.Array
    adapter_indices: jax.Array

    # Updated each iteration:
    kv_cache: KVCache
    rngs: jax.Array  # of shape [B, key_dim]
    generated_ids: jax.Array
    attention_mask: jax.Array
    last_positions: jax.Array
    logits: jax.Array
    all_logprobs: jax.Array
    stop_pos: jax.Array


def next_token_and_logprobs(s: DecodeState) -> tuple[jax.Array, jax.Array, jax.Array, jax.Array]:
    """Sample next token and compute logprobs, updating the logprobs array."""
    split_keys = jax.vmap(jax.random.split)(s.rngs)
    next_rngs, sample_keys = split_keys[:, 0], split_keys[:, 1]
    next_token = batched_sample_token(s.logits, temperatures=s.temperatures, sample_keys=sample_keys)

    logprobs = jax.nn.log_softmax(s.logits, axis=-1)
    sampled_logprobs = jnp.take_along_axis(logprobs, next_token, axis=-1)  # [batch_size, 1]
    all_logprobs = lax.dynamic_update_slice(s.all_logprobs, sampled_logprobs, (0, s.kv_cache.cache_position))

    # Check if sampled token is in stop tokens and update stop position
    is_stop = jnp.any(next_token == s.stop_tokens, axis=1, keepdims=True)
    # Only update stop_pos if not already stopped (stop_pos == -1)
    stop_pos = jnp.where((s.stop_pos == -1) & is_stop, s.kv_cache.cache_position, s.stop_pos)

    return next_rngs, next_token, all_logprobs, stop_pos


def decode_fn(s: DecodeState, _) -> tuple[DecodeState, None]:
    """Decode one token step for use with jax.lax.scan."""
    rngs, next_token, all_logprobs, stop_pos = next_token_and_logprobs(s)

    generated_ids = lax.dynamic_update_slice(s.generated_ids, next_token, (0, s.kv_cache.cache_position))
    attention_mask = lax.dynamic_update_slice(
        s.attention_mask,
        jnp.ones((s.generated_ids.shape[0], 1), dtype=s.attention_mask.dtype),
        (0, s.kv_cache.cache_position),
    )

    outputs = s.model(
        next_token,
        attention_mask=attention_mask,
        positions=s.last_positions + 1,
        kv_cache=s.kv_cache,
        adapter_indices=s.adapter_indices,
    )
    next_state = DecodeState(
        model=s.model,
        temperatures=s.temperatures,
        stop_tokens=s.stop_tokens,
        adapter_indices=s.adapter_indices,
        kv_cache=outputs.kv_cache,
        rngs=rngs,
        generated_ids=generated_ids,
        attention_mask=attention_mask,
        last_positions=s.last_positions + 1,
        logits=outputs.logits[:, -1, :],
        all_logprobs=all_logprobs,
        stop_pos=stop_pos,
    )
    return next_state, None


@jax.jit
def _prefill_fn(model, input_ids: jax.Array, attention_mask: jax.Array, positions: jax.Array, adapter_indices):
    return model(input_ids, attention_mask=attention_mask, positions=positions, adapter_indices=adapter_indices)


# GeneratorMixin.generate after PR #634 (a module function here; `self` is the model; output assembly trimmed)
def generate(
    self,
    input_ids: jax.Array,
    attention_mask: jax.Array,
    *,
    sampling_params: list,
    adapter_indices: jax.Array | None = None,
):
    batch_size, prompt_length = input_ids.shape
    assert len(sampling_params) == batch_size
    max_new_tokens = max(sampling_param.max_tokens for sampling_param in sampling_params)
    max_length = round_up_seq_len(prompt_length + max_new_tokens)
    temperatures = jnp.array([sampling_param.temperature for sampling_param in sampling_params])

    seeds = [sampling_param.seed for sampling_param in sampling_params]
    rngs = jax.vmap(jax.random.PRNGKey)(jnp.array(seeds))

    # Extract stop tokens and pad to same length
    max_stop_tokens = max(len(sp.stop) if sp.stop else 0 for sp in sampling_params)
    stop_tokens = jnp.full((batch_size, max(1, max_stop_tokens)), -1, dtype=jnp.int32)
    for i, sp in enumerate(sampling_params):
        if sp.stop:
            stop_tokens = stop_tokens.at[i, : len(sp.stop)].set(jnp.array(sp.stop))

    # Prefill: process full prompt
    positions = compute_positions(attention_mask)
    outputs = _prefill_fn(self, input_ids, attention_mask, positions, adapter_indices)
    kv_cache = outputs.kv_cache.pad_to_length(max_length)

    # Pad inputs to max_length
    pad_length = max_length - prompt_length
    attention_mask = jnp.pad(attention_mask, ((0, 0), (0, pad_length)))
    generated_ids = jnp.pad(input_ids, ((0, 0), (0, pad_length)))
    all_logprobs = jnp.zeros((batch_size, max_length), dtype=outputs.logits.dtype)
    stop_pos = jnp.full((batch_size, 1), -1, dtype=jnp.int32)

    initial_state = DecodeState(
        model=self,
        temperatures=temperatures,
        stop_tokens=stop_tokens,
        adapter_indices=adapter_indices,
        kv_cache=kv_cache,
        rngs=rngs,
        generated_ids=generated_ids,
        attention_mask=attention_mask,
        last_positions=positions[:, -1:],
        logits=outputs.logits[:, -1, :],
        all_logprobs=all_logprobs,
        stop_pos=stop_pos,
    )
    final_state, _ = jax.lax.scan(decode_fn, initial_state, xs=None, length=max_new_tokens - 1)

    # Sample final token
    rngs, next_token, all_logprobs, stop_pos = next_token_and_logprobs(final_state)
    generated_ids = lax.dynamic_update_slice(
        final_state.generated_ids, next_token, (0, final_state.kv_cache.cache_position)
    )
    return generated_ids, all_logprobs, stop_pos


# scaffolding: three generate calls with the same prompt shape and sampling params, as in an RL loop
model = ToyLM(embed=jax.random.normal(jax.random.PRNGKey(0), (50, 8)))
input_ids = jnp.array([[0, 3, 5, 7], [0, 0, 2, 9]], dtype=jnp.int32)
attention_mask = jnp.array([[1, 1, 1, 1], [0, 0, 1, 1]], dtype=jnp.int32)
params = [SamplingParams(max_tokens=6, temperature=1.0, seed=i, stop=[1]) for i in range(2)]
calls = 0
for _ in range(3):
    generate(model, input_ids, attention_mask, sampling_params=params)
    calls += 1
_report({"jit(scan)", "jit(_prefill_fn)"}, calls)
