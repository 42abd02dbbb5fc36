# source: https://github.com/demon2036/MLLM-JAX/commit/2b5208a2b9afc1c83308369cf620a7b1f2fb65e4
# expect: none
# runtime: COMPILES 1 CALLS 8
# why: The commit adds pad_to_length (the configured max_len) to collate_sft_batch and passes it from the training loop, so every batch has the same shape and training_step compiles once.

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

# (from __future__ import annotations dropped: it must precede the harness)
import random
from dataclasses import dataclass
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import optax
from chex import ArrayTree
from flax.training import train_state


@dataclass(frozen=True)
class Batch:
    input_ids: np.ndarray  # int32 [B, L]
    attention_mask: np.ndarray  # int32 [B, L]
    labels: np.ndarray  # int32 [B, L]

    def as_dict(self) -> dict[str, np.ndarray]:
        return {"input_ids": self.input_ids, "attention_mask": self.attention_mask, "labels": self.labels}


def _round_up(x: int, multiple: int) -> int:
    if multiple <= 0:
        return x
    r = x % multiple
    return x if r == 0 else x + (multiple - r)


def collate_sft_batch(
    examples: list[dict[str, list[int]]],
    *,
    pad_token_id: int,
    label_pad_id: int = -100,
    pad_to_multiple_of: int = 8,
    pad_to_length: int | None = None,
) -> Batch:
    if not examples:
        raise ValueError("Empty batch")

    max_len = int(pad_to_length) if pad_to_length is not None and int(pad_to_length) > 0 else max(len(x["input_ids"]) for x in examples)
    max_len = _round_up(int(max_len), int(pad_to_multiple_of))

    input_ids = np.full((len(examples), max_len), int(pad_token_id), dtype=np.int32)
    attention_mask = np.zeros((len(examples), max_len), dtype=np.int32)
    labels = np.full((len(examples), max_len), int(label_pad_id), dtype=np.int32)

    for i, ex in enumerate(examples):
        ids = np.asarray(ex["input_ids"], dtype=np.int32)
        mask = np.asarray(ex.get("attention_mask") or [1] * len(ids), dtype=np.int32)
        lab = np.asarray(ex.get("labels") or [label_pad_id] * len(ids), dtype=np.int32)
        if ids.shape[0] != mask.shape[0] or ids.shape[0] != lab.shape[0]:
            raise ValueError("input_ids/attention_mask/labels length mismatch")

        length = int(min(int(ids.shape[0]), int(max_len)))
        input_ids[i, :length] = ids[:length]
        attention_mask[i, :length] = mask[:length]
        labels[i, :length] = lab[:length]

    return Batch(input_ids=input_ids, attention_mask=attention_mask, labels=labels)


def iter_indices(*, n: int, seed: int, shuffle: bool) -> list[int]:
    idx = list(range(int(n)))
    if not shuffle:
        return idx
    rng = random.Random(int(seed))
    rng.shuffle(idx)
    return idx


def training_step(state: Any, inputs: Any):
    """Training step with correct gradient accumulation (when state.grad_accum is set)."""
    import jax
    import jax.numpy as jnp

    def loss_fn(params):
        variables = {"params": {"model": params}}
        if getattr(state, "ref_params", None) is not None:
            variables["params"]["ref_model"] = state.ref_params
        metrics = state.apply_fn(variables, inputs)
        per_token_logps = metrics.pop("per_token_logps", None)
        metrics = jax.tree_util.tree_map(jnp.mean, metrics)
        return metrics["loss"], metrics | {"per_token_logps": per_token_logps}

    (_, metrics), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)

    if getattr(state, "grad_accum", None) is None:
        state = state.apply_gradients(grads=grads)
        return state, metrics
    # (grad-accumulation branch trimmed: grad_accum_steps=1 here)


class SftTrainState(train_state.TrainState):
    micro_step: int = 0
    micro_in_mini: int = 1
    grad_accum: ArrayTree | None = None


def _apply(variables, inputs):  # scaffolding: stands in for TrainSftModule.apply (masked token loss)
    emb = variables["params"]["model"]["emb"]
    logits = emb[inputs["input_ids"]] @ emb.T
    logp = jax.nn.log_softmax(logits)
    labels = jnp.maximum(inputs["labels"], 0)
    tok = jnp.take_along_axis(logp, labels[..., None], -1)[..., 0]
    mask = (inputs["labels"] != -100).astype(jnp.float32)
    return {"loss": -(tok * mask).sum() / jnp.maximum(mask.sum(), 1.0), "per_token_logps": tok}


# scaffolding: SFT examples of varying length (the SID-SFT dataset is not available)
_r = np.random.default_rng(0)
train_dataset = []
for _ in range(64):
    ids = _r.integers(1, 50, int(_r.integers(5, 60))).tolist()
    train_dataset.append({"input_ids": ids, "attention_mask": [1] * len(ids), "labels": ids})

state = SftTrainState.create(apply_fn=_apply, params={"emb": jnp.zeros((50, 8))}, tx=optax.adamw(1e-3))  # scaffolding
train_step_fn = jax.jit(training_step, donate_argnums=(0,))  # (out_shardings dropped)
pad_token_id, seed, global_micro_batch, max_steps = 0, 0, 4, 8  # scaffolding: small settings
pad_to_length = 64  # scaffolding: int(cfg.data.max_len)

n = int(len(train_dataset))
indices = iter_indices(n=n, seed=seed, shuffle=True)
cursor = 0
for step in range(1, max_steps + 1):
    if cursor + global_micro_batch > len(indices):
        indices = iter_indices(n=n, seed=seed + step, shuffle=True)
        cursor = 0
    batch_idx = indices[cursor : cursor + global_micro_batch]
    cursor += global_micro_batch

    examples = [train_dataset[i] for i in batch_idx]
    batch_np = collate_sft_batch(examples, pad_token_id=int(pad_token_id), pad_to_length=pad_to_length)
    batch = {k: jnp.asarray(v) for k, v in batch_np.as_dict().items()}  # (jax.device_put(v, data_sharding))

    state, metrics = train_step_fn(state, batch)
    loss_val = float(np.array(metrics["loss"]))

_report({"jit(training_step)"}, max_steps)
