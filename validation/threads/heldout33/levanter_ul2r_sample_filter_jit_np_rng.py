# source: https://github.com/stanford-crfm/levanter/commit/cd425667184bd6a09367a201e375361047c23e3b
# expect: trace-time-error at line 98
# runtime: ERROR TracerArrayConversionError
# why: Ul2InstanceGenerator.sample was decorated with eqx.filter_jit in 3da2040a, but it seeds a NumPy generator with np.array(choice_key), which raises TracerArrayConversionError while tracing.

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
# scaffolding: imports the file needs (transformers/draccus/haliax parts trimmed)
from dataclasses import dataclass
from typing import List, Optional

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
from jax.random import PRNGKey


class Ul2Example(eqx.Module):
    inputs: np.ndarray
    outputs: np.ndarray
    task_token: Optional[int]


@dataclass(frozen=True)
class DenoisingConfig:  # scaffolding: stands in for the R/X/S denoiser configs
    task_token: Optional[str]

    def sample(self, key: PRNGKey, tokens, sentinel_token_ids, task_token_id) -> Ul2Example:
        n = tokens.shape[0] // 2
        return Ul2Example(tokens[:n], tokens[n:], task_token_id)


class _Tokenizer:  # scaffolding: stands in for a Hugging Face tokenizer
    def __init__(self):
        self.vocab = {}

    def add_tokens(self, toks, special_tokens=False):
        for t in toks:
            self.vocab.setdefault(t, 1000 + len(self.vocab))

    def convert_tokens_to_ids(self, tok):
        return self.vocab[tok]


class Ul2InstanceGenerator:
    """A generator for Ul2 instances. Class just because there's so much configuration"""

    def __init__(
        self,
        tokenizer,
        sentinel_tokens: List[str],
        task_configs: List[DenoisingConfig],
        task_weights: Optional[List[float]],
    ):
        """Side effect warning: This constructor adds sentinel tokens and task tokens to the tokenizer"""
        self.tokenizer = tokenizer
        self.task_configs = task_configs
        self.task_weights = task_weights

        self.tokenizer.add_tokens(sentinel_tokens, special_tokens=True)
        task_tokens = list(set([config.task_token for config in task_configs if config.task_token is not None]))
        self.tokenizer.add_tokens(task_tokens, special_tokens=True)

        self.sentinel_token_ids = np.array([self.tokenizer.convert_tokens_to_ids(token) for token in sentinel_tokens])

        self.denoiser_task_tokens = [
            self.tokenizer.convert_tokens_to_ids(config.task_token) for config in task_configs
        ]

    @eqx.filter_jit
    def sample(self, tokens: jnp.ndarray, key: PRNGKey) -> Ul2Example:
        """Generate a single Ul2Example from a string"""
        # first decide if we're doing S-denoiser or not
        # gonna be lazy with keys here
        choice_key, key = jax.random.split(key)
        np_rng = np.random.default_rng(np.array(choice_key))

        task_id = np_rng.choice(np.arange(len(self.task_configs)), p=self.task_weights)
        task_config = self.task_configs[task_id]
        task_token_id = self.denoiser_task_tokens[task_id]

        return task_config.sample(key, tokens, self.sentinel_token_ids, task_token_id)


# scaffolding: a generator with two denoisers, sampled the way test_ul2r_gen.py does
gen = Ul2InstanceGenerator(
    _Tokenizer(), [f"<extra_id_{i}>" for i in range(4)], [DenoisingConfig("[NLU]"), DenoisingConfig("[S2S]")], [0.5, 0.5]
)
tokens = jnp.arange(16)
calls = 0
try:  # scaffolding
    for i in range(4):
        ex = gen.sample(tokens, jax.random.PRNGKey(i))
        calls += 1
    _report({"jit(sample)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
