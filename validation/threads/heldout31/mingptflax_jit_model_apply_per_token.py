# source: https://github.com/brentyi/minGPT-flax/blob/7927b564e04b929e4df219a9334d86de9486dfb0/eval_char.py
# expect: jit-in-loop-or-body at line 92
# runtime: COMPILES 5 CALLS 5
# why: sample() wraps `jax.jit(train_state.model.apply, ...)` inside the per-token loop; every attribute access makes a new bound method, so each generated token re-traces and recompiles the model even though the padded input shape never changes.

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
import dataclasses
from typing import Dict, Tuple, cast

import jax
import numpy as onp
from flax import linen as nn
from jax import numpy as jnp
from tqdm.auto import tqdm


@dataclasses.dataclass(frozen=True)
class GPTConfig:  # scaffolding: the fields sample() reads
    vocab_size: int
    block_size: int


class GPT(nn.Module):  # scaffolding: stand-in for mingpt.model.GPT
    config: GPTConfig

    @nn.compact
    def __call__(self, idx, deterministic: bool):
        x = nn.Embed(self.config.vocab_size, 16)(idx)
        return nn.Dense(self.config.vocab_size)(x)


@dataclasses.dataclass
class TrainState:  # scaffolding: stand-in for mingpt.trainer.TrainState
    model: GPT
    params: dict



def sample(
    train_state: "trainer.TrainState",  # (annotation quoted: mingpt.trainer is not imported)
    initial_conditioner: onp.ndarray,
    steps: int,
    prng_key: jax.Array,
    temperature: float = 1.0,
    sample_from_top_k: int = 1,
) -> onp.ndarray:
    """Sample from GPT model. Conditioner input and output are both integer indices."""

    block_size: int = train_state.model.config.block_size
    vocab_size: int = train_state.model.config.vocab_size

    assert (
        len(initial_conditioner.shape) == 1 and initial_conditioner.dtype == onp.int32
    )
    conditioner_length = initial_conditioner.shape[0]

    out = onp.zeros(conditioner_length + steps, dtype=onp.int32)
    out[:conditioner_length] = initial_conditioner

    for i in tqdm(range(conditioner_length, conditioner_length + steps)):
        padded_conditioner = onp.zeros((1, block_size), dtype=onp.int32)

        if i <= block_size:
            padded_conditioner[0, :i] = out[:i]
            predicted_token_idx = i - 1
        else:
            padded_conditioner[0, :] = out[i - block_size : i]
            predicted_token_idx = -1

        logits = jax.jit(train_state.model.apply, static_argnames=("deterministic",))(
            train_state.params,
            cast(jnp.ndarray, padded_conditioner),
            deterministic=True,
        )

        assert logits.shape == (1, block_size, vocab_size)
        logits_onp = onp.array(logits[0, predicted_token_idx, :]) / temperature
        not_top_k_indices = onp.argpartition(logits_onp, -sample_from_top_k)[
            :-sample_from_top_k
        ]
        logits_onp[not_top_k_indices] = -onp.inf

        out[i], prng_key = sample_from_logits(
            cast(jnp.ndarray, logits_onp), prng_key=prng_key
        )

    return out


@jax.jit
def sample_from_logits(
    logits: jnp.ndarray, prng_key: jax.Array
) -> Tuple[jnp.ndarray, jax.Array]:
    """Helper for categorical sampling + propagating PRNG keys."""

    assert len(logits.shape) == 1
    key0, key1 = jax.random.split(prng_key)
    return jax.random.categorical(key0, logits), key1



model = GPT(GPTConfig(vocab_size=20, block_size=8))  # scaffolding
params = model.init(jax.random.PRNGKey(0), jnp.zeros((1, 8), jnp.int32), deterministic=True)
train_state = TrainState(model=model, params=params)
steps = 5
out = sample(
    train_state,
    initial_conditioner=onp.array([1, 2, 3], dtype=onp.int32),
    steps=steps,
    prng_key=jax.random.PRNGKey(0),
    sample_from_top_k=3,
)
_report({"jit(apply)"}, steps)
