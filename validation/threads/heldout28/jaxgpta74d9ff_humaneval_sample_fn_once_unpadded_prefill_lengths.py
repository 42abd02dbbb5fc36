# source: https://github.com/ultrons/jax-gpt/commit/a74d9ffda5ef6082ea416a5b7c74d1f3265d7b0a
# expect: shape-churn at line 243
# runtime: COMPILES 4 CALLS 13
# why: the commit builds the sampler once (make_sample_fn) but also drops prefill bucketing, so the first sample_fn call of each problem gets prefill logits of that prompt's length (1, T, V): 1 warm-up compile plus one per distinct prompt length, 4 compiles for 3 problems.
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



# ---- scripts/eval_humaneval.py at a74d9ff: the jax/numpy imports, _extract_function_body, make_sample_fn and generate_completion (model, mesh, checkpoint and HumanEval execution code are cut) ----
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

    def apply_chat_template(self, chat, tokenize=False, add_generation_prompt=True):  # scaffolding: Qwen chat template shape
        return "<|im_start|>user\n" + chat[0]["content"] + "<|im_end|>\n<|im_start|>assistant\n<think>\n"  # scaffolding

    def convert_tokens_to_ids(self, token):  # scaffolding: special tokens outside the stand-in vocabulary
        return {"<|endoftext|>": 61, "<|im_end|>": 62, "</think>": 63}.get(token)  # scaffolding


tok = _Tok()  # scaffolding
cfg = SimpleNamespace(vocab_size=VOCAB)  # scaffolding

def _extract_function_body(text: str) -> str:
    """Extract Python function body from model output.

    Handles:
    - Qwen3 thinking blocks (<think>...</think>) — strip, take content after
    - Markdown code blocks (```python ... ```)
    - Thinking preamble (text before first indented line)
    - Repeated function signature (model re-states 'def ...')
    """
    # 0. Strip Qwen3 thinking block if present — take everything after </think>
    if '</think>' in text:
        text = text[text.find('</think>') + len('</think>'):].strip()

    # 1. Prefer content inside a markdown python code block
    if '```python' in text:
        start = text.find('```python') + 9
        end = text.find('```', start)
        text = text[start:end].strip() if end > start else text[start:].strip()
    elif '```' in text:
        start = text.find('```') + 3
        end = text.find('```', start)
        text = text[start:end].strip() if end > start else text[start:].strip()

    # 2. Strip any repeated 'def ...' signature the model may have emitted
    lines = text.split('\n')
    body_lines = []
    skip_def = False
    for line in lines:
        stripped = line.lstrip()
        if stripped.startswith('def ') and not body_lines:
            skip_def = True
            continue
        if skip_def and stripped.startswith('"""'):
            # Skip repeated docstring too
            in_doc = True
            while lines:
                l = lines.pop(0) if lines else ''
                if l.lstrip().endswith('"""') and in_doc and l.lstrip() != '"""':
                    break
                if l.count('"""') >= 2:
                    break
            skip_def = False
            continue
        skip_def = False
        body_lines.append(line)

    text = '\n'.join(body_lines)

    # 3. Drop leading non-code prose: find first indented line
    lines = text.split('\n')
    start_idx = 0
    for i, line in enumerate(lines):
        if line.startswith('    ') or line.startswith('\t'):
            start_idx = i
            break

    return '\n'.join(lines[start_idx:])




def make_sample_fn(temperature: float):
    """Return a JIT-compiled sampling function, defined once at startup.

    Defining @jax.jit inside generate_completion creates a new JIT object per
    call → recompilation on every problem. Defining it here and passing it in
    as sample_fn ensures the kernel is compiled once and reused.

    Logits are fully replicated P(None,None,None) — guaranteed by the
    with_sharding_constraint AllGather in model.py's output_head.
    """
    @jax.jit
    def _get_next(l, k):
        logit = l[0, -1, :].astype(jnp.float32)
        rng_new, subkey = jax.random.split(k)
        if temperature <= 0.0:
            next_tok = jnp.argmax(logit).astype(jnp.int32)
        else:
            next_tok = jax.random.categorical(
                subkey, logit / temperature).astype(jnp.int32)
        return next_tok, rng_new
    return _get_next




def generate_completion(
    fwd_fn,
    tok,
    config,
    prompt: str,
    sample_fn,
    max_new_tokens: int = 256,
    temperature: float = 0.2,
    fixed_max_len: int | None = None,
) -> str:
    """Generate a completion for `prompt` using greedy / temperature sampling.

    Args:
        fwd_fn: JIT-compiled forward function from make_forward_fn().
        tok: HuggingFace tokenizer.
        config: Qwen35Config.
        prompt: text prompt string.
        sample_fn: pre-compiled JIT from make_sample_fn() — passed in to avoid
            recompilation on every problem.
        max_new_tokens: max tokens to generate.
        temperature: sampling temperature (0 = greedy).
        fixed_max_len: if set, all caches use this length so the decode JIT
            compiles once regardless of prompt length variation.

    Returns:
        Generated text (decoded, without the prompt).
    """
    from jax_gpt.models.qwen35.cache import init_cache

    # Qwen3.5 is chat-tuned — wrap raw HumanEval prompt with chat template.
    # We do NOT force thinking mode: strip the trailing '<think>\n' that
    # add_generation_prompt=True appends, so the model sees a plain
    # '<|im_start|>assistant\n' prefix and generates freely.
    # (With thinking mode forced: model consistently generates <|im_end|> immediately.)
    rank = jax.process_index()
    chat = [{'role': 'user', 'content':
             'Complete the following Python function. '
             'Output ONLY the indented function body, no explanation, no markdown:\n\n'
             + prompt}]
    formatted = tok.apply_chat_template(
        chat, tokenize=False, add_generation_prompt=True)
    # Strip the <think>\n (or <think>) suffix added by the Qwen3 template.
    for _think_sfx in ('<think>\n', '<think>'):
        if formatted.endswith(_think_sfx):
            formatted = formatted[:-len(_think_sfx)]
            break
    input_ids = tok(formatted, return_tensors='np').input_ids[0]
    T = len(input_ids)
    # One-time debug: print last 200 chars of formatted prompt to confirm template
    if not hasattr(tok, '_debug_template_printed'):
        tok._debug_template_printed = True
        print(f"[DEBUG template tail] {repr(formatted[-200:])}", flush=True)

    # Stop tokens — use tokenizer to get correct IDs (extended vocab: 248044/248046)
    _stop_ids = {tok.eos_token_id,
                 tok.convert_tokens_to_ids('<|endoftext|>'),
                 tok.convert_tokens_to_ids('<|im_end|>')} - {None}

    # No right-padding — use exact prompt length to avoid EOS tokens polluting
    # the KV cache (right-padding with EOS causes model to predict EOS immediately
    # in decode since it attends back to the padded positions).
    # Per-length recompilation is handled by the GCS compilation cache.
    tokens = jnp.array(input_ids[None], dtype=jnp.int32)  # (1, T)

    # Allocate cache. Use a fixed max_len so the cache array shape is identical
    # across all problems → decode step compiles once regardless of prompt length.
    max_len = fixed_max_len if fixed_max_len is not None else T + max_new_tokens
    cache = init_cache(config, batch_size=1, max_len=max_len, dtype=jnp.bfloat16)

    # ----- Prefill -----
    logits, cache = fwd_fn(tokens, cache, False)  # (1, T, vocab)

    # ----- Decode loop -----
    generated_ids: list[int] = []
    rng = jax.random.key(0)

    # _get_next is passed in as a pre-compiled JIT to avoid recompilation
    # on every call to generate_completion (defining @jax.jit inside a
    # function creates a new JIT object per call → recompile each problem).

    for step in range(max_new_tokens):
        # All ranks must call the same JIT in lockstep (TP collective ops).
        next_id_jax, rng = sample_fn(logits, rng)
        next_id = int(next_id_jax)

        # All ranks print their first token to verify cross-rank agreement.
        if step == 0:
            print(f"  [DEBUG rank{rank} tok0] id={next_id} "
                  f"'{tok.decode([next_id])}'", flush=True)

        if next_id in _stop_ids:
            if not generated_ids:  # stopped on very first token
                print(f"  [DEBUG stop] first token is stop token id={next_id} "
                      f"'{tok.decode([next_id])}'", flush=True)
            break
        generated_ids.append(next_id)

        # Single-token decode step
        token_in = jnp.array([[next_id]], dtype=jnp.int32)  # (1, 1)
        logits, cache = fwd_fn(token_in, cache, True)

    raw = tok.decode(generated_ids, skip_special_tokens=False)  # keep special tokens for debug
    # </think> is token 151668 — a special token stripped by skip_special_tokens=True.
    # Find split point in token IDs directly, decode only the post-think suffix.
    _THINK_CLOSE_ID = tok.convert_tokens_to_ids('</think>')  # 248069 for Qwen3.5-397B
    if _THINK_CLOSE_ID in generated_ids:
        suffix_ids = generated_ids[generated_ids.index(_THINK_CLOSE_ID) + 1:]
        decoded_for_extraction = tok.decode(suffix_ids, skip_special_tokens=True)
    else:
        decoded_for_extraction = tok.decode(generated_ids, skip_special_tokens=True)
    # Warn if we hit the token limit before closing thinking
    hit_limit = len(generated_ids) == max_new_tokens
    if hit_limit and _THINK_CLOSE_ID not in generated_ids:
        print(f"  [WARN] hit max_new_tokens={max_new_tokens} without </think> — "
              f"thinking overflowed; increase --max-new-tokens", flush=True)
    return _extract_function_body(decoded_for_extraction), raw, generated_ids


# ---- scaffolding: main()'s setup and eval loop, three HumanEval-like prompts of different lengths, --max-new-tokens 4, --temperature 0.2 ----
rank = 0  # scaffolding
my_problems = [{"prompt": "def add(a, b):\n"}, {"prompt": "def is_palindrome(s: str) -> bool:\n"}, {"prompt": "def fib(n):\n    return n\n"}]  # scaffolding
max_new_tokens = 4  # scaffolding: args.max_new_tokens


def _fmt_len(p):  # scaffolding: as in main()
    chat = [{'role': 'user', 'content': 'Complete the following Python function. Output only the function body (the indented code), no explanation:\n\n' + p['prompt']}]  # scaffolding: as in main()
    fmt = tok.apply_chat_template(chat, tokenize=False, add_generation_prompt=True)  # scaffolding: as in main()
    return len(tok(fmt, return_tensors='np').input_ids[0])  # scaffolding: as in main()


fixed_max_len = max(_fmt_len(p) for p in my_problems) + max_new_tokens  # scaffolding: as in main()
sample_fn = make_sample_fn(0.2)  # scaffolding: as in main(), args.temperature
_dummy_logits = jnp.zeros((1, 1, cfg.vocab_size), dtype=jnp.bfloat16)  # scaffolding: main()'s warm-up
_, _ = sample_fn(_dummy_logits, jax.random.key(0))  # scaffolding: main()'s warm-up
try:  # scaffolding
    for i, problem in enumerate(my_problems):  # scaffolding: as in main()
        completion, raw_text, token_ids = generate_completion(  # scaffolding: as in main()
            fwd_fn, tok, cfg,  # scaffolding
            prompt=problem['prompt'],  # scaffolding
            sample_fn=sample_fn,  # scaffolding
            max_new_tokens=max_new_tokens,  # scaffolding
            temperature=0.2,  # scaffolding
            fixed_max_len=fixed_max_len,  # scaffolding
        )  # scaffolding
    _report({"jit(_get_next)"}, 1 + len(my_problems) * max_new_tokens)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
