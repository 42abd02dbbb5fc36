# source: https://github.com/ultrons/jax-gpt/commit/a74d9ffda5ef6082ea416a5b7c74d1f3265d7b0a
# expect: jit-in-loop-or-body at line 135
# runtime: COMPILES 6 CALLS 12
# why: generate_completion defines the @jax.jit sampler _get_next_with_temp inside its body, so each HumanEval problem gets a new jitted function and compiles it again (twice per problem: prefill-shaped and decode-shaped logits), 6 compiles for 3 problems instead of 2.
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



# ---- scripts/eval_humaneval.py at the parent of a74d9ff: the jax/numpy imports and generate_completion (model, mesh, checkpoint and HumanEval execution code are cut) ----
import math

import jax
import jax.numpy as jnp
import numpy as np


# ---- scaffolding: stand-ins for the Qwen3.5 model, its cache module and the HF tokenizer ----
import sys, types  # scaffolding
from types import SimpleNamespace  # scaffolding
VOCAB = 64  # scaffolding


def init_cache(config, batch_size, max_len, dtype=jnp.bfloat16):  # scaffolding: jax_gpt.models.qwen35.cache.init_cache stand-in
    return {"k": jnp.zeros((batch_size, max_len, 4), dtype), "len": jnp.zeros((), jnp.int32)}  # scaffolding


for _m in ("jax_gpt", "jax_gpt.models", "jax_gpt.models.qwen35", "jax_gpt.models.qwen35.cache"):  # scaffolding
    sys.modules.setdefault(_m, types.ModuleType(_m))  # scaffolding
sys.modules["jax_gpt.models.qwen35.cache"].init_cache = init_cache  # scaffolding


def fwd_fn(tokens, cache, is_decode):  # scaffolding: the jitted forward of make_forward_fn, stood in eagerly; logits peaked on token 7
    logits = jnp.full((1, tokens.shape[1], VOCAB), -10.0).at[:, :, 7].set(10.0).astype(jnp.bfloat16)  # scaffolding
    return logits, {"k": cache["k"], "len": cache["len"] + tokens.shape[1]}  # scaffolding


class _Tok:  # scaffolding: HF tokenizer stand-in (one id per character)
    eos_token_id = 0  # scaffolding

    def __call__(self, text, return_tensors="np"):  # scaffolding
        return SimpleNamespace(input_ids=np.array([[1 + (ord(c) % 60) for c in text]], dtype=np.int64))  # scaffolding

    def decode(self, ids, skip_special_tokens=True):  # scaffolding
        return "".join(chr(97 + int(i) % 26) for i in ids)  # scaffolding


tok = _Tok()  # scaffolding
cfg = SimpleNamespace(vocab_size=VOCAB)  # scaffolding

def generate_completion(
    fwd_fn,
    tok,
    config,
    prompt: str,
    max_new_tokens: int = 256,
    temperature: float = 0.2,
    fixed_max_len: int | None = None,
    prefill_bucket: int = 128,
) -> str:
    """Generate a completion for `prompt` using greedy / temperature sampling.

    Args:
        fwd_fn: JIT-compiled forward function from make_forward_fn().
        tok: HuggingFace tokenizer.
        config: Qwen35Config.
        prompt: text prompt string.
        max_new_tokens: max tokens to generate.
        temperature: sampling temperature (0 = greedy).
        fixed_max_len: if set, all caches use this length (avoids recompilation
            across problems with different prompt lengths).
        prefill_bucket: round prefill length up to nearest multiple of this value
            to reduce JIT recompilation (right-pad with eos token).

    Returns:
        Generated text (decoded, without the prompt).
    """
    from jax_gpt.models.qwen35.cache import init_cache

    input_ids = tok(prompt, return_tensors='np').input_ids[0]
    T = len(input_ids)

    # Bucket prefill length to limit recompilation across problems.
    # Right-pad with eos so we get the same shape for all prompts in the bucket.
    bucket_T = math.ceil(T / prefill_bucket) * prefill_bucket
    if bucket_T > T:
        pad_id = tok.eos_token_id if tok.eos_token_id is not None else 0
        input_ids = np.concatenate(
            [input_ids, np.full(bucket_T - T, pad_id, dtype=np.int32)])
    tokens = jnp.array(input_ids[None], dtype=jnp.int32)  # (1, bucket_T)

    # Allocate cache. Use a fixed max_len when provided so the cache array
    # shape is identical across all problems → decode step compiles once.
    max_len = fixed_max_len if fixed_max_len is not None else bucket_T + max_new_tokens
    cache = init_cache(config, batch_size=1, max_len=max_len, dtype=jnp.bfloat16)

    # ----- Prefill -----
    logits, cache = fwd_fn(tokens, cache, False)  # (1, bucket_T, vocab)

    # Grab the logit at the last *real* token position (not the padding tail).
    # We need to pass this position through JIT to avoid materializing the
    # full vocab-sharded logits on the host.
    last_real_pos = T - 1

    # ----- Decode loop -----
    generated_ids: list[int] = []
    rng = jax.random.key(0)

    # Sample next token inside JIT so sharded logits (vocab-dim sharded across
    # TP devices) are never materialized on host — avoids "non-addressable
    # device" error in multi-process JAX.
    # Use last_real_pos (not -1) because prefill output may have padding tail.
    if temperature <= 0.0:
        _get_next = jax.jit(
            lambda l, pos: jnp.argmax(l[0, pos, :]).astype(jnp.int32))
    else:
        @jax.jit
        def _get_next_with_temp(l, pos, k):
            rng_new, subkey = jax.random.split(k)
            next_tok = jax.random.categorical(
                subkey, (l[0, pos, :] / temperature).astype(jnp.float32))
            return next_tok.astype(jnp.int32), rng_new

    # Use -1 for decode steps (token_in is always length 1)
    _decode_pos = jnp.array(-1, dtype=jnp.int32)

    for step in range(max_new_tokens):
        pos = jnp.array(last_real_pos, dtype=jnp.int32) if step == 0 else _decode_pos
        if temperature <= 0.0:
            next_id = int(_get_next(logits, pos))
        else:
            next_id_jax, rng = _get_next_with_temp(logits, pos, rng)
            next_id = int(next_id_jax)

        if next_id == tok.eos_token_id:
            break
        generated_ids.append(next_id)

        # Single-token decode step
        token_in = jnp.array([[next_id]], dtype=jnp.int32)  # (1, 1)
        logits, cache = fwd_fn(token_in, cache, True)

    return tok.decode(generated_ids, skip_special_tokens=True)


# ---- scaffolding: the eval loop of main(), three HumanEval-like prompts, --max-new-tokens 4, --temperature 0.2 ----
my_problems = [{"prompt": "def add(a, b):\n"}, {"prompt": "def is_palindrome(s: str) -> bool:\n"}, {"prompt": "def fib(n):\n    return n\n"}]  # scaffolding
max_new_tokens = 4  # scaffolding: args.max_new_tokens
PREFILL_BUCKET = 128  # scaffolding: as in main()
prompt_lens = [len(tok(p['prompt'], return_tensors='np').input_ids[0]) for p in my_problems]  # scaffolding: as in main()
max_prompt_bucketed = math.ceil(max(prompt_lens) / PREFILL_BUCKET) * PREFILL_BUCKET  # scaffolding: as in main()
fixed_max_len = max_prompt_bucketed + max_new_tokens  # scaffolding: as in main()
try:  # scaffolding
    for i, problem in enumerate(my_problems):  # scaffolding: as in main()
        completion = generate_completion(  # scaffolding: as in main()
            fwd_fn, tok, cfg,  # scaffolding
            prompt=problem['prompt'],  # scaffolding
            max_new_tokens=max_new_tokens,  # scaffolding
            temperature=0.2,  # scaffolding
            fixed_max_len=fixed_max_len,  # scaffolding
            prefill_bucket=PREFILL_BUCKET,  # scaffolding
        )  # scaffolding
    _report({"jit(_get_next_with_temp)"}, len(my_problems) * max_new_tokens)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
