# source: https://github.com/DjDonPablo/jax-transformer/blob/533fec5920a7d5ac2c321eebcb1d6ad6de168182/src/data.py
# expect: shape-churn at line 97
# runtime: COMPILES 5 CALLS 6
# why: pad_truncate_y is jitted but gets each story as a Python list of token ids, a pytree whose length is the story length, so every story of a new length traces and compiles again (5 compiles for 6 stories).
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


# src/config.py, src/tokenizer.py (stand-in), src/data.py of DjDonPablo/jax-transformer @533fec5, inlined
import os  # scaffolding
import tempfile  # scaffolding
from functools import partial
import jax
import jax.numpy as jnp

from typing import List

_TMP = tempfile.mkdtemp()  # scaffolding: stands in for ../data
os.makedirs(f"{_TMP}/batch/X", exist_ok=True)  # scaffolding
os.makedirs(f"{_TMP}/batch/y", exist_ok=True)  # scaffolding


# --- src/config.py (only the fields data.py reads; sizes shrunk) ---
class TransformerConfig:
    def __init__(
        self,
        vocab_size: int = 258,  # scaffolding: 10256 in the repo; a byte-level vocab here
        context_size: int = 16,  # scaffolding: 512 in the repo
        batch_size: int = 4,  # scaffolding: 64 in the repo
        label_smoothing: float = 0.1,
    ) -> None:
        self.vocab_size = vocab_size
        self.context_size = context_size
        self.batch_size = batch_size
        self.label_smoothing = label_smoothing


class Tokenizer:  # scaffolding: stand-in for src/tokenizer.py with no BPE merges learned yet (vocab = 256 bytes + bos + eot)
    def __init__(self, vocab_size_limit: int):  # scaffolding
        self.vocab_size_limit = vocab_size_limit  # scaffolding
        self.vocab = [i for i in range(256)] + [256, 257]  # scaffolding

    def encode(self, s: str) -> List[int]:  # scaffolding: the repo's encode without merges
        s_bytes = list(s.encode("utf-8"))  # scaffolding
        return [self.vocab[-2]] + [self.vocab.index(token) for token in s_bytes] + [self.vocab[-1]]  # scaffolding


# --- src/data.py ---
@partial(jax.jit, static_argnums=[1, 2, 3])
def pad_truncate_y(x: List[int], context_size: int, vocab_size: int, epsilon: float):
    y = jax.nn.one_hot(x[1:], vocab_size)[:context_size]
    y = jnp.where(y, 1 - epsilon, (epsilon / (vocab_size - 1)))  # label smoothing
    y_padded = jnp.concatenate([y, jnp.zeros((context_size - len(y), vocab_size))]).T

    X = jnp.array(x[:context_size] + ([0] * (context_size - len(x))))
    X = jax.nn.one_hot(X, vocab_size)

    return (X, y_padded)


def create_dataset(
    config: TransformerConfig,
    tokenizer: Tokenizer,
    data_path: str,
):
    print("Opening file...")

    with open(data_path) as f:
        batch_x = []
        batch_y = []
        story = ""
        batch_index = 1

        for line in f:
            if line.strip() != "<|endoftext|>":
                story += line.strip()
            else:
                encoded_story = tokenizer.encode(story)
                x, y = pad_truncate_y(
                    encoded_story,
                    config.context_size,
                    tokenizer.vocab_size_limit,
                    config.label_smoothing,
                )

                batch_x.append(x)
                batch_y.append(y)

                if len(batch_x) >= config.batch_size:
                    save_batch(batch_x, batch_y, batch_index)

                    batch_x = []
                    batch_y = []
                    batch_index += 1

                story = ""

        if batch_x:
            save_batch(batch_x, batch_y, batch_index)


def save_batch(batch_x, batch_y, batch_index: int):
    print(f"Saving batch {batch_index}...")
    jnp.save(f"{_TMP}/batch/X/batch_{batch_index}.npy", jnp.array(batch_x))  # scaffolding: ../data -> a temp dir
    jnp.save(f"{_TMP}/batch/y/batch_{batch_index}.npy", jnp.array(batch_y))  # scaffolding: ../data -> a temp dir
    print(f"Saving for batch {batch_index} done !")


_STORIES = ["Tom had a red ball.", "The cat sat on the mat all day.", "Lily saw a bird.",  # scaffolding: TinyStories-like text
            "A big dog ran to the park and played with a stick.", "Sam was sad.", "The sun was hot."]  # scaffolding
_path = f"{_TMP}/stories.txt"  # scaffolding
with open(_path, "w") as _f:  # scaffolding
    for _s in _STORIES:  # scaffolding
        _f.write(_s + "\n<|endoftext|>\n")  # scaffolding
config = TransformerConfig()  # scaffolding
tokenizer = Tokenizer(config.vocab_size)  # scaffolding
create_dataset(config, tokenizer, _path)  # scaffolding
_report({"jit(pad_truncate_y)"}, len(_STORIES))  # scaffolding
