# source: https://github.com/KoboldAI/KoboldAI-Client/blob/ff9058896ebc7dd71781b022fe994a37de652aa4/tpu_mtj_backend.py
# expect: trace-time-error at line 49
# runtime: ERROR TracerBoolConversionError
# why: The source's comment says 'Not a typo; do not use `and` here, it makes JAX crash': with Python `and` the traced comparison (rpslope != 0.0) is converted to bool while tracing and raises TracerBoolConversionError.

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
from typing import Optional

import jax
import jax.numpy as jnp
import numpy as np

def apply_repetition_penalty_static(logits, tokens, repetition_penalty, generated_index, gen_length, rpslope, rprange):
    '''
    This gets called by generate_loop_fn to apply repetition penalty
    to the 1D array logits using the provided 1D array of tokens to penalize
    '''
    rpslope = jnp.int32(rpslope)
    rprange = jnp.int32(rprange)
    clipped_rprange = jax.lax.cond(rprange > 0, lambda x: x, lambda x: tokens.shape[-1], rprange)
    penalty_arange = jnp.roll(jnp.arange(tokens.shape[-1]) + (clipped_rprange - tokens.shape[-1]), generated_index, axis=-1)
    penalty_logits = jnp.take(logits, tokens)
    def apply_slope(carry):
        repetition_penalty, rprange = carry
        _penalty = (penalty_arange/(rprange - 1)) * 2 - 1
        _penalty = (rpslope * _penalty) / (1 + jnp.abs(_penalty) * (rpslope - 1))
        _penalty = 1 + ((_penalty + 1) / 2) * (repetition_penalty - 1)
        return _penalty
    repetition_penalty = jax.lax.cond(
        (rpslope != 0.0) and (rprange > 0),  # the form the source's comment warns against (`and` instead of `&`)
        apply_slope,
        lambda carry: jnp.full(tokens.shape, carry[0]),
        (repetition_penalty, rprange),
    )
    penalty_logits = jnp.where(
        penalty_arange >= 0,
        jnp.where(
            penalty_logits > 0,
            penalty_logits/repetition_penalty,
            penalty_logits*repetition_penalty,
        ),
        penalty_logits,
    )
    return logits.at[tokens].set(penalty_logits)

def kobold_sample_static(key, logits, rpargs, sampler_order: Optional[np.ndarray] = None, top_p=0.9, temp=0.5, top_k=0, tfs=1.0, typical=1.0, top_a=0.0):
    '''
    This gets called by generate_loop_fn to apply a series of 6 filters
    to the logits (top-k, then top-a, then top-p, then TFS, then typical, then temperature)
    before picking one token using the modified logits
    '''
    def top_k_filter(logits):
        sorted_indices_to_remove = jnp.arange(len(logits)) >= top_k
        _, indices_to_remove = jax.lax.sort_key_val(
            jnp.argsort(-logits),
            sorted_indices_to_remove,
        )
        return jnp.where(indices_to_remove, -jnp.inf, logits)
    def top_a_filter(logits):
        probabilities = jax.nn.softmax(logits)
        probs_max = probabilities.max()
        return jnp.where(probabilities < probs_max * probs_max * top_a, -jnp.inf, logits)
    def top_p_filter(logits):
        sorted_logits = -jnp.sort(-logits)
        probabilities = jax.nn.softmax(sorted_logits)
        cumulative_probabilities = jnp.cumsum(probabilities, axis=-1)
        sorted_indices_to_remove = cumulative_probabilities > top_p
        sorted_indices_to_remove = sorted_indices_to_remove.at[0].set(False)
        _, indices_to_remove = jax.lax.sort_key_val(
            jnp.argsort(-logits),
            sorted_indices_to_remove,
        )
        return jnp.where(indices_to_remove, -jnp.inf, logits)
    def tail_free_filter(logits):
        sorted_logits = -jnp.sort(-logits)
        probabilities = jax.nn.softmax(sorted_logits)
        d2 = jnp.diff(jnp.diff(probabilities))
        d2 = jnp.abs(d2)
        d2 = d2 / d2.sum(axis=-1, keepdims=True)
        cumulative_d2 = jnp.cumsum(d2, axis=-1)
        sorted_indices_to_remove = cumulative_d2 > tfs
        sorted_indices_to_remove = sorted_indices_to_remove.at[0].set(False)
        sorted_indices_to_remove = jnp.pad(
            sorted_indices_to_remove,
            (0, 2),
            constant_values=True,
        )
        _, indices_to_remove = jax.lax.sort_key_val(
            jnp.argsort(-logits),
            sorted_indices_to_remove,
        )
        return jnp.where(indices_to_remove, -jnp.inf, logits)
    def typical_filter(logits):
        probs = jax.nn.softmax(logits)
        log_probs = jnp.log(probs)
        neg_entropy = jnp.nansum(probs * log_probs, axis=-1, keepdims=True)
        entropy_deviation = jnp.abs(neg_entropy - log_probs)
        _, sorted_logits = jax.lax.sort_key_val(entropy_deviation, probs)
        sorted_indices_to_remove = jnp.cumsum(sorted_logits, axis=-1) >= typical
        sorted_indices_to_remove = jnp.roll(sorted_indices_to_remove, 1, axis=-1)
        sorted_indices_to_remove = sorted_indices_to_remove.at[0].set(False)
        _, indices_to_remove = jax.lax.sort_key_val(
            jnp.argsort(entropy_deviation),
            sorted_indices_to_remove,
        )
        return jnp.where(indices_to_remove, -jnp.inf, logits)
    def temp_filter(logits):
        return logits / temp
    for k in sampler_order:
        logits = jax.lax.cond(jnp.logical_and(k == 0, top_k > 0), top_k_filter, lambda x: x, logits)
        logits = jax.lax.cond(jnp.logical_and(k == 1, top_a > 0.0), top_a_filter, lambda x: x, logits)
        logits = jax.lax.cond(jnp.logical_and(k == 2, top_p < 1.0), top_p_filter, lambda x: x, logits)
        logits = jax.lax.cond(jnp.logical_and(k == 3, tfs < 1.0), tail_free_filter, lambda x: x, logits)
        logits = jax.lax.cond(jnp.logical_and(k == 4, typical < 1.0), typical_filter, lambda x: x, logits)
        logits = jax.lax.cond(jnp.logical_and(k == 5, temp != 1.0), temp_filter, lambda x: x, logits)
        logits = jax.lax.cond(jnp.logical_and(k == 6, rpargs[1] != 1.0), apply_repetition_penalty_static, lambda x, *_: x, logits, *rpargs)
    return jax.random.categorical(key, logits, -1).astype(jnp.uint32)

pad_token_id = 50256


# scaffolding: in KoboldAI this runs inside the xmapped generate_static loop; here a jitted stand-in
@jax.jit
def sample_step(key, logits, rpargs, sampler_options):
    return kobold_sample_static(key, logits, rpargs, **sampler_options)


calls = 0
key = jax.random.PRNGKey(0)
logits = jnp.linspace(-2.0, 2.0, 128)
tokens = jnp.arange(16, dtype=jnp.uint32)
for sampler_order, top_k, top_p, temp, rp in [([6, 0, 1, 2, 3, 4, 5], 0, 0.9, 0.5, 1.0),
                                               ([6, 5, 4, 3, 2, 1, 0], 40, 1.0, 1.0, 1.2),
                                               ([0, 1, 2, 3, 4, 5, 6], 10, 0.5, 0.7, 1.1),
                                               ([6, 0, 1, 2, 3, 4, 5], 0, 0.95, 2.0, 1.0)]:
    sampler_options = {  # scaffolding: one batch element of infer_static's batched_generator_params
        "sampler_order": np.uint32(sampler_order),
        "temp": np.float32(temp),
        "top_p": np.float32(top_p),
        "tfs": np.float32(1.0),
        "typical": np.float32(1.0),
        "top_a": np.float32(0.0),
        "top_k": np.uint32(top_k),
    }
    rpargs = (tokens, np.float32(rp), np.uint32(3), np.uint32(16), np.float32(0.0), np.uint32(0))
    key, sub = jax.random.split(key)
    try:  # scaffolding
        sample_step(sub, logits, rpargs, sampler_options).block_until_ready()
    except Exception as e:  # scaffolding
        print(f"ERROR {type(e).__name__}")  # scaffolding
        break  # scaffolding
    calls += 1
