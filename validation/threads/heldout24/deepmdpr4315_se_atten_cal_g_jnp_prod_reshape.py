# source: https://github.com/deepmodeling/deepmd-kit/pull/4315
# expect: trace-time-error at line 69
# runtime: ERROR TypeError
# why: cal_g computes the flattened feature size with xp.prod(xp.asarray(ss.shape[2:])); under jit that jax.numpy product is staged out, so xp.reshape gets a traced dimension and raises TypeError (shapes must be concrete).
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


# deepmd/dpmodel/descriptor/dpa1.py before PR #4315: DescrptBlockSeAtten.cal_g / cal_g_strip and the
# embedding part of DescrptBlockSeAtten.call ("strip" tebd_input_mode), flattened
import jax
import jax.numpy as jnp
import numpy as np


class array_api_compat:  # scaffolding: stand-in for the array_api_compat package (jax arrays -> jax.numpy)
    @staticmethod  # scaffolding
    def array_namespace(*arrays):  # scaffolding
        return jnp  # scaffolding


class EmbeddingNet:  # scaffolding: stand-in for deepmd.dpmodel.utils.network.EmbeddingNet (tanh MLP)
    def __init__(self, in_dim, neuron, seed):  # scaffolding
        rng = np.random.default_rng(seed)  # scaffolding
        dims = [in_dim, *neuron]  # scaffolding
        self.w = [jnp.asarray(rng.normal(size=(i, o)) / np.sqrt(i), jnp.float32) for i, o in zip(dims[:-1], dims[1:])]  # scaffolding

    def call(self, x):  # scaffolding
        for w in self.w:  # scaffolding
            x = jnp.tanh(x @ w)  # scaffolding
        return x  # scaffolding


class DescrptBlockSeAtten:
    def __init__(self, neuron, tebd_dim, nnei, smooth=True, type_one_side=False):  # scaffolding: only the fields used below
        self.neuron = neuron  # scaffolding
        self.tebd_dim = tebd_dim  # scaffolding
        self.nnei = nnei  # scaffolding
        self.smooth = smooth  # scaffolding
        self.type_one_side = type_one_side  # scaffolding
        self.embeddings = [EmbeddingNet(1, neuron, 0)]  # scaffolding
        self.embeddings_strip = [EmbeddingNet(2 * tebd_dim, neuron, 1)]  # scaffolding

    def cal_g(
        self,
        ss,
        embedding_idx,
    ):
        xp = array_api_compat.array_namespace(ss)
        nfnl, nnei = ss.shape[0:2]
        shape2 = xp.prod(xp.asarray(ss.shape[2:]))
        ss = xp.reshape(ss, (nfnl, nnei, shape2))
        # nfnl x nnei x ng
        gg = self.embeddings[embedding_idx].call(ss)
        return gg

    def cal_g_strip(
        self,
        ss,
        embedding_idx,
    ):
        assert self.embeddings_strip is not None
        xp = array_api_compat.array_namespace(ss)
        nfnl, nnei = ss.shape[0:2]
        shape2 = xp.prod(xp.asarray(ss.shape[2:]))
        ss = xp.reshape(ss, (nfnl, nnei, shape2))
        # nfnl x nnei x ng
        gg = self.embeddings_strip[embedding_idx].call(ss)
        return gg

    def call_embedding(self, rr, sw, atype_embd_nlist, atype_embd_nnei):  # scaffolding: the "strip" branch of call, lines as in call
        xp = array_api_compat.array_namespace(rr)
        # nfnl x nnei x 1
        ss = rr[..., 0:1]
        # nfnl x nnei x ng
        gg_s = self.cal_g(ss, 0)
        assert self.embeddings_strip is not None
        if not self.type_one_side:
            # nfnl x nnei x (tebd_dim * 2)
            tt = xp.concat([atype_embd_nlist, atype_embd_nnei], axis=-1)
        else:
            # nfnl x nnei x tebd_dim
            tt = atype_embd_nlist
        # nfnl x nnei x ng
        gg_t = self.cal_g_strip(tt, 0)
        if self.smooth:
            gg_t = gg_t * xp.reshape(sw, (-1, self.nnei, 1))
        # nfnl x nnei x ng
        gg = gg_s * gg_t + gg_s
        return gg


block = DescrptBlockSeAtten(neuron=[8, 16], tebd_dim=4, nnei=10)  # scaffolding
call_embedding = jax.jit(block.call_embedding)  # scaffolding: the JAX backend jits (and exports) the whole model call
rng = np.random.default_rng(0)  # scaffolding
try:  # scaffolding
    for frame in range(3):  # scaffolding: 3 frames of 6 local atoms, 10 neighbours each
        rr = jnp.asarray(rng.normal(size=(6, 10, 4)), jnp.float32)  # scaffolding
        sw = jnp.asarray(rng.uniform(size=(6, 10, 1)), jnp.float32)  # scaffolding
        t_nlist = jnp.asarray(rng.normal(size=(6, 10, 4)), jnp.float32)  # scaffolding
        t_nnei = jnp.asarray(rng.normal(size=(6, 10, 4)), jnp.float32)  # scaffolding
        gg = call_embedding(rr, sw, t_nlist, t_nnei)  # scaffolding
    print(gg.shape)  # scaffolding
    _report({"jit(call_embedding)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
