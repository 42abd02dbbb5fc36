# source: https://github.com/ucl-dark/pax/pull/113
# expect: jit-in-loop-or-body at line 131
# runtime: COMPILES 4 CALLS 16
# why: IteratedMatrixGame.__init__ wraps a fresh _step closure in jax.jit, so each of the 4 test environments (same num_inner_steps, payoffs passed as pytree params) compiles its own jit(_step): 4 compiles where the 16 vmapped steps need one.
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
# ucl-dark/pax PR #113 (merge f3ee5d4): the gymnax-style IteratedMatrixGame (step = jax.jit(_step) built in __init__) and the PR's test_single_batch_rewards, which vmaps the jitted step over actions
import jax
from flax import struct
import jax.numpy as jnp
import chex
from typing import Tuple, Optional


class environment:  # scaffolding: gymnax not installed; only the base class is needed
    class Environment:  # scaffolding
        def __init__(self):  # scaffolding
            pass  # scaffolding


class spaces:  # scaffolding: gymnax.environments.spaces (only used in the space properties)
    Discrete = Box = Dict = object  # scaffolding


@chex.dataclass
class EnvState:
    inner_t: int
    outer_t: int


@chex.dataclass
class EnvParams:
    payoff_matrix: chex.ArrayDevice


class IteratedMatrixGame(environment.Environment):
    """
    JAX Compatible version of matrix game environment.
    """

    def __init__(self, num_inner_steps: int):
        super().__init__()

        def _step(
            key: chex.PRNGKey,
            state: EnvState,
            actions: Tuple[int, int],
            params: EnvParams,
        ):
            inner_t, outer_t = state.inner_t, state.outer_t
            a1, a2 = actions
            inner_t += 1

            cc_p1 = params.payoff_matrix[0][0] * (a1 - 1.0) * (a2 - 1.0)
            cc_p2 = params.payoff_matrix[0][1] * (a1 - 1.0) * (a2 - 1.0)
            cd_p1 = params.payoff_matrix[1][0] * (1.0 - a1) * a2
            cd_p2 = params.payoff_matrix[1][1] * (1.0 - a1) * a2
            dc_p1 = params.payoff_matrix[2][0] * a1 * (1.0 - a2)
            dc_p2 = params.payoff_matrix[2][1] * a1 * (1.0 - a2)
            dd_p1 = params.payoff_matrix[3][0] * a1 * a2
            dd_p2 = params.payoff_matrix[3][1] * a1 * a2

            r1 = cc_p1 + dc_p1 + cd_p1 + dd_p1
            r2 = cc_p2 + dc_p2 + cd_p2 + dd_p2

            s1 = (
                0 * (1 - a1) * (1 - a2)
                + 1 * (1 - a1) * a2
                + 2 * a1 * (1 - a2)
                + 3 * (a1) * (a2)
            )

            s2 = (
                0 * (1 - a1) * (1 - a2)
                + 1 * a1 * (1 - a2)
                + 2 * (1 - a1) * a2
                + 3 * (a1) * (a2)
            )
            # if first step then return START state.
            done = inner_t % num_inner_steps == 0
            s1 = jax.lax.select(done, jnp.int8(4), jnp.int8(s1))
            s2 = jax.lax.select(done, jnp.int8(4), jnp.int8(s2))
            obs1 = jax.nn.one_hot(s1, 5, dtype=jnp.int8)
            obs2 = jax.nn.one_hot(s2, 5, dtype=jnp.int8)

            # out step keeping
            reset_inner = inner_t == num_inner_steps
            inner_t = jax.lax.select(
                reset_inner, jnp.zeros_like(inner_t), inner_t
            )
            outer_t_new = outer_t + 1
            outer_t = jax.lax.select(reset_inner, outer_t_new, outer_t)
            state = EnvState(inner_t=inner_t, outer_t=outer_t)
            return (
                (obs1, obs2),
                state,
                (r1, r2),
                done,
                {"discount": jnp.zeros((), dtype=jnp.int8)},
            )

        def _reset(
            key: chex.PRNGKey, params: EnvParams
        ) -> Tuple[chex.Array, EnvState]:
            state = EnvState(
                inner_t=jnp.zeros((), dtype=jnp.int8),
                outer_t=jnp.zeros((), dtype=jnp.int8),
            )
            obs = jax.nn.one_hot(4 * jnp.ones(()), 5, dtype=jnp.int8)
            return (obs, obs), state

        # overwrite Gymnax as it makes single-agent assumptions
        self.step = jax.jit(_step)
        self.reset = jax.jit(_reset)

    @property
    def name(self) -> str:
        """Environment name."""
        return "IteratedMatrixGame-v1"

    @property
    def num_actions(self) -> int:
        """Number of actions possible in environment."""
        return 2

    def action_space(
        self, params: Optional[EnvParams] = None
    ) -> spaces.Discrete:
        """Action space of the environment."""
        return spaces.Discrete(4)

    def observation_space(self, params: EnvParams) -> spaces.Box:
        """Observation space of the environment."""
        return spaces.Discrete(5)

    def state_space(self, params: EnvParams) -> spaces.Dict:
        """State space of the environment."""
        return spaces.Discrete(5)


# test/envs/test_iterated_matrix_game.py
# payoff matrices for four games
ipd = [[2, 2], [0, 3], [3, 0], [1, 1]]
stag = [[4, 4], [1, 3], [3, 1], [2, 2]]
sexes = [[3, 2], [0, 0], [0, 0], [2, 3]]
chicken = [[0, 0], [-1, 1], [1, -1], [-2, -2]]
test_payoffs = [ipd, stag, sexes, chicken]


# @pytest.mark.parametrize("payoff", test_payoffs)  # scaffolding: run below for each payoff
def test_single_batch_rewards(payoff) -> None:
    num_envs = 5
    rng = jax.random.PRNGKey(0)
    env = IteratedMatrixGame(num_inner_steps=5)
    env_params = EnvParams(payoff_matrix=payoff)

    action = jnp.ones((num_envs,), dtype=jnp.float32)
    r_array = jnp.ones((num_envs,), dtype=jnp.float32)

    # we want to batch over actions
    env.step = jax.vmap(
        env.step, in_axes=(None, None, 0, None), out_axes=(0, None, 0, 0, 0)
    )
    obs, env_state = env.reset(rng, env_params)

    # payoffs
    cc_p1, cc_p2 = payoff[0][0], payoff[0][1]
    cd_p1, cd_p2 = payoff[1][0], payoff[1][1]
    dc_p1, dc_p2 = payoff[2][0], payoff[2][1]
    dd_p1, dd_p2 = payoff[3][0], payoff[3][1]

    # first step
    obs, env_state, rewards, done, info = env.step(
        rng, env_state, (0 * action, 0 * action), env_params
    )
    assert jnp.array_equal(rewards[0], cc_p1 * r_array)
    assert jnp.array_equal(rewards[1], cc_p2 * r_array)

    obs, env_state, rewards, done, info = env.step(
        rng, env_state, (1 * action, 0 * action), env_params
    )
    assert jnp.array_equal(rewards[0], dc_p1 * r_array)
    assert jnp.array_equal(rewards[1], dc_p2 * r_array)

    obs, env_state, rewards, done, info = env.step(
        rng, env_state, (0 * action, 1 * action), env_params
    )
    assert jnp.array_equal(rewards[0], cd_p1 * r_array)
    assert jnp.array_equal(rewards[1], cd_p2 * r_array)

    obs, env_state, rewards, done, info = env.step(
        rng, env_state, (1 * action, 1 * action), env_params
    )
    assert jnp.array_equal(rewards[0], dd_p1 * r_array)
    assert jnp.array_equal(rewards[1], dd_p2 * r_array)


for payoff in test_payoffs:  # scaffolding: the parametrize loop
    test_single_batch_rewards(payoff)  # scaffolding
_report({"jit(_step)"}, 16)  # scaffolding: 4 env.step calls per payoff x 4 payoffs
