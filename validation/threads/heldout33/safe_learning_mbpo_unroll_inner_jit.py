# source: https://github.com/lasgroup/safe-learning/commit/20027020132a52b9cdc43654925379d7aee8c523
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: generate_safe_unroll defines an @jax.jit step function in its body on every call, but it only runs inside the outer jax.jit(jax.vmap(...)) evaluation trace, where the inner jit is inlined: one compile for four evaluations.

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
from collections import namedtuple
from typing import Any, Sequence, Tuple

import jax
import jax.numpy as jnp
from flax import struct

Transition = namedtuple(  # scaffolding: brax.training.types.Transition (brax is not installed here)
    "Transition", ["observation", "action", "reward", "discount", "next_observation", "extras"]
)


@struct.dataclass
class State:  # scaffolding: brax envs.State
    obs: Any
    reward: Any
    done: Any
    info: dict


class _PointEnv:  # scaffolding: stands in for the wrapped brax evaluation env
    def reset(self, rng):
        return State(obs=jnp.ones(3), reward=jnp.array(0.0), done=jnp.array(0.0), info={})

    def step(self, state, action):
        obs = state.obs + 0.1 * action
        return State(obs=obs, reward=-jnp.sum(obs**2), done=jnp.array(0.0), info={})


# ss2r/algorithms/mbpo/data.py before 20027020 ("Remove unneeded jit")
def safe_actor_step(
    env,
    env_state: State,
    policy,
    key,
    extra_fields: Sequence[str] = (),
) -> Tuple[State, Transition]:
    """Collect data."""
    actions, policy_extras = policy(env_state.obs, key)
    nstate = env.step(env_state, actions)
    state_extras = {x: nstate.info[x] for x in extra_fields}
    intervetion = policy_extras.get("intervention", jnp.zeros_like(nstate.reward))
    if "intervention" in nstate.info:
        nstate.info["intervention"] = intervetion
    return nstate, Transition(  # pytype: disable=wrong-arg-types  # jax-ndarray
        observation=env_state.obs,
        action=actions,
        reward=nstate.reward,
        discount=1 - nstate.done,
        next_observation=nstate.obs,
        extras={"policy_extras": policy_extras, "state_extras": state_extras},
    )


def generate_safe_unroll(
    env,
    env_state: State,
    policy,
    key,
    unroll_length: int,
    extra_fields: Sequence[str] = (),
) -> Tuple[State, Transition]:
    """Collect trajectories of given unroll_length."""

    @jax.jit
    def f(carry, unused_t):
        state, current_key = carry
        current_key, next_key = jax.random.split(current_key)

        nstate, transition = safe_actor_step(
            env, state, policy, current_key, extra_fields=extra_fields
        )
        return (nstate, next_key), transition

    (final_state, _), data = jax.lax.scan(f, (env_state, key), (), length=unroll_length)
    return final_state, data


# ss2r/rl/evaluation.py InterventionConstraintsEvaluator (metrics bookkeeping trimmed)
class InterventionConstraintsEvaluator:
    def __init__(self, eval_env, eval_policy_fn, num_eval_envs: int, episode_length: int, action_repeat: int,
                 key: jax.Array, num_episodes: int = 10):
        self._key = key
        self.num_episodes = num_episodes

        def generate_eval_unroll(policy_params, key) -> State:  # type: ignore
            reset_keys = jax.random.split(key, num_eval_envs)
            eval_first_state = eval_env.reset(reset_keys)
            return generate_safe_unroll(
                eval_env,
                eval_first_state,
                eval_policy_fn(policy_params),
                key,
                unroll_length=episode_length // action_repeat,
            )[0]

        self._generate_eval_unroll = jax.jit(
            jax.vmap(generate_eval_unroll, in_axes=(None, 0))
        )

    def run_evaluation(self, policy_params):
        """Run one epoch of evaluation."""
        self._key, unroll_key = jax.random.split(self._key)
        unroll_key = jax.random.split(unroll_key, self.num_episodes)
        eval_state = self._generate_eval_unroll(policy_params, unroll_key)
        return eval_state


def make_policy(params):  # scaffolding: eval_policy_fn
    def policy(obs, key):
        return -params * obs, {}

    return policy


evaluator = InterventionConstraintsEvaluator(_PointEnv(), make_policy, 1, 20, 1, jax.random.PRNGKey(0), 4)
n_evals = 4
for i in range(n_evals):  # scaffolding: one evaluation per training epoch, with new params
    eval_state = evaluator.run_evaluation(jnp.full(3, 0.1 * (i + 1)))
jax.block_until_ready(eval_state.obs)
_report({"jit(generate_eval_unroll)", "jit(f)"}, n_evals)
