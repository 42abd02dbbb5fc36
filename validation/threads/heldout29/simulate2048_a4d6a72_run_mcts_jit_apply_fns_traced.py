# source: https://github.com/schalappe/simulate_2048/commit/a4d6a72409dea7e8a6d9afb2a42efc23fbe865c4
# expect: trace-time-error at line 375
# runtime: ERROR TypeError
# why: run_mcts_jit marks only the hyper-parameters (4..12) static, so apply_fns, a NamedTuple of network apply functions, is a traced argument and jit raises TypeError ('function' at path apply_fns.representation) on the warm-up call.
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



# ---- reinforce/mcts/stochastic_mctx.py ----
"""
Integration with DeepMind's mctx library for Stochastic MuZero MCTS.

This module provides the bridge between our Stochastic MuZero networks
and mctx's stochastic_muzero_policy function.

The key abstraction is the RecurrentFn, which tells mctx how to:
1. Compute the initial representation from an observation
2. Transition from state to afterstate (afterstate dynamics)
3. Predict chance outcomes from afterstates (afterstate prediction)
4. Transition from afterstate to next state (stochastic dynamics)
5. Predict policy and value from states (prediction)
"""

from functools import partial
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
# import mctx  # scaffolding: mctx is not installed; stand-in below the type aliases

# ##>: Type aliases.
Array = jax.Array
PRNGKey = jax.Array
Params = Any


from types import SimpleNamespace  # scaffolding


class _RootFnOutput(NamedTuple):  # scaffolding: mctx.RootFnOutput
    prior_logits: Any  # scaffolding
    value: Any  # scaffolding
    embedding: Any  # scaffolding


class _DecisionRecurrentFnOutput(NamedTuple):  # scaffolding: mctx.DecisionRecurrentFnOutput
    chance_logits: Any  # scaffolding
    afterstate_value: Any  # scaffolding


class _ChanceRecurrentFnOutput(NamedTuple):  # scaffolding: mctx.ChanceRecurrentFnOutput
    action_logits: Any  # scaffolding
    value: Any  # scaffolding
    reward: Any  # scaffolding
    discount: Any  # scaffolding


class _PolicyOutput(NamedTuple):  # scaffolding: mctx.PolicyOutput (search_tree cut)
    action: Any  # scaffolding
    action_weights: Any  # scaffolding


def _stochastic_muzero_policy(params, rng_key, root, decision_recurrent_fn, chance_recurrent_fn, num_simulations, max_depth=None, dirichlet_fraction=0.25, dirichlet_alpha=0.3, pb_c_init=1.25, pb_c_base=19652.0):  # scaffolding: a one-ply stand-in for mctx.stochastic_muzero_policy
    num_actions = root.prior_logits.shape[-1]  # scaffolding
    q = []  # scaffolding
    for a in range(num_actions):  # scaffolding: expand every root action once, then the most likely chance outcome
        d_out, after = decision_recurrent_fn(params, rng_key, jnp.full(root.value.shape, a), root.embedding)  # scaffolding
        c_out, _ = chance_recurrent_fn(params, rng_key, jnp.argmax(d_out.chance_logits, -1), after)  # scaffolding
        q.append(c_out.reward + c_out.discount * c_out.value)  # scaffolding
    weights = jax.nn.softmax(root.prior_logits + jnp.stack(q, -1), axis=-1)  # scaffolding
    return _PolicyOutput(action=jnp.argmax(weights, -1), action_weights=weights)  # scaffolding


mctx = SimpleNamespace(RootFnOutput=_RootFnOutput, DecisionRecurrentFnOutput=_DecisionRecurrentFnOutput, ChanceRecurrentFnOutput=_ChanceRecurrentFnOutput, PolicyOutput=_PolicyOutput, stochastic_muzero_policy=_stochastic_muzero_policy)  # scaffolding: mctx is not installed


class NetworkApplyFns(NamedTuple):
    """
    Container for network apply functions.

    Each function takes (params, input) and returns the model output.
    """

    representation: Any  # (params, observation) -> hidden_state
    prediction: Any  # (params, state) -> (policy_logits, value)
    afterstate_dynamics: Any  # (params, state, action_onehot) -> afterstate
    afterstate_prediction: Any  # (params, afterstate) -> (q_value, chance_logits)
    dynamics: Any  # (params, afterstate, chance_onehot) -> (next_state, reward)


class NetworkParams(NamedTuple):
    """
    Container for all network parameters.
    """

    representation: Any
    prediction: Any
    afterstate_dynamics: Any
    afterstate_prediction: Any
    dynamics: Any


class StochasticRecurrentFn:
    """
    Wrapper that creates mctx-compatible recurrent functions for Stochastic MuZero.

    This class generates the functions that mctx needs to perform tree search:
    - decision_recurrent_fn: For expanding decision nodes (state -> action -> afterstate)
    - chance_recurrent_fn: For expanding chance nodes (afterstate -> chance -> next_state)

    Attributes
    ----------
    params : NetworkParams
        Network parameters for all models.
    apply_fns : NetworkApplyFns
        Functions to apply each network.
    num_actions : int
        Number of possible actions (4 for 2048).
    codebook_size : int
        Number of possible chance outcomes.
    discount : float
        Reward discount factor.
    """

    def __init__(
        self,
        params: NetworkParams,
        apply_fns: NetworkApplyFns,
        num_actions: int = 4,
        codebook_size: int = 32,
        discount: float = 0.999,
    ):
        """Initialize the recurrent function wrapper."""
        self.params = params
        self.apply_fns = apply_fns
        self.num_actions = num_actions
        self.codebook_size = codebook_size
        self.discount = discount

    def root_fn(self, observation: Array) -> mctx.RootFnOutput:
        """
        Compute the root state from an observation.

        Parameters
        ----------
        observation : Array
            Encoded observation, shape (..., observation_dim).

        Returns
        -------
        mctx.RootFnOutput
            Initial state with prior policy and value.
        """
        # ##>: Get hidden state representation.
        hidden_state = self.apply_fns.representation(self.params.representation, observation)

        # ##>: Get policy and value from prediction network.
        policy_logits, value = self.apply_fns.prediction(self.params.prediction, hidden_state)

        return mctx.RootFnOutput(
            prior_logits=policy_logits,
            value=value,
            embedding=hidden_state,
        )

    def decision_recurrent_fn(
        self,
        params: Any,
        rng_key: PRNGKey,
        action: Array,
        state: Array,
    ) -> tuple[mctx.DecisionRecurrentFnOutput, Array]:
        """
        Transition from decision state to afterstate.

        This is called when expanding a decision node: given a state and action,
        compute the afterstate and its chance distribution.

        Parameters
        ----------
        params : Any
            Unused (params are stored in self).
        rng_key : PRNGKey
            Random key (unused for deterministic transition).
        action : Array
            Action index, shape (...,).
        state : Array
            Current hidden state, shape (..., hidden_dim).

        Returns
        -------
        tuple[mctx.DecisionRecurrentFnOutput, Array]
            - DecisionRecurrentFnOutput with chance logits and afterstate value
            - Afterstate embedding
        """
        del params, rng_key  # Unused

        # ##>: Convert action index to one-hot.
        action_onehot = jax.nn.one_hot(action, self.num_actions)

        # ##>: Compute afterstate from state and action.
        afterstate = self.apply_fns.afterstate_dynamics(self.params.afterstate_dynamics, state, action_onehot)

        # ##>: Get Q-value and chance distribution from afterstate.
        q_value, chance_logits = self.apply_fns.afterstate_prediction(self.params.afterstate_prediction, afterstate)

        output = mctx.DecisionRecurrentFnOutput(
            chance_logits=chance_logits,
            afterstate_value=q_value,
        )

        return output, afterstate

    def chance_recurrent_fn(
        self,
        params: Any,
        rng_key: PRNGKey,
        chance_outcome: Array,
        afterstate: Array,
    ) -> tuple[mctx.ChanceRecurrentFnOutput, Array]:
        """
        Transition from afterstate to next state via chance outcome.

        This is called when expanding a chance node: given an afterstate and
        chance outcome, compute the next state.

        Parameters
        ----------
        params : Any
            Unused (params are stored in self).
        rng_key : PRNGKey
            Random key (unused for deterministic transition).
        chance_outcome : Array
            Chance outcome index, shape (...,).
        afterstate : Array
            Afterstate embedding, shape (..., hidden_dim).

        Returns
        -------
        tuple[mctx.ChanceRecurrentFnOutput, Array]
            - ChanceRecurrentFnOutput with action logits, value, reward, discount
            - Next state embedding
        """
        del params, rng_key  # Unused

        # ##>: Convert chance outcome index to one-hot.
        chance_onehot = jax.nn.one_hot(chance_outcome, self.codebook_size)

        # ##>: Compute next state and reward from afterstate and chance.
        next_state, reward = self.apply_fns.dynamics(self.params.dynamics, afterstate, chance_onehot)

        # ##>: Get policy and value from the next state.
        policy_logits, value = self.apply_fns.prediction(self.params.prediction, next_state)

        output = mctx.ChanceRecurrentFnOutput(
            action_logits=policy_logits,
            value=value,
            reward=reward,
            discount=jnp.ones_like(value) * self.discount,
        )

        return output, next_state


def run_mcts(
    observation: Array,
    params: NetworkParams,
    apply_fns: NetworkApplyFns,
    key: PRNGKey,
    num_simulations: int = 100,
    num_actions: int = 4,
    codebook_size: int = 32,
    discount: float = 0.999,
    max_depth: int | None = None,
    dirichlet_alpha: float = 0.25,
    dirichlet_fraction: float = 0.1,
    pb_c_init: float = 1.25,
    pb_c_base: float = 19652.0,
) -> mctx.PolicyOutput:
    """
    Run Stochastic MuZero MCTS on an observation.

    Parameters
    ----------
    observation : Array
        Encoded observation, shape (observation_dim,) or (batch, observation_dim).
    params : NetworkParams
        Network parameters for all models.
    apply_fns : NetworkApplyFns
        Functions to apply each network.
    key : PRNGKey
        JAX random key for exploration.
    num_simulations : int
        Number of MCTS simulations to run.
    num_actions : int
        Number of possible actions.
    codebook_size : int
        Number of possible chance outcomes.
    discount : float
        Reward discount factor.
    max_depth : int | None
        Maximum search depth (None for unlimited).
    dirichlet_alpha : float
        Dirichlet noise alpha for root exploration.
    dirichlet_fraction : float
        Fraction of Dirichlet noise to add to root.
    pb_c_init : float
        PUCT exploration constant.
    pb_c_base : float
        PUCT exploration base.

    Returns
    -------
    mctx.PolicyOutput
        Search results including action weights and value.
    """
    # ##>: Create recurrent function wrapper.
    recurrent_fn = StochasticRecurrentFn(
        params=params,
        apply_fns=apply_fns,
        num_actions=num_actions,
        codebook_size=codebook_size,
        discount=discount,
    )

    # ##>: Compute root state.
    root = recurrent_fn.root_fn(observation)

    # ##>: Add batch dimension if needed.
    is_batched = observation.ndim > 1
    if not is_batched:
        root = jax.tree.map(lambda x: x[None], root)

    # ##>: Run stochastic MuZero policy.
    policy_output = mctx.stochastic_muzero_policy(
        params=None,  # Unused, params are in recurrent_fn
        rng_key=key,
        root=root,
        decision_recurrent_fn=recurrent_fn.decision_recurrent_fn,
        chance_recurrent_fn=recurrent_fn.chance_recurrent_fn,
        num_simulations=num_simulations,
        max_depth=max_depth,
        dirichlet_fraction=dirichlet_fraction,
        dirichlet_alpha=dirichlet_alpha,
        pb_c_init=pb_c_init,
        pb_c_base=pb_c_base,
    )

    # ##>: Remove batch dimension if we added it.
    if not is_batched:
        policy_output = jax.tree.map(lambda x: x[0], policy_output)

    return policy_output


@partial(jax.jit, static_argnums=(4, 5, 6, 7, 8, 9, 10, 11, 12))
def run_mcts_jit(
    observation: Array,
    params: NetworkParams,
    apply_fns: NetworkApplyFns,
    key: PRNGKey,
    num_simulations: int = 100,
    num_actions: int = 4,
    codebook_size: int = 32,
    discount: float = 0.999,
    max_depth: int | None = None,
    dirichlet_alpha: float = 0.25,
    dirichlet_fraction: float = 0.1,
    pb_c_init: float = 1.25,
    pb_c_base: float = 19652.0,
) -> mctx.PolicyOutput:
    """
    JIT-compiled version of run_mcts.

    Same as run_mcts but with static arguments for JIT compilation.
    Use this for maximum performance when hyperparameters are fixed.
    """
    return run_mcts(
        observation=observation,
        params=params,
        apply_fns=apply_fns,
        key=key,
        num_simulations=num_simulations,
        num_actions=num_actions,
        codebook_size=codebook_size,
        discount=discount,
        max_depth=max_depth,
        dirichlet_alpha=dirichlet_alpha,
        dirichlet_fraction=dirichlet_fraction,
        pb_c_init=pb_c_init,
        pb_c_base=pb_c_base,
    )


def batched_run_mcts(
    observations: Array,
    params: NetworkParams,
    apply_fns: NetworkApplyFns,
    keys: Array,
    num_simulations: int = 100,
    num_actions: int = 4,
    codebook_size: int = 32,
    discount: float = 0.999,
) -> mctx.PolicyOutput:
    """
    Run MCTS on a batch of observations in parallel.

    Parameters
    ----------
    observations : Array
        Batch of observations, shape (batch_size, observation_dim).
    params : NetworkParams
        Network parameters (shared across batch).
    apply_fns : NetworkApplyFns
        Network apply functions.
    keys : Array
        Batch of random keys, shape (batch_size, 2).
    num_simulations : int
        Number of MCTS simulations.
    num_actions : int
        Number of possible actions.
    codebook_size : int
        Number of possible chance outcomes.
    discount : float
        Reward discount factor.

    Returns
    -------
    mctx.PolicyOutput
        Batched policy outputs.
    """
    # ##>: mctx.stochastic_muzero_policy already handles batched inputs.
    return run_mcts(
        observation=observations,
        params=params,
        apply_fns=apply_fns,
        key=keys[0],  # mctx handles batch internally with single key
        num_simulations=num_simulations,
        num_actions=num_actions,
        codebook_size=codebook_size,
        discount=discount,
    )


# ---- reinforce/training/self_play.py ----
TrainConfig = Any  # scaffolding: reinforce.training.config.TrainConfig, only used as an annotation

def warmup_mcts(
    params: NetworkParams,
    apply_fns: NetworkApplyFns,
    key: PRNGKey,
    config: TrainConfig,
) -> None:
    """
    Trigger JIT compilation of MCTS before game loop.

    Runs a single MCTS call to compile the JIT function, avoiding
    compilation overhead during actual self-play.

    Parameters
    ----------
    params : NetworkParams
        Network parameters.
    apply_fns : NetworkApplyFns
        Network apply functions.
    key : PRNGKey
        JAX random key (consumed).
    config : TrainConfig
        Training configuration.
    """
    # ##>: Create dummy observation.
    dummy_obs = jax.numpy.zeros(config.observation_shape)

    # ##>: Single MCTS call to trigger JIT compilation.
    _ = run_mcts_jit(
        observation=dummy_obs,
        params=params,
        apply_fns=apply_fns,
        key=key,
        num_simulations=config.num_simulations,
        num_actions=config.action_size,
        codebook_size=config.codebook_size,
        discount=config.discount,
        dirichlet_alpha=config.dirichlet_alpha,
        dirichlet_fraction=config.dirichlet_fraction,
        pb_c_init=config.pb_c_init,
        pb_c_base=config.pb_c_base,
    )

    # ##>: Block until compilation finishes.
    jax.block_until_ready(_)


# scaffolding: stand-ins for the Stochastic MuZero networks (reinforce/neural/network.py builds flax models); tiny tanh layers
def _representation(p, obs):  # scaffolding
    return jnp.tanh(obs @ p)  # scaffolding


def _prediction(p, s):  # scaffolding
    return s @ p[0], jnp.tanh(s @ p[1])  # scaffolding


def _afterstate_dynamics(p, s, a):  # scaffolding
    return jnp.tanh(s + a @ p)  # scaffolding


def _afterstate_prediction(p, s):  # scaffolding
    return jnp.tanh(s @ p[0]), s @ p[1]  # scaffolding


def _dynamics(p, s, c):  # scaffolding
    return jnp.tanh(s + c @ p[0]), jnp.tanh(s @ p[1])  # scaffolding


_k = jax.random.split(jax.random.PRNGKey(0), 8)  # scaffolding
H = 8  # scaffolding: hidden size
config = SimpleNamespace(observation_shape=(16,), num_simulations=4, action_size=4, codebook_size=4, discount=0.999, dirichlet_alpha=0.25, dirichlet_fraction=0.1, pb_c_init=1.25, pb_c_base=19652.0)  # scaffolding: TrainConfig fields used
params = NetworkParams(  # scaffolding
    representation=jax.random.normal(_k[0], (16, H)),  # scaffolding
    prediction=(jax.random.normal(_k[1], (H, 4)), jax.random.normal(_k[2], (H,))),  # scaffolding
    afterstate_dynamics=jax.random.normal(_k[3], (4, H)),  # scaffolding
    afterstate_prediction=(jax.random.normal(_k[4], (H,)), jax.random.normal(_k[5], (H, 4))),  # scaffolding
    dynamics=(jax.random.normal(_k[6], (4, H)), jax.random.normal(_k[7], (H,))),  # scaffolding
)  # scaffolding
apply_fns = NetworkApplyFns(_representation, _prediction, _afterstate_dynamics, _afterstate_prediction, _dynamics)  # scaffolding

calls = 0  # scaffolding
try:  # scaffolding
    key = jax.random.PRNGKey(1)  # scaffolding
    warmup_mcts(params, apply_fns, key, config)  # scaffolding: train loop warms up once
    calls += 1  # scaffolding
    for step in range(3):  # scaffolding: play_game's per-move call
        key, mcts_key = jax.random.split(key)  # scaffolding
        obs = jax.random.uniform(mcts_key, config.observation_shape)  # scaffolding: an encoded board
        policy_output = run_mcts_jit(
            observation=obs,
            params=params,
            apply_fns=apply_fns,
            key=mcts_key,
            num_simulations=config.num_simulations,
            num_actions=config.action_size,
            codebook_size=config.codebook_size,
            discount=config.discount,
            dirichlet_alpha=config.dirichlet_alpha,
            dirichlet_fraction=config.dirichlet_fraction,
            pb_c_init=config.pb_c_init,
            pb_c_base=config.pb_c_base,
        )
        calls += 1  # scaffolding
    _report({"jit(run_mcts_jit)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
