# source: https://github.com/vvvm23/mamba-jax/commit/4d8b6d5491f64d2a024d53e48eff35aac476bece
# expect: none
# runtime: COMPILES 1 CALLS 6
# why: the sampling loop writes each new token into a prompt buffer pre-padded to prompt + gen_len (input_ids.at[i].set), so the filter_jit-wrapped model always sees the same shape and compiles once for 6 tokens, unlike a loop that grows the sequence.
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



# ---- scaffolding: einops is not installed; stand-ins for the two calls the code makes ----
import jax.numpy as _jnp  # scaffolding


def einsum(*args):  # scaffolding: einops.einsum(tensors..., "named axes -> named axes")
    *ops, pattern = args  # scaffolding
    ins, out = pattern.split("->")  # scaffolding
    names = {}  # scaffolding
    conv = lambda t: "".join(names.setdefault(n, chr(97 + len(names))) for n in t.split())  # scaffolding
    return _jnp.einsum(",".join(conv(t) for t in ins.split(",")) + "->" + conv(out), *ops)  # scaffolding


def repeat(x, pattern, **sizes):  # scaffolding: einops.repeat, only the "n -> d n" pattern used here
    assert pattern == "n -> d n"  # scaffolding
    return _jnp.broadcast_to(x[None, :], (sizes["d"],) + x.shape)  # scaffolding


# ---- mamba_jax/kernels/reference.py at 4d8b6d5 (add_norm stub and __main__ test cut) ----
from typing import Optional

import jax
import jax.numpy as jnp
# from einops import einsum  # scaffolding: einops is not installed; stand-in above


def mamba_ssm(
    u: jax.Array,
    delta: jax.Array,  # time-variant
    A: jax.Array,  # time-invariant
    B: jax.Array,  # time-variant
    C: jax.Array,  # time variant
    D: Optional[jax.Array] = None,  # time-invariant
    delta_bias: Optional[jax.Array] = None,
    delta_softplus: bool = False,
) -> jax.Array:
    # Adapted from Mamba Minimal by johnma2006
    # https://github.com/johnma2006/mamba-minimal/blob/c91c81d99480cf89fe39d3b04a2115ce984612e2/model.py#L275

    if delta_bias is not None:
        raise NotImplementedError("delta_bias not implemented yet.")

    l, d_in = u.shape
    n = A.shape[1]

    delta = jnp.asarray(delta, dtype=jnp.float32)

    if delta_softplus:
        delta = jax.nn.softplus(delta)

    delta_A = jnp.exp(einsum(delta, A, "l d_in, d_in n -> l d_in n"))
    delta_B_u = einsum(delta, B, u, "l d_in, l n, l d_in -> l d_in n")

    x = jnp.zeros((d_in, n))

    def _scan_fn(x, params):
        d_A, d_Bu, C = params

        x = d_A * x + d_Bu
        return x, einsum(x, C, "d_in n, n -> d_in")

    # don't do jax.lax.associative_scan as this will materialise full state and likely OOM
    _, y = jax.lax.scan(_scan_fn, init=x, xs=[delta_A, delta_B_u, C])

    y = y + u * D
    return y


# ---- mamba_jax/kernels/interface.py at 4d8b6d5 (__main__ test cut) ----
from enum import Enum
from typing import Optional

import jax
import jax.numpy as jnp

# from .reference import mamba_ssm as mamba_ssm_xla  # scaffolding: defined above in this file
mamba_ssm_xla = mamba_ssm  # scaffolding: the reference mamba_ssm defined above, bound before interface.py redefines the name


class KernelType(Enum):
    PALLAS = 0
    XLA = 1


# TODO: populate function that arranges data as expected by kernel and calls it
# TODO: add `jax.custom_jvp` for calling correct kernel for fwd / bwd pass
def mamba_ssm(
    u: jax.Array,
    delta: jax.Array,
    A: jax.Array,
    B: jax.Array,
    C: jax.Array,
    D: Optional[jax.Array] = None,
    delta_bias: Optional[jax.Array] = None,
    delta_softplus: bool = False,
    mode: KernelType = KernelType.XLA,
) -> jax.Array:
    if mode == KernelType.PALLAS:
        raise NotImplementedError
    elif mode == KernelType.XLA:
        # let JAX handle backwards pass in reference kernel
        return mamba_ssm_xla(u, delta, A, B, C, D=D, delta_bias=delta_bias, delta_softplus=delta_softplus)


# TODO: add fused residual+norm layer
# TODO: add `jax.custom_jvp` for calling correct kernel for fwd / bwd pass
def add_norm():
    pass


# ---- mamba_jax/modelling/equinox/blocks.py at 4d8b6d5 (__main__ test cut) ----
import math
from typing import Literal, Optional

import equinox as eqx
import equinox.nn as nn
import jax
import jax.numpy as jnp
# from einops import repeat  # scaffolding: einops is not installed; stand-in above

# from ...kernels.interface import KernelType, mamba_ssm  # scaffolding: defined above in this file


# corresponds to implementation in:
# https://github.com/state-spaces/mamba/blob/main/mamba_ssm/modules/mamba_simple.py
class MambaBlock(eqx.Module):
    in_proj: nn.Linear
    conv1d: nn.Conv1d
    x_proj: nn.Linear
    dt_proj: nn.Linear

    A_log: jax.Array
    D: Optional[jax.Array]

    out_proj: nn.Linear

    dtype: jnp.dtype = jnp.float32
    use_kernel: bool = False
    layer_idx: int = None
    dt_rank: int
    state_dim: int

    def __init__(
        self,
        dim: int,
        state_dim: int = 16,
        kernel_size: int = 4,
        expand: int = 2,
        dt_rank: Literal["auto"] | int = "auto",
        dt_min: float = 0.001,
        dt_max: float = 0.1,
        dt_init: Literal["constant", "random"] = "random",
        dt_scale: float = 1.0,
        dt_init_floor: float = 1e-4,
        conv_bias: bool = True,
        bias: bool = False,
        use_kernel: bool = False,
        layer_idx: int = None,  # used in fused add-norm
        dtype: jnp.dtype = jnp.float32,
        key: jax.random.PRNGKey = None,
    ):
        super().__init__()
        self.use_kernel = use_kernel
        self.layer_idx = layer_idx
        self.dtype = dtype

        inner_dim = int(expand * dim)
        self.dt_rank = math.ceil(dim / 16) if dt_rank == "auto" else dt_rank
        self.state_dim = state_dim

        key, subkey = jax.random.split(key)
        self.in_proj = nn.Linear(dim, 2 * inner_dim, use_bias=bias, key=subkey)

        key, subkey = jax.random.split(key)
        self.conv1d = nn.Conv1d(
            in_channels=inner_dim,
            out_channels=inner_dim,
            use_bias=conv_bias,
            kernel_size=kernel_size,
            groups=inner_dim,
            padding=kernel_size - 1,
            key=subkey,
        )

        key, subkey = jax.random.split(key)
        self.x_proj = nn.Linear(inner_dim, self.dt_rank + state_dim * 2, use_bias=False, key=subkey)

        key, subkey = jax.random.split(key)
        self.dt_proj = nn.Linear(self.dt_rank, inner_dim, use_bias=True, key=subkey)

        dt_init_std = self.dt_rank**-0.5 * dt_scale

        key, subkey = jax.random.split(key)
        dt = jnp.exp(
            jax.random.uniform(subkey, (inner_dim,)) * (math.log(dt_max) - math.log(dt_min)) + math.log(dt_min)
        )
        dt = jnp.clip(dt, min=dt_init_floor)  # scaffolding: was a_min=, removed from jnp.clip in current JAX
        inv_dt = dt + jnp.log(-jnp.expm1(-dt))

        self.dt_proj = eqx.tree_at(lambda l: l.bias, self.dt_proj, inv_dt)

        if dt_init == "constant":
            new_weight = jnp.zeros_like(self.dt_proj.weight) + dt_init_std
        elif dt_init == "random":
            key, subkey = jax.random.split(key)
            new_weight = jax.random.uniform(subkey, self.dt_proj.weight.shape, minval=-dt_init_std, maxval=dt_init_std)
        else:
            raise NotImplementedError

        self.dt_proj = eqx.tree_at(lambda l: l.weight, self.dt_proj, new_weight)

        # S4D (diagonal) real initialisation
        A = repeat(jnp.arange(1, state_dim + 1), "n -> d n", d=inner_dim)

        self.A_log = jnp.log(A)

        self.D = jnp.ones((inner_dim,))

        key, subkey = jax.random.split(key)
        self.out_proj = nn.Linear(inner_dim, dim, use_bias=bias, key=subkey)

    def __call__(self, x: jax.Array) -> jax.Array:
        L, _ = x.shape
        x = x.astype(dtype=self.dtype)
        x, z = jnp.split(jax.vmap(self.in_proj)(x), 2, axis=-1)

        A = -jnp.exp(self.A_log.astype(dtype=jnp.float32))

        # TODO: update to just use these arrangement by default
        x = x.astype(dtype=self.dtype)
        x = jnp.transpose(x)
        x = jax.nn.silu(self.conv1d(x))
        x = jnp.transpose(x)[:L]

        x = x.astype(dtype=self.dtype)
        dt, B, C = jnp.split(jax.vmap(self.x_proj)(x), [self.dt_rank, self.state_dim + self.dt_rank], axis=-1)

        assert B.shape[-1] == self.state_dim
        assert C.shape[-1] == self.state_dim

        dt = jax.vmap(self.dt_proj)(dt)

        x = x.astype(dtype=self.dtype)
        y = mamba_ssm(
            x,
            dt,
            A,
            B,
            C,
            D=self.D.astype(dtype=jnp.float32),
            delta_bias=None,
            delta_softplus=True,
            mode=KernelType.PALLAS if self.use_kernel else KernelType.XLA,
        )

        y = y * jax.nn.silu(z)

        y = y.astype(dtype=self.dtype)
        return jax.vmap(self.out_proj)(y)


class ResidualBlock(eqx.Module):
    mixer: MambaBlock
    norm: eqx.Module

    res_dtype: jnp.dtype = jnp.float32
    layer_idx: Optional[int] = None

    def __init__(
        self,
        dim: int,
        mixer_factory,
        norm_factory=nn.RMSNorm,
        fused_add_norm: bool = False,
        res_dtype: jnp.dtype = jnp.float32,
        layer_idx: Optional[int] = None,
        key: jax.random.PRNGKey = None,
    ):
        super().__init__()
        self.layer_idx = layer_idx
        self.res_dtype = res_dtype
        self.mixer = mixer_factory(dim, key=key)
        self.norm = norm_factory(dim)

    def __call__(self, x: jax.Array, res: Optional[jax.Array] = None) -> jax.Array:
        # TODO: add fused residual add +norm followed by mamba mixer
        # correspnds to `Block` in reference
        res = x if res is None else x + res

        x = jax.vmap(self.norm)(res.astype(dtype=self.norm.weight.dtype))
        x = self.mixer(x)

        return x, res.astype(dtype=self.res_dtype)


# ---- mamba_jax/modelling/equinox/model.py at 4d8b6d5 (__main__ test cut) ----
from functools import partial
from typing import List, Literal

import equinox as eqx
import equinox.nn as nn
import jax
import jax.numpy as jnp

# from .blocks import MambaBlock, ResidualBlock  # scaffolding: defined above in this file


def create_block(
    dim: int,
    state_dim: int = 16,
    kernel_size: int = 4,
    expand: int = 2,
    dt_rank: Literal["auto"] | int = "auto",
    dt_min: float = 0.001,
    dt_max: float = 0.1,
    dt_init: Literal["constant", "random"] = "random",
    dt_scale: float = 1.0,
    dt_init_floor: float = 1e-4,
    conv_bias: bool = True,
    bias: bool = False,
    use_kernel: bool = False,
    layer_idx: int = None,
    norm_eps: float = 1e-5,
    # TODO: add norm type
    res_dtype: jnp.dtype = jnp.float32,
    dtype: jnp.dtype = jnp.float32,
    key: jax.random.PRNGKey = None,
) -> ResidualBlock:

    mixer_factory = partial(
        MambaBlock,
        state_dim=state_dim,
        kernel_size=kernel_size,
        expand=expand,
        dt_rank=dt_rank,
        dt_min=dt_min,
        dt_max=dt_max,
        dt_init=dt_init,
        dt_scale=dt_scale,
        dt_init_floor=dt_init_floor,
        conv_bias=conv_bias,
        bias=bias,
        use_kernel=use_kernel,
        layer_idx=layer_idx,
        dtype=dtype,
    )

    norm_factory = partial(nn.RMSNorm, eps=norm_eps)

    return ResidualBlock(
        dim, mixer_factory=mixer_factory, norm_factory=norm_factory, res_dtype=res_dtype, layer_idx=layer_idx, key=key
    )


# Model with Mamba sequence mixer, with no specific task head
# corresponds to the `MixerModel`
class MambaModel(eqx.Module):

    embedding: nn.Embedding
    layers: List[ResidualBlock]

    norm_f: nn.RMSNorm

    def __init__(
        self,
        dim: int,
        num_layers: int,
        vocab_size: int,
        state_dim: int = 16,
        kernel_size: int = 4,
        expand: int = 2,
        dt_rank: Literal["auto"] | int = "auto",
        dt_min: float = 0.001,
        dt_max: float = 0.1,
        dt_init: Literal["constant", "random"] = "random",
        dt_scale: float = 1.0,
        dt_init_floor: float = 1e-4,
        conv_bias: bool = True,
        bias: bool = False,
        use_kernel: bool = False,
        norm_eps: float = 1e-5,
        # TODO: add norm type (rms or layer)
        res_dtype: jnp.dtype = jnp.float32,
        dtype: jnp.dtype = jnp.float32,
        key: jax.random.PRNGKey = None,
    ):
        super().__init__()
        # TODO: auto-pad vocab to mult of 8

        key, subkey = jax.random.split(key)
        self.embedding = nn.Embedding(vocab_size, dim, key=subkey)

        key, *layer_keys = jax.random.split(key, num_layers + 1)
        self.layers = [
            create_block(
                dim=dim,
                state_dim=state_dim,
                kernel_size=kernel_size,
                expand=expand,
                dt_rank=dt_rank,
                dt_min=dt_min,
                dt_max=dt_max,
                dt_init=dt_init,
                dt_scale=dt_scale,
                dt_init_floor=dt_init_floor,
                conv_bias=conv_bias,
                bias=bias,
                use_kernel=use_kernel,
                layer_idx=i,
                norm_eps=norm_eps,
                res_dtype=res_dtype,
                dtype=dtype,
                key=subkey,
            )
            for i, subkey in enumerate(layer_keys)
        ]

        self.norm_f = nn.RMSNorm(dim, eps=norm_eps)

    def __call__(self, input_ids: jax.Array) -> jax.Array:
        x = jax.vmap(self.embedding)(input_ids)

        res = None

        for layer in self.layers:
            x, res = layer(x, res)

        res = x + res if res is not None else x
        x = jax.vmap(self.norm_f)(res.astype(self.norm_f.weight.dtype))

        return x


# corresponds to implementation in:
# https://github.com/state-spaces/mamba/blob/main/mamba_ssm/models/mixer_seq_simple.py
# essentially, the `MambaLMHeadModel` class
class MambaLLM(eqx.Module):
    model: MambaModel
    lm_head: nn.Linear

    def __init__(
        self,
        dim: int,
        num_layers: int,
        vocab_size: int,
        state_dim: int = 16,
        kernel_size: int = 4,
        expand: int = 2,
        dt_rank: Literal["auto"] | int = "auto",
        dt_min: float = 0.001,
        dt_max: float = 0.1,
        dt_init: Literal["constant", "random"] = "random",
        dt_scale: float = 1.0,
        dt_init_floor: float = 1e-4,
        conv_bias: bool = True,
        bias: bool = False,
        use_kernel: bool = False,
        norm_eps: float = 1e-5,
        # TODO: add norm type (rms or layer)
        res_dtype: jnp.dtype = jnp.float32,
        dtype: jnp.dtype = jnp.float32,
        key: jax.random.PRNGKey = None,
    ):
        super().__init__()

        model_key, head_key = jax.random.split(key)

        self.model = MambaModel(
            dim=dim,
            num_layers=num_layers,
            vocab_size=vocab_size,
            state_dim=state_dim,
            kernel_size=kernel_size,
            expand=expand,
            dt_rank=dt_rank,
            dt_min=dt_min,
            dt_max=dt_max,
            dt_init=dt_init,
            dt_scale=dt_scale,
            dt_init_floor=dt_init_floor,
            conv_bias=conv_bias,
            bias=bias,
            use_kernel=use_kernel,
            norm_eps=norm_eps,
            # TODO: add norm type (rms or layer)
            res_dtype=res_dtype,
            dtype=dtype,
            key=model_key,
        )

        self.lm_head = nn.Linear(dim, vocab_size, use_bias=False, key=head_key)

    def __call__(self, input_ids: jax.Array) -> jax.Array:
        x = self.model(input_ids)
        return jax.vmap(self.lm_head)(x)


# ---- scaffolding: tokenizer stand-in (GPT-NeoX tokenizer not available) ----
import numpy as np  # scaffolding
from types import SimpleNamespace  # scaffolding


class _Tok:  # scaffolding
    def __call__(self, text, return_tensors="np"):  # scaffolding: one id per character, vocabulary of 50
        return SimpleNamespace(input_ids=np.array([[ord(c) % 50 for c in text]], dtype=np.int64))  # scaffolding

    def decode(self, ids):  # scaffolding
        return "".join(chr(97 + int(i) % 26) for i in ids)  # scaffolding


# ---- the __main__ sampling loop of mamba_jax/modelling/equinox/loader.py at 4d8b6d5 (checkpoint loading replaced) ----
import tqdm
# from transformers import AutoTokenizer  # scaffolding: tokenizer stand-in below

# sd, config = get_pt_checkpoint("state-spaces/mamba-2.8b")  # scaffolding: no checkpoint download; random small model below
# tree = pt_to_raw_pytree(sd)  # scaffolding
model = MambaLLM(32, 2, 50, key=jax.random.PRNGKey(1))  # scaffolding: was init_mamba_from_raw_pytree(tree, config) of mamba-2.8b

tokenizer = _Tok()  # scaffolding: was AutoTokenizer.from_pretrained("EleutherAI/gpt-neox-20b")

prompt = "Aloha, World! "

gen_len = 6  # scaffolding: was 20
temperature = 0.7
key = jax.random.PRNGKey(0)

output = []
input_ids = tokenizer(prompt, return_tensors="np").input_ids[0]

i = input_ids.shape[0]
input_ids = jnp.concatenate([input_ids, jnp.zeros(gen_len, dtype=jnp.int32)], axis=0)

model = eqx.filter_jit(model)
for _ in tqdm.trange(gen_len, disable=True):  # scaffolding: progress bar off
    logits = model(input_ids)
    logits = logits / temperature
    key, subkey = jax.random.split(key)
    output_ids = jax.random.categorical(subkey, logits)
    input_ids = input_ids.at[i].set(output_ids[i - 1])
    i += 1

print(tokenizer.decode(input_ids))
_report({"jit(MambaLLM)"}, gen_len)  # scaffolding
