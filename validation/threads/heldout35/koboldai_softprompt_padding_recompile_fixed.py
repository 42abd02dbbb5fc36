# source: https://github.com/KoboldAI/KoboldAI-Client/commit/150ce033c93a076ad5cb0b6b0aa05d1574821b63
# expect: none
# runtime: COMPILES 1 CALLS 6
# why: The commit's fix: soft prompts are padded to params['seq'] rows and a zero soft prompt of the same shape is used when none is loaded, so the generate function keeps one input shape and compiles once.

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
from typing import List, Optional

import jax
import jax.numpy as jnp
import numpy as np

# scaffolding: small stand-ins for the TPU model's params / globals
params = {"seq": 64, "cores_per_replica": 8, "d_model": 16, "n_vocab": 100, "n_vocab_padding": 28}
seq = params["seq"]
pad_token_id = 0


class vars:  # scaffolding: aiserver's global settings object
    sp = None
    sp_length = 0
    model = "TPUMeshTransformerGPTJ"


class tpu_mtj_backend:  # scaffolding: module alias
    params = params


class Network:  # scaffolding: stand-in for PenalizingCausalTransformer (xmap -> jit)
    def __init__(self):
        emb = jnp.ones((params["n_vocab"] + params["n_vocab_padding"], params["d_model"]))

        def generate(ctx, ctx_length, soft_embeddings=None):
            x = emb[jnp.minimum(ctx, emb.shape[0] - 1)]
            if soft_embeddings is not None:
                x = x.sum() + soft_embeddings.reshape(-1, params["d_model"]).sum()
            return jnp.sum(x) + ctx_length.sum()

        self.generate_xmap = jax.jit(generate)

    def generate(self, ctx, ctx_length, gen_length, numseqs, sampler_options, return_logits=False, soft_embeddings=None):
        return self.generate_xmap(ctx, np.array(ctx_length, dtype=np.uint32), soft_embeddings)


network = Network()


def spRequest(tensor):  # scaffolding: the soft prompt tensor is passed in instead of loaded from a zip
    vars.sp_length = tensor.shape[0]

    if(vars.model in ("TPUMeshTransformerGPTJ",)):
        rows = tensor.shape[0]
        padding_amount = tpu_mtj_backend.params["seq"] - (tpu_mtj_backend.params["seq"] % -tpu_mtj_backend.params["cores_per_replica"]) - rows
        tensor = np.pad(tensor, ((0, padding_amount), (0, 0)))
        tensor = tensor.reshape(
            tpu_mtj_backend.params["cores_per_replica"],
            -1,
            tpu_mtj_backend.params["d_model"],
        )
        vars.sp = np.float32(tensor)


def infer(
    tokens,
    numseqs=1,
    gen_len=80,
    soft_embeddings: Optional[np.array] = None,
    soft_tokens: Optional[np.array] = None,
):
    total_batch = 1
    tokens = tokens[: params["seq"] - (soft_tokens.shape[0] if soft_tokens is not None else 0)]  # scaffolding: tokenizer.encode(..., max_length=...)
    if(soft_tokens is not None):
        tokens = np.uint32(np.concatenate((soft_tokens, tokens)))
    provided_ctx = tokens.shape[0]
    pad_amount = seq - provided_ctx
    padded_tokens = np.pad(tokens, ((pad_amount, 0),), constant_values=pad_token_id)
    batched_tokens = np.array([padded_tokens] * total_batch)
    output = network.generate(
        batched_tokens,
        np.ones(total_batch, dtype=np.uint32) * provided_ctx,
        np.ones(total_batch, dtype=np.uint32) * gen_len,
        numseqs,
        {},
        soft_embeddings=soft_embeddings,
    )
    return output


def tpumtjgenerate(txt):
    soft_tokens = None
    if(vars.sp is None):
        tensor = np.zeros((1, tpu_mtj_backend.params["d_model"]), dtype=np.float32)
        rows = tensor.shape[0]
        padding_amount = tpu_mtj_backend.params["seq"] - (tpu_mtj_backend.params["seq"] % -tpu_mtj_backend.params["cores_per_replica"]) - rows
        tensor = np.pad(tensor, ((0, padding_amount), (0, 0)))
        tensor = tensor.reshape(
            tpu_mtj_backend.params["cores_per_replica"],
            -1,
            tpu_mtj_backend.params["d_model"],
        )
        vars.sp = tensor
    soft_tokens = np.arange(
        tpu_mtj_backend.params["n_vocab"] + tpu_mtj_backend.params["n_vocab_padding"],
        tpu_mtj_backend.params["n_vocab"] + tpu_mtj_backend.params["n_vocab_padding"] + vars.sp_length,
        dtype=np.uint32
    )

    genout = infer(
        txt,
        soft_embeddings=vars.sp,
        soft_tokens=soft_tokens,
    )
    return genout


# scaffolding: the user switches between soft prompts of different lengths and generates
txt = np.arange(1, 41, dtype=np.uint32)
calls = 0
tpumtjgenerate(txt)  # no soft prompt loaded yet
calls += 1
for sp_rows in (10, 20, 30, 45, 20):
    spRequest(np.random.rand(sp_rows, params["d_model"]).astype(np.float32))
    tpumtjgenerate(txt)
    calls += 1
_report({"jit(generate)"}, calls)  # scaffolding
