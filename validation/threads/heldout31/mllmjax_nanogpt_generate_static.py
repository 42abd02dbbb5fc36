# source: https://github.com/demon2036/MLLM-JAX/commit/cf30ee08f23e0fbff815e5ae978ca249ad0dcee9
# expect: trace-time-error at line 82
# runtime: ERROR ConcretizationTypeError
# why: generate_tokens is a bare @jax.jit although num_tokens is the lax.scan length and top_k feeds a Python if and a slice, so the Python ints become tracers and tracing fails with ConcretizationTypeError.

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
from typing import Any

import jax
import jax.numpy as jnp
import flax.linen as nn


class GPT(nn.Module):  # scaffolding: tiny stand-in for plugins.nano_gpt.model.GPT
    vocab_size: int = 65
    n_embd: int = 32

    @nn.compact
    def __call__(self, idx, deterministic=True):
        x = nn.Embed(self.vocab_size, self.n_embd)(idx)
        x = nn.Dropout(0.1, deterministic=deterministic)(nn.gelu(nn.Dense(self.n_embd)(x)))
        return nn.Dense(self.vocab_size)(x)


def run_nano_gpt(cfg: dict[str, Any]) -> None:  # (trimmed to the sampling path)
    block_size = 32
    model = GPT()
    params0 = model.init({"params": jax.random.PRNGKey(0)}, jnp.zeros((1, block_size), jnp.int32), deterministic=True)["params"]
    sample_tokens = int(cfg.get("sample_tokens") or 40)
    temperature = float(cfg.get("temperature") or 1.0)
    top_k = int(cfg.get("top_k") or 0)
    seed = 1337

    @jax.jit
    def generate_tokens(
        params: Any,
        idx: jnp.ndarray,
        rng_key: jnp.ndarray,
        num_tokens: int,
        temperature: float,
        top_k: int,
    ) -> tuple[jnp.ndarray, jnp.ndarray, jnp.ndarray]:
        def step_fn(carry, _):
            idx, rng_key = carry
            rng_key, sample_key = jax.random.split(rng_key)
            logits = model.apply({"params": params}, idx, deterministic=True)
            logits = logits[:, -1, :].astype(jnp.float32)
            logits = logits / jnp.maximum(1e-6, jnp.asarray(temperature, dtype=jnp.float32))

            if top_k and top_k > 0:
                kth = jnp.sort(logits, axis=-1)[:, -top_k]
                logits = jnp.where(logits < kth[:, None], jnp.full_like(logits, -1e10), logits)

            next_id = jax.random.categorical(sample_key, logits, axis=-1).astype(jnp.int32)
            idx = jnp.concatenate([idx[:, 1:], next_id[:, None]], axis=1)
            return (idx, rng_key), next_id

        (idx, rng_key), out = jax.lax.scan(step_fn, (idx, rng_key), xs=None, length=num_tokens)
        return idx, rng_key, out

    for step in (100, 200, 300):  # scaffolding: the three sample_every points of the training loop
        start_id = 0
        idx = jnp.full((1, block_size), start_id, dtype=jnp.int32)
        gen_rng = jax.random.PRNGKey(seed + step + 999)
        _, _, out = generate_tokens(params0, idx, gen_rng, sample_tokens, temperature, top_k)


try:  # scaffolding
    run_nano_gpt({"sample_tokens": 40, "temperature": 0.8, "top_k": 10})  # scaffolding: config values
    _report({"jit(generate_tokens)"}, 3)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
