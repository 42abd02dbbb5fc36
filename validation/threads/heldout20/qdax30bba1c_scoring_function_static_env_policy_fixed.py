# source: https://github.com/adaptive-intelligent-robotics/QDax/commit/30bba1ce7169e24c9ae0b1146f1afdaafb4bb6ce
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: With env and policy_network static, scoring_function traces once and the three scoring rounds reuse it.

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


from functools import partial
from typing import Any, Callable, Tuple

import flax
import flax.linen as nn  # scaffolding
import jax
import jax.numpy as jnp

Action = Descriptor = Done = Fitness = Genotype = Observation = Params = Reward = RNGKey = StateDescriptor = jnp.ndarray  # scaffolding: qdax.types


@flax.struct.dataclass
class EnvState:  # scaffolding: stand-in for brax.envs.State
    obs: jnp.ndarray
    reward: jnp.ndarray
    done: jnp.ndarray
    info: dict


class brax:  # scaffolding: namespace so the annotations brax.envs.Env / brax.envs.State resolve
    class envs:
        Env = Any
        State = EnvState


class PointEnv:  # scaffolding: a 2-D point-mass env (hashable by identity, like a brax env)
    def step(self, state, action):
        obs = state.obs + 0.1 * jnp.tanh(action)
        return EnvState(obs, -jnp.sum(obs ** 2), jnp.zeros(()), {"state_descriptor": obs})


# qdax/utils/mdp_utils.py after the commit
@flax.struct.dataclass
class Transition:
    """Stores data corresponding to a transition in an env."""

    obs: Observation
    next_obs: Observation
    rewards: Reward
    dones: Done
    actions: Action
    state_desc: StateDescriptor


@partial(jax.jit, static_argnames=("play_step_fn", "episode_length"))
def generate_unroll(
    init_state: EnvState,
    policy_params: Params,
    key: RNGKey,
    episode_length: int,
    play_step_fn: Callable[
        [EnvState, Params, RNGKey],
        Tuple[
            EnvState,
            Params,
            RNGKey,
            Transition,
        ],
    ],
) -> Tuple[EnvState, Transition]:
    """
    Generates an episode according to the agent's policy, returns the final state
    of the episode and the transitions of the episode.
    """

    def _scan_play_step_fn(
        carry: Tuple[EnvState, Params, RNGKey], unused_arg: Any
    ) -> Tuple[Tuple[EnvState, Params, RNGKey], Transition]:
        env_state, policy_params, random_key, transitions = play_step_fn(*carry)
        return (env_state, policy_params, random_key), transitions

    (state, _, _), transitions = jax.lax.scan(
        _scan_play_step_fn,
        (init_state, policy_params, key),
        (),
        length=episode_length,
    )
    return state, transitions


@partial(jax.jit, static_argnames=("env", "policy_network"))
def play_step(
    env_state: EnvState,
    policy_params: Params,
    random_key: RNGKey,
    env: brax.envs.Env,
    policy_network: flax.linen.Module
) -> Tuple[EnvState, Params, RNGKey, Transition]:
    """Play an environment step and return the updated state and the transition."""

    actions = policy_network.apply(policy_params, env_state.obs)
    next_state = env.step(env_state, actions)

    transition = Transition(
        obs=env_state.obs,
        next_obs=next_state.obs,
        rewards=next_state.reward,
        dones=next_state.done,
        actions=actions,
        state_desc=env_state.info["state_descriptor"],
    )

    return next_state, policy_params, random_key, transition


@partial(
    jax.jit,
    static_argnames=(
        "episode_length",
        "env",
        "policy_network",
        "behavior_descriptor_extractor",
    ),
)
def scoring_function(
    policies_params: Genotype,
    init_states: brax.envs.State,
    episode_length: int,
    random_key: RNGKey,
    env: brax.envs.Env,
    policy_network: flax.linen.Module,
    behavior_descriptor_extractor: Callable[[Transition, jnp.ndarray], Descriptor],
) -> Tuple[Fitness, Descriptor]:
    """Evaluate policies contained in flatten_variables in parallel

    This rollout is only determinist when all the init states are the same.
    If the init states are fixed but different, as a policy is not necessarily
    evaluated with the same environment everytime, this won't be determinist.

    When the init states, this is not purely stochastic. This choice was made
    for performance reason, as the reset function of brax envs is quite
    time-consuming. If pure stochasticity is needed for a use case, please open
    an issue.
    """
    play_step_fn = partial(play_step, env=env, policy_network=policy_network)

    # Perform rollouts with each policy
    unroll_fn = partial(
        generate_unroll,
        episode_length=episode_length,
        play_step_fn=play_step_fn,
        key=random_key,
    )

    _final_state, data = jax.vmap(unroll_fn)(init_states, policies_params)

    # Create a mask to extract data properly
    is_done = jnp.clip(jnp.cumsum(data.dones, axis=1), 0, 1)
    mask = jnp.roll(is_done, 1, axis=1)
    mask = mask.at[:, 0].set(0)

    # Scores - add offset to ensure positive fitness (through positive rewards)
    fitnesses = jnp.sum(data.rewards * (1.0 - mask), axis=1)
    descriptors = behavior_descriptor_extractor(data, mask)

    return fitnesses, descriptors


env = PointEnv()  # scaffolding
policy_network = nn.Dense(2)  # scaffolding
keys = jax.random.split(jax.random.PRNGKey(0), 4)  # scaffolding
policies_params = jax.vmap(lambda k: policy_network.init(k, jnp.zeros(2)))(keys)  # scaffolding: 4 genotypes
init_states = jax.vmap(lambda k: EnvState(jnp.zeros(2), jnp.zeros(()), jnp.zeros(()), {"state_descriptor": jnp.zeros(2)}))(keys)  # scaffolding


def bd_extractor(data, mask):  # scaffolding: final-position descriptor
    return data.state_desc[:, -1]


for i in range(3):  # scaffolding: three MAP-Elites scoring rounds
    fitnesses, descriptors = scoring_function(policies_params, init_states, 10, jax.random.PRNGKey(i), env, policy_network, bd_extractor)  # scaffolding
_report({"jit(scoring_function)"}, 3)  # scaffolding
