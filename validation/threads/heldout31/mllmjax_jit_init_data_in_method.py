# source: https://github.com/demon2036/MLLM-JAX/commit/33f8f971a043b01a7af3ad6367dd01c447c621b1
# expect: jit-in-loop-or-body at line 96
# runtime: COMPILES 4 CALLS 4
# why: prepare_from_prefill_to_decode defines init_data and wraps it in a new jax.jit on every call, so each generation recompiles the resharding function even though the cache shapes do not change.

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

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax import NamedSharding
from jax.sharding import PartitionSpec as P


def collect_process_data2(x):  # scaffolding: single-host stand-in for the process_allgather helper
    return x


def _form_global_array(path, array, global_mesh):  # scaffolding: single-host stand-in (MLLM_JAX.utils)
    return array


def pad_cache_right(
        cache,
        prefill_length,
        max_cache_length,
        global_collect_cache_method=None,
        global_collect_index_method=None,
):

    for i in range(len(cache)):
        cache[f'layer_{i}']['k']=jnp.pad(cache[f'layer_{i}']['k'], pad_width=((0, 0), (0, 0), (0, max_cache_length), (0, 0)),  # 只在 cache_size 维度上填充,
                constant_values=0)
        cache[f'layer_{i}']['v']=jnp.pad(cache[f'layer_{i}']['v'], pad_width=((0, 0), (0, 0), (0, max_cache_length), (0, 0)),  # 只在 cache_size 维度上填充,
                constant_values=0)

    return cache


class _Tok:  # scaffolding: tokenizer stand-in
    eos_token_id = 2


class Sampler:  # (trimmed to the prefill -> decode preparation)
    def __init__(self, tokenizer, mesh=None):
        self.tokenizer = tokenizer
        self.mesh = mesh
        self.global_collect_method=partial(_form_global_array, global_mesh=self.mesh)

    def prepare_from_prefill_to_decode(self, cache, input_ids_pad, pad_attention, position_ids, max_length=8192):

        b, prefill_length = input_ids_pad.shape

        cache,input_ids_pad,pad_attention,position_ids=jax.tree_util.tree_map(collect_process_data2,(cache,input_ids_pad,pad_attention,position_ids))

        input_ids_pad = jnp.pad(input_ids_pad, ((0, 0), (0, max_length)),
                                constant_values=self.tokenizer.eos_token_id)

        pad_attention = jnp.pad(pad_attention, ((0, 0), (0, max_length)),
                                constant_values=0)
        pad_attention = pad_attention.at[:, prefill_length].set(1)
        position_ids = jnp.max(position_ids,axis=1).reshape((-1,1)) + 1

        cache = pad_cache_right(cache, prefill_length, max_length,)

        cache,input_ids_pad, pad_attention, position_ids=jax.tree_util.tree_map_with_path(self.global_collect_method,(cache,input_ids_pad, pad_attention, position_ids))


        def init_data(params):
            return params

        jit_init_data=jax.jit(init_data,out_shardings=NamedSharding(self.mesh,P(['dp','fsdp'] ,'tp')))


        for i in range(len(cache)):
            cache[f'layer_{i}']['k'] = jit_init_data(cache[f'layer_{i}']['k'])
            cache[f'layer_{i}']['v'] = jit_init_data(cache[f'layer_{i}']['v'])




        return cache, input_ids_pad, pad_attention, position_ids


mesh = jax.make_mesh((1, 1, 1), ('dp', 'fsdp', 'tp'))  # scaffolding: single-device mesh
sampler = Sampler(_Tok(), mesh=mesh)  # scaffolding
for prompt in range(4):  # scaffolding: four generate calls with the same prefill bucket
    b, prefill_length, layers = 2, 16, 2
    cache = {f'layer_{i}': {'k': jnp.zeros((b, 2, prefill_length, 8)), 'v': jnp.zeros((b, 2, prefill_length, 8))}
             for i in range(layers)}  # scaffolding: the prefill KV cache
    input_ids_pad = jnp.ones((b, prefill_length), jnp.int32)
    pad_attention = jnp.ones((b, prefill_length), jnp.int32)
    position_ids = jnp.tile(jnp.arange(prefill_length), (b, 1))
    out = sampler.prepare_from_prefill_to_decode(cache, input_ids_pad, pad_attention, position_ids, max_length=32)
_report({"jit(init_data)"}, 4)
