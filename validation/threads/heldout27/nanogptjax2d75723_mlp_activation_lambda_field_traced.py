# source: https://github.com/adi-kmt/nanogpt-jax/commit/2d75723e89535fc4ea1667bc07f1b6c1a736f445
# expect: trace-time-error at line 95
# runtime: ERROR TypeError
# why: MLP declares `activation: eqx.field(static=True)` as an annotation (no `=`), so the field is not static; the lambda stored in it is a leaf of the module passed to the jitted forward, and jit raises TypeError for a function argument.
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
# --- config.py (parent commit) ---
from typing import Literal

from pydantic import BaseModel

class GPTConfig(BaseModel):
    activation_type: Literal["relu", "gelu", "relu2", "swish", "swiglu", "swilu"]
    dropout_p: float

    d_model: int

    linear_d_hidden: int

    use_bias: bool
    use_qkNorm: bool
    tie_word_embeddings: bool = True
    use_rotary:bool

    n_heads: int
    d_head: int
    max_seq_len: int
    norm_eps: float


# --- layers.py (parent commit) ---
import equinox as eqx
import jax.numpy as jnp
import jax
from jaxtyping import Array, Float
from jax import random

activations = {
    'relu2': lambda x: jnp.square(jnp.maximum(0, x) ** 2),
    'gelu': lambda x: jnp.array(0.5 * x * (1 + jax.lax.erf(x / jnp.sqrt(2.0)))),
    'silu': lambda x: x * jax.nn.sigmoid(x),  # also called SiLU
    'swish': lambda x: x * jax.nn.sigmoid(x),
    'relu': lambda x: jnp.maximum(0, x),
    'identity': lambda x: x,
}


class Linear(eqx.Module):
    weight: Float[Array, "out_features in_features"]
    bias: Float[Array, "out_features"] | None
    in_features: int = eqx.field(static=True)
    out_features: int = eqx.field(static=True)

    def __init__(self, in_features: int, out_features: int, key: jax.random.PRNGKey, use_bias: bool = True):
        key1, key2 = jax.random.split(key)

        self.in_features = in_features
        self.out_features = out_features

        limit = 1 / jnp.power(in_features, 0.5)
        self.weight = random.uniform(key1, (out_features, in_features), minval=-limit, maxval=limit)

        if use_bias:
            self.bias = random.uniform(shape=(out_features,), key=key2)
        else:
            self.bias = None

    def __call__(self, x: Float[Array, "batch seq_len d_model"]) -> Float[Array, "batch seq_len d_model"]:
        result = jnp.einsum("...i,ji->...j", x, self.weight)
        if self.bias is not None:
            result += self.bias
        return result

class MLP(eqx.Module):
    layer1: Linear
    layer2: Linear
    activation: eqx.field(static=True)
    dropout: eqx.nn.Dropout

    def __init__(self, config: GPTConfig, key: jax.random.PRNGKey):
        key1, key2 = jax.random.split(key)
        self.layer1 = Linear(config.d_model, config.linear_d_hidden, key=key1)
        self.layer2 = Linear(config.linear_d_hidden, config.d_model, key=key2)
        self.activation = activations[config.activation_type]
        self.dropout = eqx.nn.Dropout(config.dropout_p)

    def __call__(self, x: Float[Array, "batch seq_len d_model"], inference: bool, key: jax.random.PRNGKey) -> Float[Array, "batch seq_len d_model"]:
        x = self.dropout(self.activation(self.layer1(x)), key=key, inference=inference)
        return self.layer2(x)


# --- test_layers.py (the commit's TestMLP.test_jit_compilation, run against the parent's MLP) ---
from functools import partial

Batch = 2
SeqLen = 8
DModel = 16
NHeads = 4
DHead = DModel // NHeads


def config():
    return GPTConfig(
        activation_type="gelu",
        dropout_p=0.1,
        d_model=DModel,
        linear_d_hidden=32,
        norm_eps=1e-6,
        use_bias=True,
        use_qkNorm=False,
        tie_word_embeddings=True,
        use_rotary=False,
        max_seq_len=SeqLen,
        n_heads=NHeads,
        d_head=DHead
    )


def key():
    return random.PRNGKey(42)


class TestMLP:
    def test_jit_compilation(self, config, key):
        mlp = MLP(config, key=key)
        x = random.normal(key, (2, 4, config.d_model))
        key1, _ = random.split(key)

        @partial(jax.jit, static_argnames=['inference'])
        def forward(module, x, key, inference):
            return module(x, inference=inference, key=key)

        y = forward(mlp, x, key1, inference=True)
        assert y.shape == (2, 4, config.d_model)
        assert jnp.all(jnp.isfinite(y))


try:  # scaffolding
    TestMLP().test_jit_compilation(config(), key())  # scaffolding: pytest fixtures called by hand
    _report({"jit(forward)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
