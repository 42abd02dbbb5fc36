# source: https://github.com/eightmm/FoldJAX/commit/97e23b19f09d9b682169316064865c66663ca238
# expect: trace-time-error at line 68
# runtime: ERROR ConcretizationTypeError
# why: predict() reads the chain count with int(features['asym_id'].max()), a host read of a traced value, so jitting the forward fails while tracing.

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
# scaffolding: FoldJAX's ESMFold2 port cannot run here (weights, 48 trunk layers); the trunk is a
# small stand-in, kept are predict()'s host read of the chain count and the confidence head's use of it.
import dataclasses
from typing import Mapping

import jax
import jax.numpy as jnp
import numpy as np

EPS = 1e-8


@dataclasses.dataclass(frozen=True)
class ModelSettings:  # scaffolding
    confidence_n_layers: int = 1
    num_samples: int = 1


def confidence_head(tm_expected, *, token_mask, asym_id, n_chains):  # scaffolding: trimmed to the per-chain ipTM
    mask = token_mask
    chains = jax.nn.one_hot(asym_id, n_chains, dtype=jnp.float32) * mask[..., None]
    chains = jnp.swapaxes(chains, 1, 2)
    numerator = jnp.einsum("bij,bci,bdj->bcd", tm_expected, chains, chains)
    denominator = jnp.einsum("bci,bdj->bcd", chains, chains) + EPS
    pair_chains_iptm = numerator / denominator
    return {"pair_chains_iptm": pair_chains_iptm}


def predict(
    key: jnp.ndarray,
    features: Mapping[str, jnp.ndarray],
    params: Mapping[str, jnp.ndarray],
    *,
    settings: ModelSettings,
) -> dict[str, jnp.ndarray]:
    token_mask = features["token_attention_mask"]
    z = jnp.einsum("bi,bj->bij", token_mask, token_mask) * params["w"]  # scaffolding: stand-in trunk
    tm_expected = jax.nn.sigmoid(z + jax.random.normal(key, z.shape))  # scaffolding

    n_chains = int(features["asym_id"].max()) + 1
    output = {
        "residue_index": features["residue_index"],
    }
    output.update(
        confidence_head(
            tm_expected,
            token_mask=token_mask,
            asym_id=features["asym_id"],
            n_chains=n_chains,
        )
    )
    return output


features = {  # scaffolding: two chains of 6 and 4 tokens
    "asym_id": jnp.asarray([[0] * 6 + [1] * 4]),
    "residue_index": jnp.arange(10)[None],
    "token_attention_mask": jnp.ones((1, 10)),
}
params = {"w": jnp.float32(0.5)}  # scaffolding
settings = ModelSettings()  # scaffolding
try:  # scaffolding
    out = jax.jit(predict, static_argnames=("settings",))(jax.random.key(0), features, params, settings=settings)
    _report({"jit(predict)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
