# source: https://github.com/vwxyzjn/lm-human-preference-details/pull/18
# expect: trace-time-error at line 32
# runtime: ERROR TypeError
# why: The original numpy/list-comprehension right_padding_to_left_padding is called inside the pmapped p_rollout, so [pad_id] * (row == pad_id).sum() multiplies a list by a traced count and raises TypeError (the PR: the naive ways are not jittable).
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
import jax
import jax.numpy as jnp
import numpy as np


def right_padding_to_left_padding(tokens, pad_id):
    # Convert from right padding to left padding.
    return np.array([[pad_id] * (row == pad_id).sum() + [x for x in row if x != pad_id] for row in tokens])


class Tokenizer:  # scaffolding
    pad_token_id = 50259  # scaffolding


tokenizer = Tokenizer()  # scaffolding
query_length, response_length, truncate_token, truncate_after = 6, 4, 13, 2  # scaffolding: args.task values cut down


def policy_generate(params, queries):  # scaffolding: stands in for the GPT-2 sampler (appends fixed tokens)
    return jnp.concatenate([queries, jnp.tile(jnp.array([[7, 13, 9, 11]]), (queries.shape[0], 1))], axis=1)  # scaffolding


@jax.pmap
def p_rollout(policy_state, input_ids):
    queries = right_padding_to_left_padding(input_ids, tokenizer.pad_token_id)

    query_responses = policy_generate(
        params=policy_state,
        queries=queries,
    )
    responses = query_responses[:, query_length :]
    truncate_token_mask = responses == truncate_token
    truncate_after_or_token_mask = jnp.concatenate(
        [
            jnp.zeros_like(truncate_token_mask)[:, : truncate_after],
            truncate_token_mask[:, truncate_after :],
        ],
        axis=1,
    )
    truncate_mask = (jnp.cumsum(truncate_after_or_token_mask, axis=1) - truncate_after_or_token_mask).astype("bool")
    postprocessed_responses = jnp.where(
        truncate_mask,
        jnp.full_like(responses, tokenizer.pad_token_id),
        responses,
    )
    postprocessed_query_responses = jnp.concatenate((queries, postprocessed_responses), axis=1)
    postprocessed_query_responses = right_padding_to_left_padding(postprocessed_query_responses, tokenizer.pad_token_id)
    return postprocessed_query_responses  # scaffolding: the reward model and logprobs are left out


P = tokenizer.pad_token_id  # scaffolding
try:  # scaffolding
    for it in range(2):  # scaffolding: two PPO updates, one local device
        input_ids = np.array([[[5, 6, 8, P, P, P], [3, 4, P, P, P, P]]]) + it  # scaffolding: right-padded queries
        input_ids[input_ids == P + it] = P  # scaffolding
        out = p_rollout(jnp.zeros((1,)), input_ids)
    print(out[0])  # scaffolding
    print(sorted(set(_COMPILED)))  # scaffolding
    _report({"pmap(p_rollout)", "jit(p_rollout)", "jit(_fun)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
