# source: https://github.com/sdbuch/jax-tuts/blob/main/tf/train.py
# expect: shape-churn at line 122
# runtime: COMPILES 8 CALLS 8
# why: generate_sequence grows the token sequence with jnp.append before every call of the jitted sample_next_token, so each new token is a new input length and a new compile (8 compiles / 8 calls).
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
import dataclasses  # scaffolding: imports of tf/train.py and tf/model.py
from functools import partial  # scaffolding
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
from jaxtyping import Array, Float, Int  # scaffolding

# --- from tf/model.py (as written) ---  # scaffolding
@dataclasses.dataclass(frozen=True)
class ModelConfig:
    vocab_size: int = 2  # Binary sequences
    d_model: int = 96
    d_attn: int = 12
    d_mlp: int = 256
    n_layers: int = 4



def unpack_params(params):
    return (
        params["WE"],
        params["WQ"],
        params["WK"],
        params["WV"],
        params["WO"],
        params["W1"],
        params["W2"],
        params["W3"],
    )



def tf(d_attn, WE, WQ, WK, WV, WO, W1, W2, W3, X):  # scaffolding: stand-in for tf/model.py's transformer (needs einops, not installed); same signature, (T,) tokens -> (T, k) logits
    return WE[X] @ WE.T  # scaffolding


meta_tf = None  # scaffolding: tf/meta_model.py, unused when metamodel_config is None

# --- tf/train.py (as written) ---  # scaffolding
@partial(jax.jit, static_argnames=["model_config", "temperature", "metamodel_config"])
def sample_next_token(
    key: jax.dtypes.prng_key,
    params: dict,
    sequence: Int[Array, "T"],
    model_config: ModelConfig,
    temperature: float = 1.0,
    metamodel_config=None,
) -> int:
    """Sample the next token given a sequence."""
    # Get logits from model
    if metamodel_config:
        model = partial(
            meta_tf,
            model_config.d_attn,
            *unpack_params(params),
            metamodel_config,
        )
        inputs, targets = sequence[:-1], sequence[1:]
        inference_token = sequence[-1][jnp.newaxis]
        logits = model(inputs, targets, inference=True, inference_token=inference_token)
    else:
        model = partial(
            tf,
            model_config.d_attn,
            *unpack_params(params),
        )
        logits = model(sequence)

    # Get final token logits and apply temperature
    final_logits = logits[-1] / temperature

    # Sample from the distribution
    return jax.random.categorical(key, final_logits)


def generate_sequence(
    key: jax.dtypes.prng_key,
    params: dict,
    model_config: ModelConfig,
    prompt: str,
    max_new_tokens: int,
    temperature: float = 1.0,
    metamodel_config=None,
) -> str:
    """Generate a sequence given a prompt."""
    # Convert prompt to sequence of tokens
    sequence = jnp.array([int(x) for x in prompt])

    # Generate tokens one at a time
    for _ in range(max_new_tokens):
        next_token = sample_next_token(
            key,
            params,
            sequence,
            model_config,
            temperature,
            metamodel_config=metamodel_config,
        )
        sequence = jnp.append(sequence, next_token)

    # Convert back to string
    return "".join(str(int(x)) for x in sequence)


model_config = ModelConfig()  # scaffolding
params = {k: jnp.zeros((1,)) for k in ["WQ", "WK", "WV", "WO", "W1", "W2", "W3"]}  # scaffolding: only WE is used by the stand-in
params["WE"] = jax.random.normal(jax.random.key(0), (model_config.vocab_size, model_config.d_model))  # scaffolding
print(generate_sequence(jax.random.key(1), params, model_config, "0011", max_new_tokens=8))  # scaffolding
_report({"jit(sample_next_token)"}, 8)  # scaffolding
