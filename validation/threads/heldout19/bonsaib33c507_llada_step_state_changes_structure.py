# source: https://github.com/jax-ml/bonsai/commit/b33c50713a0a080b8e890ee60591a24b84508acf
# expect: shape-churn at line 245
# runtime: COMPILES 2 CALLS 5
# why: After the commit nothing is donated, but modeling.forward returns the state as a flat list of leaves while the loop starts from the nnx.State, so the second loop step passes a differently structured state and _do_step compiles a second time.
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

import math
import os
import time
from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from flax import nnx
from jax import lax


class modeling:  # scaffolding: namespace for the bonsai/models/llada_8b/modeling.py pieces below
    pass


# --- bonsai/models/llada_8b/modeling.py (LLaDAOutput, sampling helpers, forward), as in the repo ---
class LLaDAOutput(NamedTuple):
    logits: jax.Array
    attn_key_values: list[tuple[jax.Array, jax.Array]] | None
    hidden_states: tuple[jax.Array, ...] | None




def add_gumbel_noise(logits: jax.Array, temperature: float, key: jax.Array) -> jax.Array:
    if temperature == 0.0:
        return logits
    logits64 = logits.astype(jnp.float64)
    u = jax.random.uniform(key, shape=logits.shape, dtype=jnp.float64, minval=1e-6, maxval=1.0)
    g = (-jnp.log(u)) ** temperature
    return jnp.exp(logits64) / g


def get_num_transfer_tokens(mask_index: jax.Array, steps: int) -> jax.Array:
    mask_num = jnp.sum(mask_index, axis=1, keepdims=True)  # (B,1)
    base = mask_num // steps  # (B,1)
    remainder = mask_num % steps  # (B,1)
    base = jnp.repeat(base, steps, axis=1)  # (B,steps)
    inc = (jnp.arange(steps)[None, :] < remainder).astype(jnp.int32)  # (B,steps)
    return (base + inc).astype(jnp.int32)


def _row_topk_mask(conf_row: jax.Array, k: jax.Array) -> jax.Array:
    L = conf_row.shape[0]
    idx_sorted = jnp.argsort(conf_row)[::-1]
    ranks = jnp.empty((L,), dtype=jnp.int32).at[idx_sorted].set(jnp.arange(L, dtype=jnp.int32))
    return ranks < k


row_topk_mask_vmapped = jax.vmap(_row_topk_mask, in_axes=(0, 0), out_axes=0)


@jax.jit
def forward(graphdef: nnx.GraphDef[nnx.Module], state: nnx.State, tokens: jax.Array):
    model = nnx.merge(graphdef, state)
    out = model(tokens)
    state = jax.tree.leaves(nnx.state(model))
    return out.logits, state





class _TinyLLaDA(nnx.Module):  # scaffolding: a 2-layer stand-in for LLaDAModel (8B) returning LLaDAOutput
    def __init__(self, vocab, dim, *, rngs):
        self.embed = nnx.Embed(vocab, dim, rngs=rngs)
        self.mlp = nnx.Linear(dim, dim, rngs=rngs)
        self.head = nnx.Linear(dim, vocab, rngs=rngs)

    def __call__(self, tokens):
        return LLaDAOutput(logits=self.head(jnp.tanh(self.mlp(self.embed(tokens)))), attn_key_values=None, hidden_states=None)


for _n in ["LLaDAOutput", "add_gumbel_noise", "get_num_transfer_tokens", "row_topk_mask_vmapped", "forward"]:  # scaffolding
    setattr(modeling, _n, globals()[_n])


# Config / paths
HF_REPO = "GSAI-ML/LLaDA-8B-Instruct"
MODEL_CP_PATH = "/tmp/models-bonsai/" + HF_REPO.split("/")[1]



# Tokenization helper
def tokenize(tokenizer, inputs: list[str]):
    pad_id = tokenizer.pad_token_id or tokenizer.eos_token_id  # fall back to eos
    lines = [
        tokenizer.apply_chat_template([{"role": "user", "content": l}], tokenize=False, add_generation_prompt=True)
        for l in inputs
    ]
    encoded = [tokenizer.encode(s) for s in lines]
    max_l = max(len(e) for e in encoded) if encoded else 1
    buffer_len = 2 ** math.ceil(math.log2(max(max_l, 1)))
    batch = np.stack([np.pad(e, (0, buffer_len - len(e)), constant_values=pad_id) for e in encoded], axis=0)
    return jnp.array(batch), pad_id, max_l, buffer_len


# Demo queries
prompt = ["Why is the sky blue instead of a different color like purple?", "Who am I?"]

tokens = jnp.asarray(np.random.default_rng(0).integers(1, 200, (2, 16)), dtype=jnp.int32)  # scaffolding: tokenizer output (HF tokenizer not available)
batch_size = tokens.shape[0]

model = _TinyLLaDA(256, 32, rngs=nnx.Rngs(0))  # scaffolding: instead of the 8B checkpoint
graphdef, state = nnx.split(model)


def generate_for_benchmark(
    graphdef: nnx.GraphDef[nnx.Module],
    init_state: nnx.State,
    prompt: jax.Array,
    *,
    steps: int = 128,
    gen_length: int = 128,
    block_length: int = 128,
    temperature: float = 0.0,
    cfg_scale: float = 0.0,
    remasking: str = "low_confidence",
    mask_id: int = 126336,
    rng: jax.Array = jax.random.PRNGKey(0),
    profile_dir: str | None = None,
    profile_start_step: int | None = None,  # global step index at which to start profiling
    profile_stop_step: int | None = None,  # global step index at which to stop profiling
):
    """
    Returns:
      x: final tokens (B, Lp+gen_length)
      state: final nnx.State
      step_times: list[float] of per-step latencies (seconds), length == steps
    """
    B, Lp = prompt.shape
    x = jnp.full((B, Lp + gen_length), mask_id, dtype=jnp.int32).at[:, :Lp].set(prompt)
    prompt_index = x != mask_id

    assert gen_length % block_length == 0
    num_blocks = gen_length // block_length
    assert steps % num_blocks == 0
    steps_per_block = steps // num_blocks

    state = init_state

    def _do_step(x, state, rng, i, stop, num_transfer_tokens, *, remasking: str):
        mask_index = x == mask_id

        # CFG path: run conditional + unconditional; keep state from the conditional path
        if cfg_scale > 0.0:
            un_x = jnp.where(prompt_index, mask_id, x)
            x_stack = jnp.concatenate([x, un_x], axis=0)  # (2B, L)
            logits_both, state = modeling.forward(graphdef, state, x_stack)  # (2B,L,V)
            logits, logits_un = jnp.split(logits_both, 2, axis=0)
            logits = logits_un + (cfg_scale + 1.0) * (logits - logits_un)
            state_next = state
        else:
            logits, state_next = modeling.forward(graphdef, state, x)

        # Noise + argmax
        rng, sub = jax.random.split(rng)
        logits_noisy = modeling.add_gumbel_noise(logits, temperature, sub)
        x0 = jnp.argmax(logits_noisy, axis=-1).astype(jnp.int32)

        # Confidence
        if remasking == "low_confidence":
            p = jax.nn.softmax(logits, axis=-1)
            x0_p = jnp.squeeze(jnp.take_along_axis(p, x0[..., None], axis=-1), axis=-1)
        elif remasking == "random":
            rng, sub = jax.random.split(rng)
            x0_p = jax.random.uniform(sub, shape=x0.shape, dtype=logits.dtype)
        else:
            raise NotImplementedError(remasking)

        # Forbid beyond current block
        neg_inf = jnp.array(-jnp.inf, dtype=x0_p.dtype)
        pos = jnp.arange(x0.shape[1])[None, :]
        x0_p = jnp.where(pos >= stop, neg_inf, x0_p)

        x0_sel = jnp.where(mask_index, x0, x)
        conf = jnp.where(mask_index, x0_p, neg_inf)

        # variable-k per row
        k_vec = num_transfer_tokens[:, i]
        transfer_index = modeling.row_topk_mask_vmapped(conf, k_vec)

        x = jnp.where(transfer_index, x0_sel, x)
        return x, state_next, rng

    # JIT the step function for realistic per-step timing.
    do_step = partial(_do_step, remasking=remasking)
    do_step_jit = jax.jit(do_step)

    # Optional warmup compile outside the timing window
    # (uses the very first block/step's shapes & branches)
    start0 = Lp + 0 * block_length
    stop0 = Lp + (0 + 1) * block_length
    block_mask0 = lax.dynamic_slice_in_dim(x, start_index=start0, slice_size=block_length, axis=1)
    block_mask_index0 = block_mask0 == mask_id
    num_transfer_tokens0 = modeling.get_num_transfer_tokens(block_mask_index0, steps_per_block)
    x_w, state_w, rng = do_step_jit(x, state, rng, jnp.int32(0), jnp.int32(stop0), num_transfer_tokens0)
    _ = x_w.block_until_ready()  # ensure compile happens before we start measuring

    step_times: list[float] = []
    global_step = 0

    # Main loop with per-step timing
    for b_idx in range(num_blocks):
        start = Lp + b_idx * block_length
        stop = Lp + (b_idx + 1) * block_length

        block_mask = lax.dynamic_slice_in_dim(x, start_index=start, slice_size=block_length, axis=1)
        block_mask_index = block_mask == mask_id
        num_transfer_tokens = modeling.get_num_transfer_tokens(block_mask_index, steps_per_block)

        for i in range(steps_per_block):
            # Start trace exactly at profile_start_step if requested
            if profile_dir and profile_start_step is not None and global_step == profile_start_step:
                jax.profiler.start_trace(profile_dir)

            t0 = time.perf_counter()
            x, state, rng = do_step_jit(x, state, rng, jnp.int32(i), jnp.int32(stop), num_transfer_tokens)
            _ = x.block_until_ready()  # sync to measure device time
            dt = time.perf_counter() - t0
            step_times.append(dt)

            # Stop trace after profile_stop_step if requested
            if profile_dir and profile_stop_step is not None and global_step == profile_stop_step:
                jax.profiler.stop_trace()

            global_step += 1

    return x, state, step_times


try:  # scaffolding
    x_final, state_final, step_times = generate_for_benchmark(
        graphdef,
        state,
        tokens,
        steps=4,  # scaffolding: 64 cut down
        gen_length=8,  # scaffolding: 32 cut down
        block_length=8,  # scaffolding: 32 cut down
        temperature=0.2,
        cfg_scale=1.0,
        remasking="low_confidence",
        mask_id=255,  # scaffolding: 126336 is outside the tiny vocabulary
        rng=jax.random.PRNGKey(0),
        profile_dir=None,  # scaffolding: no profiler trace
        profile_start_step=1,
        profile_stop_step=5,
    )
    _report({"jit(_do_step)"}, 5)  # scaffolding: the warm-up call plus 4 steps
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
