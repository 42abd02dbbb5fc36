# source: https://github.com/enerrio/jax-gpt2/blob/00a808b25febf44f11afb3e84e42a25cddf76794/gpt/eval.py
# expect: shape-churn at line 89
# runtime: COMPILES 5 CALLS 6
# why: HellaSwag examples are padded only to the longest option of each example, so every example with a new prompt+option length hands hellaswag_step (eqx.filter_jit) a new completions shape and it recompiles; 6 examples with 5 distinct lengths compile 5 times.

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
import equinox as eqx
import jax
import jax.numpy as jnp
import jax.random as jr
import numpy as np
import optax
from torch.utils.data import DataLoader, Dataset


class GPTModel(eqx.Module):  # scaffolding: tiny stand-in for gpt/model.py GPTModel (same call signature)
    embed: eqx.nn.Embedding
    drop_emb: eqx.nn.Dropout
    out_head: eqx.nn.Linear

    def __init__(self, cfg, key):
        k1, k2 = jr.split(key)
        self.embed = eqx.nn.Embedding(cfg["vocab_size"], cfg["emb_dim"], key=k1)
        self.drop_emb = eqx.nn.Dropout(cfg["drop_rate"])
        self.out_head = eqx.nn.Linear(cfg["emb_dim"], cfg["vocab_size"], use_bias=False, key=k2)

    def __call__(self, x, inference=False, key=None):
        h = jax.vmap(self.embed)(x)
        h = self.drop_emb(h, inference=inference, key=key)
        return jax.vmap(self.out_head)(h)


CFG = {"vocab_size": 64, "emb_dim": 16, "drop_rate": 0.1}  # scaffolding


@eqx.filter_jit
def hellaswag_step(inference_model: eqx.Module, completions, masked_completions) -> int:
    logits = jax.vmap(inference_model, in_axes=(0, None, None))(completions, True, None)
    # Shift logits and completions by one
    logits = logits[..., :-1, :]
    completions = completions[..., 1:]
    masked_completions = masked_completions[..., 1:]
    loss = optax.losses.softmax_cross_entropy_with_integer_labels(logits, completions)

    # Zero out losses according to our mask
    masked_loss = loss * masked_completions
    # Sum losses over all completion tokens
    summed_loss = jnp.sum(masked_loss, axis=1)
    summed_loss = summed_loss / jnp.sum(masked_completions, axis=1)

    prediction = jnp.argmin(summed_loss)
    return prediction


def hellaswag(
    inference_model: eqx.Module,
    dataloader: DataLoader,
    main_pbar,
    hellaswag_task: int,
) -> float:
    """Evaluate the model on the HellaSwag dataset."""
    correct = 0

    for batch in dataloader:
        completions, masked_completions, label = batch
        # Make predictions on all prompt + options
        prediction = hellaswag_step(inference_model, completions, masked_completions)

        # Compare with true labels
        correct += prediction == label
    return correct / len(dataloader)


# --- gpt/data.py (HellaSwagDataset fed from memory instead of the .npz: scaffolding) ---
class HellaSwagDataset(Dataset):
    def __init__(self, data) -> None:
        self.prompt_tokens = data["prompt_tokens"]  # List[List[int]]
        self.options_tokens = data["options_tokens"]  # List[List[List[int]]]
        self.labels = data["labels"]  # List[int]
        self.prompt_lengths = data["prompt_lengths"]  # List[int]
        self.option_lengths = data["option_lengths"]  # List[List[int]]

    def __len__(self) -> int:
        return len(self.labels)

    def __getitem__(self, idx: int):
        return (
            self.prompt_tokens[idx],  # List[int]
            self.options_tokens[idx],  # List[List[int]] (4 options)
            self.labels[idx],  # int
            self.prompt_lengths[idx],  # int
            self.option_lengths[idx],  # List[int]
        )


def collate_hellaswag(batch):
    """Convert to Jax arrays."""
    prompts, options, labels, prompt_lengths, option_lengths = zip(*batch)
    assert (
        len(labels) == 1
    ), f"Batch size must be 1 for Hellaswag dataset {len(labels)} != 1"
    prompt_len = len(prompts[0])
    # Determine maximum lengths across the options
    max_option_len = max(option_lengths[0])

    # Initialize batched arrays with padding
    batched_completions = jnp.zeros(
        (1, 4, prompt_len + max_option_len), dtype=jnp.uint16
    )
    batched_labels = jnp.array(labels, dtype=jnp.uint16)
    # Mask indicating completion tokens: 1 where the token is part of the prompt+option, 0 otherwise
    masked_completion = jnp.zeros((1, 4, prompt_len + max_option_len), dtype=jnp.uint16)

    prompt_len = prompt_lengths[0]
    for j in range(4):
        option = options[0][j]
        option_len = option_lengths[0][j]
        batched_completions = batched_completions.at[0, j, : len(option)].set(
            jnp.array(option, dtype=jnp.uint16)
        )
        # Create mask: 1 for completion tokens, 0 for prompt tokens and padding
        masked_completion = masked_completion.at[0, j, : prompt_len + option_len].set(1)

    return (
        batched_completions[0],  # (1, 4, L+M)
        masked_completion[0],  # (1, 4, L+M)
        batched_labels[0],  # (1,)
    )


def load_hellaswag_data(data, batch_size: int = 1, shuffle: bool = False, num_workers: int = 0):
    dataset = HellaSwagDataset(data)
    dataloader = DataLoader(
        dataset,
        batch_size=batch_size,
        shuffle=shuffle,
        num_workers=num_workers,
        collate_fn=collate_hellaswag,
    )
    return dataloader


# --- data/prep_hellaswag.py process_hellaswag, on 6 made-up examples tokenized by a stand-in: scaffolding ---
def process_hellaswag(dataset):
    prompt_tokens_list, options_tokens_list, labels_list, prompt_lengths, option_lengths = [], [], [], [], []
    for ex in dataset:
        context_tokens, options_tokens, label = ex
        pair_lengths = [len(context_tokens) + len(opt) for opt in options_tokens]
        max_pair_length = max(pair_lengths)
        padded_options_tokens = []
        option_length_list = []
        for opt in options_tokens:
            pair = context_tokens + opt
            padding_length = max_pair_length - len(pair)
            if padding_length > 0:
                pair_padded = pair + [0] * padding_length
            else:
                pair_padded = pair  # No padding needed
            padded_options_tokens.append(pair_padded)
            option_length_list.append(len(opt))
        prompt_tokens_list.append(context_tokens)
        options_tokens_list.append(padded_options_tokens)
        labels_list.append(label)
        prompt_lengths.append(len(context_tokens))
        option_lengths.append(option_length_list)
    return {
        "prompt_tokens": prompt_tokens_list,
        "options_tokens": options_tokens_list,
        "labels": labels_list,
        "prompt_lengths": prompt_lengths,
        "option_lengths": option_lengths,
    }


rng = np.random.default_rng(0)  # scaffolding
examples = []  # scaffolding
for n_ctx, n_opt in [(12, 5), (9, 7), (15, 4), (12, 5), (20, 9), (7, 3)]:  # scaffolding
    ctx = rng.integers(1, 64, n_ctx).tolist()  # scaffolding
    opts = [rng.integers(1, 64, n_opt - k % 2).tolist() for k in range(4)]  # scaffolding
    examples.append((ctx, opts, int(rng.integers(0, 4))))  # scaffolding

hellaswag_dataloader = load_hellaswag_data(process_hellaswag(examples), batch_size=1)
model = GPTModel(CFG, jr.key(21))  # scaffolding
inference_model = eqx.nn.inference_mode(model)
acc = hellaswag(inference_model, hellaswag_dataloader, None, 0)
_report({"jit(hellaswag_step)"}, len(hellaswag_dataloader))  # scaffolding
