# source: https://github.com/micdoh/XLRON/blob/2e93c3fb13aa7a6b36f364c6458ff7419b8b2ba3/xlron/environments/env_funcs.py
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: get_paths marks a params dataclass static that holds the path-link array, but the array sits in HashableArrayWrapper (hash of its bytes) and params never change, so four lookups compile once.

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
# xlron/environments/env_funcs.py and rsa.py of micdoh/XLRON at 2e93c3f ('Updated static_argnums for some env_funcs'): path lookup with the params dataclass static
from functools import partial
from typing import Generic, TypeVar
import chex
import jax
import jax.numpy as jnp
import numpy as np  # scaffolding
from flax import struct

T = TypeVar('T')      # Declare type variable


class HashableArrayWrapper(Generic[T]):
    def __init__(self, val: T):
        self.val = val

    def __getattribute__(self, prop):
        if prop == 'val' or prop == "__hash__" or prop == "__eq__":
            return super(HashableArrayWrapper, self).__getattribute__(prop)
        return getattr(self.val, prop)

    def __getitem__(self, key):
        return self.val[key]

    def __setitem__(self, key, val):
        self.val[key] = val

    def __hash__(self):
        return hash(self.val.tobytes())

    def __eq__(self, other):
        if isinstance(other, HashableArrayWrapper):
            return self.__hash__() == other.__hash__()

        f = getattr(self.val, "__eq__")
        return f(self, other)


@struct.dataclass
class EnvParams:
    max_requests: chex.Scalar = struct.field(pytree_node=False)
    max_timesteps: chex.Scalar = struct.field(pytree_node=False)


@struct.dataclass
class RSAEnvParams(EnvParams):
    num_nodes: chex.Scalar = struct.field(pytree_node=False)
    num_links: chex.Scalar = struct.field(pytree_node=False)
    link_resources: chex.Scalar = struct.field(pytree_node=False)
    k_paths: chex.Scalar = struct.field(pytree_node=False)
    mean_service_holding_time: chex.Scalar = struct.field(pytree_node=False)
    load: chex.Scalar = struct.field(pytree_node=False)
    arrival_rate: chex.Scalar = struct.field(pytree_node=False)
    min_slots: chex.Scalar = struct.field(pytree_node=False)
    max_slots: chex.Scalar = struct.field(pytree_node=False)
    path_link_array: chex.Array = struct.field(pytree_node=False)


@partial(jax.jit, static_argnums=(2, 3))
def get_path_indices(s, d, k, N):
    """Get path indices for a given source, destination and number of paths"""
    node_indices = jnp.arange(N, dtype=jnp.int32)
    indices_to_s = jnp.where(node_indices < s, node_indices, 0)
    # The following equation is based on the combinations formula
    return (N*s + d - jnp.sum(indices_to_s) - 2*s - 1) * k


@partial(jax.jit, static_argnums=(0,))
def get_paths(params, nodes):
    """Get k paths between source and destination"""
    # get source and destination nodes in order (for accurate indexing of path-link array)
    source, dest = jnp.sort(nodes)
    i = get_path_indices(source, dest, params.k_paths, params.num_nodes).astype(jnp.int32)
    index_array = jax.lax.dynamic_slice(jnp.arange(0, params.path_link_array.shape[0]), (i,), (params.k_paths,))
    return jnp.take(params.path_link_array.val, index_array, axis=0)


num_nodes, k = 6, 5  # scaffolding: networkx is not installed, a random path-link array stands in for init_path_link_array(graph, k)
path_links = jnp.array(np.random.default_rng(0).integers(0, 2, (num_nodes * (num_nodes - 1) // 2 * k, 9)))  # scaffolding
params = RSAEnvParams(  # scaffolding: make_rsa_env arguments cut down
    max_requests=100, max_timesteps=300, num_nodes=num_nodes, num_links=9, link_resources=10, k_paths=k,  # scaffolding
    mean_service_holding_time=10.0, load=100.0, arrival_rate=10.0, min_slots=1, max_slots=2,  # scaffolding
    path_link_array=HashableArrayWrapper(path_links),  # scaffolding
)  # scaffolding
calls = 0  # scaffolding
for nodes in [(0, 3), (4, 1), (2, 5), (1, 2)]:  # scaffolding: four requests' source/destination
    paths = get_paths(params, jnp.array(nodes))  # scaffolding
    calls += 1  # scaffolding
_report({"jit(get_paths)", "jit(get_path_indices)"}, calls)  # scaffolding
