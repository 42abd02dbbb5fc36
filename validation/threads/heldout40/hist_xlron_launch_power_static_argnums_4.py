# source: https://github.com/micdoh/XLRON/commit/9385f03b449505cbd88179b8d8c8c18d8157c375
# expect: bad-static-spec at line 95
# runtime: ERROR ValueError
# why: The author's first fix (ccb0319, 'Fix static arg on get launch power') sets static_argnums=(4,) on a four-parameter function, so the decorator itself raises ValueError when the module is imported.

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
# xlron/environments/env_funcs.py of micdoh/XLRON at ccb0319 (get_launch_power and its caller; GN-model physics cut)
from functools import partial
import chex
import jax
import jax.numpy as jnp
from flax import struct


# --- scaffolding: cut-down EnvState / EnvParams and helpers of env_funcs.py ---
class HashableArrayWrapper:  # scaffolding
    def __init__(self, val):  # scaffolding
        self.val = val  # scaffolding

    def __hash__(self):  # scaffolding
        return hash(self.val.tobytes())  # scaffolding

    def __eq__(self, other):  # scaffolding
        return isinstance(other, HashableArrayWrapper) and hash(self) == hash(other)  # scaffolding


@struct.dataclass  # scaffolding
class EnvState:  # scaffolding
    request_array: chex.Array  # scaffolding
    launch_power_array: chex.Array  # scaffolding


@struct.dataclass  # scaffolding
class EnvParams:  # scaffolding
    launch_power_type: int = struct.field(pytree_node=False)  # scaffolding
    k_paths: int = struct.field(pytree_node=False)  # scaffolding
    num_nodes: int = struct.field(pytree_node=False)  # scaffolding
    num_links: int = struct.field(pytree_node=False)  # scaffolding
    link_resources: int = struct.field(pytree_node=False)  # scaffolding
    directed_graph: bool = struct.field(pytree_node=False)  # scaffolding
    pack_path_bits: bool = struct.field(pytree_node=False)  # scaffolding
    link_length_array: HashableArrayWrapper = struct.field(pytree_node=False)  # scaffolding
    path_link_array: HashableArrayWrapper = struct.field(pytree_node=False)  # scaffolding


def process_path_action(state, params, path_action):  # scaffolding: differentiable rounding and slot aggregation cut
    path_index = (path_action // params.link_resources).astype(jnp.int32)  # scaffolding
    return path_index, jnp.mod(path_action, params.link_resources)  # scaffolding


def get_path_indices(params, s, d, k, N, directed=False):  # scaffolding: differentiable compare/where cut
    sum_to_s = s * (s - 1) // 2  # scaffolding
    sum_to_d = d * (d - 1) // 2  # scaffolding
    forward = (N * s + d - sum_to_s - 2 * s - 1) * k  # scaffolding
    backward = (N * d + s - sum_to_d - 2 * d - 1) * k  # scaffolding
    return jnp.where(s < d, forward, backward)  # scaffolding
# --- end scaffolding ---


def read_rsa_request(request_array: chex.Array):
    """Read RSA request from request array. Return source-destination nodes and bandwidth request.
    Args:
        request_array: request array
    Returns:
        Tuple[chex.Array, chex.Array]: source-destination nodes and bandwidth request
    """
    nodes_sd = request_array[jnp.array([0, 2])]
    requested_datarate = request_array[1]
    return nodes_sd, requested_datarate


try:  # scaffolding: the decorator raises when the module is imported
    @partial(jax.jit, static_argnums=(4,))
    def get_launch_power(
        state: EnvState,
        path_action: chex.Array,
        power_action: chex.Array,
        params: EnvParams,
    ) -> chex.Array:
        """Get launch power for new lightpath. N.B. launch power is specified in dBm but is converted to linear units
        when stored in channel_power_array. This func returns linear units (mW).
        """
        k_path_index, _ = process_path_action(state, params, path_action)
        if params.launch_power_type == 1:  # Fixed
            return state.launch_power_array[0]
        elif params.launch_power_type == 2:  # Tabular (one row per path)
            nodes_sd, requested_datarate = read_rsa_request(state.request_array)
            source, dest = nodes_sd
            i = get_path_indices(
                params,
                source,
                dest,
                params.k_paths,
                params.num_nodes,
                directed=params.directed_graph,
            ).astype(jnp.int32)
            return state.launch_power_array[i + k_path_index]
        elif params.launch_power_type == 3:  # RL
            return power_action
        elif params.launch_power_type == 4:  # Scaled
            nodes_sd, requested_datarate = read_rsa_request(state.request_array)
            source, dest = nodes_sd
            i = get_path_indices(
                params,
                source,
                dest,
                params.k_paths,
                params.num_nodes,
                directed=params.directed_graph,
            )
            # Get path length
            link_length_array = jnp.sum(params.link_length_array.val, axis=1, promote_integers=False)
            path_length = jnp.sum(link_length_array[i + k_path_index], promote_integers=False)
            path_link_array = (
                jnp.unpackbits(params.path_link_array.val)[:, params.num_links]
                if params.pack_path_bits
                else params.path_link_array.val
            )
            maximum_path_length = jnp.max(jnp.dot(path_link_array, params.link_length_array.val))
            return state.launch_power_array[0] * (path_length / maximum_path_length)
        else:
            raise ValueError("Invalid launch power type. Check params.launch_power_type")
except ValueError as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
    raise SystemExit(0)  # scaffolding


@partial(jax.jit, static_argnums=(2,))
def implement_action_rsa_gn_model(state, action, params):  # scaffolding: ActionInfo and the slot/SNR updates cut
    path_action, power_action = action
    path_action = path_action.astype(jnp.int32)
    launch_power = get_launch_power(state, path_action, power_action, params)
    return state.replace(launch_power_array=state.launch_power_array.at[0].set(launch_power))  # scaffolding


params = EnvParams(  # scaffolding: 4-node topology, 2 paths per pair, 8 slots
    launch_power_type=2, k_paths=2, num_nodes=4, num_links=5, link_resources=8,  # scaffolding
    directed_graph=False, pack_path_bits=False,  # scaffolding
    link_length_array=HashableArrayWrapper(jnp.ones((5, 1))),  # scaffolding
    path_link_array=HashableArrayWrapper(jnp.ones((12, 5))),  # scaffolding
)  # scaffolding
state = EnvState(request_array=jnp.array([0.0, 4.0, 3.0]), launch_power_array=jnp.linspace(0.5, 1.5, 12))  # scaffolding
calls = 0  # scaffolding
try:  # scaffolding
    for a in [3, 9, 14]:  # scaffolding: three agent actions (path * link_resources + slot)
        state = implement_action_rsa_gn_model(state, (jnp.array(a), jnp.array(1.0)), params)  # scaffolding
        calls += 1  # scaffolding
    _report({"jit(implement_action_rsa_gn_model)", "jit(get_launch_power)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
