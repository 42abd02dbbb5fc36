# source: https://github.com/micdoh/XLRON/commit/6ff2eb5d2c54984a203753bdedb04d625274a968
# expect: bad-static-spec at line 193
# runtime: ERROR ValueError
# why: RSAEnv.reset_env is jitted with static_argnums=(0, 1), marking the PRNG key static instead of params, so reset (which passes its traced key) raises ValueError on the first call.

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
# xlron/environments/rsa.py and env_funcs.py of micdoh/XLRON at 6ff2eb5^ (RSAEnv reset path; step and masking cut)
from typing import Tuple, Optional
from flax import struct
from functools import partial
import chex
import jax
import jax.numpy as jnp


# --- scaffolding: gymnax base class (gymnax is not installed) ---
class environment:  # scaffolding
    class Environment:  # scaffolding
        def __init__(self):  # scaffolding
            pass  # scaffolding
# --- end scaffolding ---


# env_funcs.py
@struct.dataclass
class EnvState:
    current_time: chex.Scalar
    holding_time: chex.Scalar
    total_timesteps: chex.Scalar
    total_requests: chex.Scalar


@struct.dataclass
class EnvParams:
    max_requests: chex.Scalar = struct.field(pytree_node=False)
    max_timesteps: chex.Scalar = struct.field(pytree_node=False)


def init_traffic_matrix(key: chex.PRNGKey, params: EnvParams):
    traffic_matrix = jax.random.uniform(key, shape=(params.num_nodes, params.num_nodes))
    diag_elements = jnp.diag_indices_from(traffic_matrix)
    # Set main diagonal to zero so no requests from node to itself
    traffic_matrix = traffic_matrix.at[diag_elements].set(0)
    traffic_matrix = normalise_traffic_matrix(traffic_matrix)
    return traffic_matrix


def init_values_slots(min_value, max_value):
    return jnp.arange(min_value, max_value+1)


def init_link_slot_array(params: EnvParams):
    """Initialize link array either with uniform resources"""
    return jnp.zeros((params.num_links, params.link_resources))


def init_rsa_request_array():
    """Initialize request array"""
    return jnp.zeros(3)


def init_link_slot_mask(params: EnvParams):
    """Initialize link mask"""
    return jnp.ones(params.k_paths*params.link_resources)


def init_link_slot_departure_array(params: EnvParams):
    return jnp.full((params.num_links, params.link_resources), jnp.inf)


def normalise_traffic_matrix(traffic_matrix):
    """Normalise traffic matrix to sum to 1"""
    traffic_matrix /= jnp.sum(traffic_matrix)
    return traffic_matrix


def generate_rsa_request(key: chex.PRNGKey, state: EnvState, params: EnvParams) -> EnvState:
    # TODO - update this to be bitrate requests rather than slots
    # Flatten the probabilities to a 1D array
    shape = state.traffic_matrix.shape
    probabilities = state.traffic_matrix.ravel()
    key_sd, key_slot, key_times = jax.random.split(key, 3)
    # Use jax.random.choice to select index based on the probabilities
    source_dest_index = jax.random.choice(key_sd, jnp.arange(state.traffic_matrix.size), p=probabilities)
    # Convert 1D index back to 2D
    nodes = jnp.unravel_index(source_dest_index, shape)
    source, dest = jnp.sort(jnp.stack(nodes))
    # Vectorized conditional replacement using mask
    slots = jax.random.choice(key_slot, state.values_slots)
    arrival_time, holding_time = generate_arrival_holding_times(key_times, params)
    state = state.replace(
        holding_time=holding_time,
        current_time=state.current_time + arrival_time,
        request_array=jnp.stack((source, slots, dest)),
        total_requests=state.total_requests + 1
    )
    state = remove_expired_slot_requests(state)
    return state


def generate_arrival_holding_times(key, params):
    key_arrival, key_holding = jax.random.split(key, 2)
    arrival_time = jax.random.exponential(key_arrival, shape=(1,)) \
                   / params.arrival_rate  # Divide because it is rate (lambda)
    holding_time = jax.random.exponential(key_holding, shape=(1,)) \
                   * params.mean_service_holding_time  # Multiply because it is mean (1/lambda)
    return arrival_time, holding_time


def remove_expired_slot_requests(state: EnvState) -> EnvState:
    mask = jnp.where(state.link_slot_departure_array < jnp.squeeze(state.current_time), 1, 0)
    state = state.replace(
        link_slot_array=jnp.where(mask == 1, 0, state.link_slot_array),
        link_slot_departure_array=jnp.where(mask == 1, jnp.inf, state.link_slot_departure_array)
    )
    return state


# rsa.py
@struct.dataclass
class RSAEnvState(EnvState):
    link_slot_array: chex.Array
    request_array: chex.Array
    link_slot_departure_array: chex.Array
    link_slot_mask: chex.Array
    traffic_matrix: chex.Array
    values_slots: chex.Array


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


class RSAEnv(environment.Environment):
    """Jittable abstract base class for all gymnax Environments."""
    def __init__(self, key: chex.PRNGKey, params: RSAEnvParams):
        super().__init__()
        self.initial_state = RSAEnvState(
            current_time=0,
            holding_time=0,
            total_timesteps=0,
            total_requests=-1,
            link_slot_array=init_link_slot_array(params),
            link_slot_departure_array=init_link_slot_departure_array(params),
            request_array=init_rsa_request_array(),
            link_slot_mask=init_link_slot_mask(params),
            traffic_matrix=init_traffic_matrix(key, params),
            values_slots=init_values_slots(params.min_slots, params.max_slots),
        )

    @partial(jax.jit, static_argnums=(0, 2,))
    def reset(
        self, key: chex.PRNGKey, params: Optional[RSAEnvParams] = None
    ) -> Tuple[chex.Array, RSAEnvState]:
        """Performs resetting of environment."""
        # Use default env parameters if no others specified
        if params is None:
            params = self.default_params
        obs, state = self.reset_env(key, params)
        return obs, state

    @partial(jax.jit, static_argnums=(0, 1,))
    def reset_env(
        self, key: chex.PRNGKey, params: RSAEnvParams
    ) -> Tuple[chex.Array, RSAEnvState]:
        """Environment-specific reset."""
        state = self.initial_state
        state = generate_rsa_request(key, state, params)
        return self.get_obs(state), state

    def get_obs(self, state: RSAEnvState) -> chex.Array:
        """Applies observation function to state."""
        return jnp.concatenate(
            (
                jnp.reshape(state.request_array, (-1,)),
                jnp.reshape(state.link_slot_array, (-1,)),
            ),
            axis=0,
        )


params = RSAEnvParams(  # scaffolding: small topology instead of make_rsa_env("conus")
    max_requests=100, max_timesteps=300, num_nodes=6, num_links=9, link_resources=10, k_paths=5,  # scaffolding
    mean_service_holding_time=10.0, load=100.0, arrival_rate=10.0, min_slots=1, max_slots=2,  # scaffolding
)  # scaffolding
env = RSAEnv(jax.random.PRNGKey(0), params)  # scaffolding
calls = 0  # scaffolding
try:  # scaffolding
    for seed in range(3):  # scaffolding: three episode resets
        obs, state = env.reset(jax.random.PRNGKey(seed), params)  # scaffolding
        calls += 1  # scaffolding
    _report({"jit(reset)", "jit(reset_env)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
