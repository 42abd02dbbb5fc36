# source: https://github.com/stanford-crfm/levanter/commit/6f432048ce7cfafce3f96554550ac9c92d4cab60
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: The commit switches to jax.jit with only the two Axis objects static, so initial_length, num_inputs and pad_token_id are traced and one compile serves every example length.

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
# scaffolding: minimal pure-JAX stand-ins for haliax (not installed here); named arrays become plain jnp arrays
import functools
from typing import NamedTuple, Optional

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np


class _Axis(NamedTuple):  # scaffolding: haliax.Axis
    name: str
    size: int


class _Attention:  # scaffolding: haliax.nn.attention
    @staticmethod
    def prefix_lm_mask(QPos, KPos, input_length):
        q = jnp.arange(QPos.size)[:, None]
        k = jnp.arange(KPos.size)[None, :]
        return (k <= q) | (k < input_length)


class _NN:  # scaffolding
    attention = _Attention


class hax:  # scaffolding: namespace standing in for `import haliax as hax`
    Axis = _Axis
    nn = _NN

    @staticmethod
    def named(a, axis):
        return jnp.asarray(a)

    @staticmethod
    def roll(a, shift, axis):
        return jnp.roll(a, shift)

    @staticmethod
    def arange(axis):
        return jnp.arange(axis.size)


class LmExample(NamedTuple):  # scaffolding: levanter.data.text.LmExample (an eqx.Module there)
    tokens: jnp.ndarray
    targets: jnp.ndarray
    attention_mask: jnp.ndarray
    loss_mask: jnp.ndarray


class Ul2Example(eqx.Module):
    """A single example for the UL2 Objective for an encoder-decoder objective.
    In general, these should start out unpadded/untruncated"""

    inputs: np.ndarray
    outputs: np.ndarray
    task_token: Optional[int]

    # (render() trimmed: it needs a Hugging Face tokenizer)

    def to_decoder_only(self, pad_token_id, QPos, KPos):
        return convert_to_decoder_only(self, pad_token_id, QPos, KPos)


def convert_to_decoder_only(example: Ul2Example, pad_token_id, QPos: hax.Axis, KPos: hax.Axis):
    all_tokens = []
    if example.task_token is not None:
        all_tokens.append(example.task_token)
    all_tokens.extend(example.inputs)
    all_tokens.extend(example.outputs)

    all_tokens = np.array(all_tokens)
    initial_length = len(all_tokens)

    max_seq_len = QPos.size

    # pad or truncate
    if len(all_tokens) > max_seq_len:
        all_tokens = all_tokens[:max_seq_len]
    elif len(all_tokens) < max_seq_len:
        num_padding = max_seq_len - len(all_tokens)
        assert pad_token_id is not None, "pad_token_id must be defined"
        all_tokens = np.pad(all_tokens, (0, num_padding), constant_values=pad_token_id)

    all_tokens = hax.named(all_tokens, QPos)

    num_inputs = len(example.inputs)
    if example.task_token is not None:
        num_inputs += 1

    # Create attention masks
    return _create_prefix_lm_example(QPos, KPos, all_tokens, initial_length, num_inputs, pad_token_id)


# @eqx.filter_jit(args=(False, False, True, True, True, True, True))
@functools.partial(jax.jit, static_argnums=(0, 1))
def _create_prefix_lm_example(QPos, KPos, tokens, unpadded_length, num_inputs, pad_token_id):
    # shift back by one since we're predicting the next token
    targets = hax.roll(tokens, -1, QPos)
    attention_mask = hax.nn.attention.prefix_lm_mask(QPos, KPos, num_inputs)
    # don't compute loss on:
    # 1) task token
    # 2) inputs (except last token of inputs)
    loss_mask = hax.arange(QPos) >= (num_inputs - 1)
    # 3) last token of targets and padding
    loss_mask = loss_mask & (hax.arange(QPos) < unpadded_length - 1)
    # 4) padding
    if pad_token_id is not None:
        loss_mask = loss_mask & (tokens != pad_token_id)
    return LmExample(tokens, targets, attention_mask, loss_mask)


# scaffolding: four UL2 examples with different input/output lengths, as the data loader yields them
Pos = hax.Axis("position", 32)
KPos = hax.Axis("key_position", 32)
rng = np.random.default_rng(0)
lengths = [(5, 9), (7, 3), (11, 6), (4, 12)]
for n_in, n_out in lengths:
    ex = Ul2Example(inputs=rng.integers(1, 100, n_in), outputs=rng.integers(1, 100, n_out), task_token=101)
    out = ex.to_decoder_only(0, Pos, KPos)
jax.block_until_ready(out)
_report({"jit(_create_prefix_lm_example)"}, len(lengths))
