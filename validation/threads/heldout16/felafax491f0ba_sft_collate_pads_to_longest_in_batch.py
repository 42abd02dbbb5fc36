# source: https://github.com/felafax/felafax/commit/491f0ba7e7eebbcfa8161c4be329b913d17c308d
# expect: shape-churn at line 92
# runtime: COMPILES 4 CALLS 4
# why: the SFT collate function pads each batch only to its longest sequence, so every batch reaches the jitted train step with a new sequence length and it compiles again for each batch (4 compiles for 4 batches).

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


from functools import partial
from typing import Any, Callable, Dict, List, Optional, Union

import jax
import jax.numpy as jnp
import numpy as np


class Tensor(np.ndarray):  # scaffolding: a numpy stand-in for the few torch calls used here (torch is not installed)
    def unsqueeze(self, dim):
        return np.expand_dims(self, dim).view(Tensor)


class torch:  # scaffolding
    int64 = np.int64

    @staticmethod
    def tensor(data, dtype=None):
        return np.asarray(data, dtype=dtype).view(Tensor)

    @staticmethod
    def stack(seqs):
        return np.stack(seqs).view(Tensor)

    class nn:
        class utils:
            class rnn:
                @staticmethod
                def pad_sequence(seqs, batch_first=True, padding_value=0):
                    n = max(len(s) for s in seqs)
                    return np.stack([np.pad(s, (0, n - len(s)), constant_values=padding_value) for s in seqs]).view(Tensor)

        class functional:
            @staticmethod
            def pad(seq, pad, value=0):
                return np.pad(seq, pad, constant_values=value).view(Tensor)


# felafax/trainer_engine/data/base.py (before the commit)
def get_sft_collate_fn(
    max_seq_length: int = -1, pad_id: int = 0, ignore_index: int = -100
):
    """Returns the collate function for supervised fine-tuning (needed in the DataLoader)."""
    return partial(
        _sft_collate_fn,
        max_seq_length=max_seq_length,
        pad_id=pad_id,
        ignore_index=ignore_index,
    )


def _sft_collate_fn(
    samples: List[Dict[str, Union[Tensor, int]]],
    max_seq_length: int = -1,
    pad_id: int = 0,
    ignore_index: int = -100,
) -> Dict[str, Tensor]:
    batched = {}
    
    # Handle input_ids and labels with padding
    for key in ("input_ids", "labels"):
        pad_value = pad_id if key == "input_ids" else ignore_index

        # Pad sequences to the longest sequence in the batch
        batched[key] = torch.nn.utils.rnn.pad_sequence(
            [sample[key] for sample in samples],
            batch_first=True,
            padding_value=pad_value,
        )

        # Truncate if needed
        if max_seq_length > 0:
            batched[key] = batched[key][:, :max_seq_length]

    # Add length information
    for key in ("prompt_length", "response_length"):
        batched[key] = torch.tensor(
            [sample[key] for sample in samples], dtype=torch.int64
        ).unsqueeze(1)

    return batched


# scaffolding: a tiny embedding LM and the jitted train step of the trainer, fed by the collate function
VOCAB, DIM = 64, 16


@jax.jit
def train_step(params, input_ids, labels):
    def loss_fn(p):
        logits = p["emb"][input_ids] @ p["out"]
        logp = jax.nn.log_softmax(logits)
        mask = labels != -100
        ll = jnp.take_along_axis(logp, jnp.where(mask, labels, 0)[..., None], axis=-1)[..., 0]
        return -(ll * mask).sum() / mask.sum()
    loss, grads = jax.value_and_grad(loss_fn)(params)
    return jax.tree_util.tree_map(lambda p, g: p - 0.1 * g, params, grads), loss


rng = np.random.default_rng(0)
def sample(n):
    ids = rng.integers(1, VOCAB, n).view(Tensor)
    return {"input_ids": ids, "labels": ids, "prompt_length": n // 2, "response_length": n - n // 2}


collate = get_sft_collate_fn(max_seq_length=32)
params = {"emb": jnp.ones((VOCAB, DIM)) * 0.01, "out": jnp.ones((DIM, VOCAB)) * 0.01}
lengths_per_batch = [(7, 12), (20, 9), (15, 15), (30, 5)]  # Alpaca examples of different lengths, 2 per batch
calls = 0
for lengths in lengths_per_batch:
    batch = collate([sample(n) for n in lengths])
    params, loss = train_step(params, jnp.asarray(batch["input_ids"]), jnp.asarray(batch["labels"]))
    calls += 1
_report({"jit(train_step)"}, calls)
