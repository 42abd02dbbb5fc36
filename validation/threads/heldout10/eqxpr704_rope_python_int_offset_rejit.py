# source: https://github.com/patrick-kidger/equinox/pull/704
# expect: changing-static at line 47
# runtime: COMPILES 3 CALLS 3
# why: rope is filter_jit-ed and takes the KV-cache position as a Python int offset; eqx.filter_jit treats non-array arguments as static, so every new offset (one per generated token) retraces and recompiles, as the PR author observed ("rope(x, offset=0) # JIT / rope(x, offset=1) # Another JIT").

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


def precompute_freqs(embedding_size, end, theta=10_000.0):  # scaffolding: as in eqx.nn.RotaryPositionalEmbedding
    freqs = 1.0 / (theta ** (jnp.arange(0.0, embedding_size, 2)[jnp.newaxis, :] / embedding_size))
    t = jnp.arange(float(end))
    freqs_outer = jnp.outer(t, freqs)
    return jnp.cos(freqs_outer), jnp.sin(freqs_outer)


def rotate_half(x):  # scaffolding: as in eqx.nn.RotaryPositionalEmbedding
    d_2 = x.shape[-1] // 2
    return jnp.concatenate([-x[..., d_2:], x[..., :d_2]], axis=-1)


@eqx.filter_jit
def rope(x, freqs_cos, freqs_sin, offset: int):
    seq_len, _ = x.shape
    cos = freqs_cos[offset : offset + seq_len]
    sin = freqs_sin[offset : offset + seq_len]
    cos = jnp.concatenate([cos, cos], axis=-1)
    sin = jnp.concatenate([sin, sin], axis=-1)
    return x * cos + rotate_half(x) * sin


freqs_cos, freqs_sin = precompute_freqs(4, 8)  # scaffolding: max_seq_len 8
x = jnp.ones((2, 4))  # scaffolding: seq_len 2
rope(x, freqs_cos, freqs_sin, offset=0) # JIT
rope(x, freqs_cos, freqs_sin, offset=1) # Another JIT
rope(x, freqs_cos, freqs_sin, offset=2)  # scaffolding: next token
_report({"jit(rope)"}, 3)  # scaffolding
