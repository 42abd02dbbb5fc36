# source: https://github.com/schalappe/simulate_2048/commit/732d538940e55e4ae4439e5ae9f2a4c063fae5ad
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the commit divides by jnp.maximum(temperature, 0.01) inside the branch, so tracing the unused branch with temperature=0.0 no longer raises; select_action compiles once for 3 greedy moves.
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



"""
Action selection utilities for MCTS policy outputs.

This module provides functions to convert mctx policy outputs into action selections
with temperature-based sampling.
"""

from functools import partial
from typing import cast, NamedTuple  # scaffolding: NamedTuple for the mctx stand-in

import jax
import jax.numpy as jnp
# import mctx  # scaffolding: mctx is not installed; PolicyOutput is stood in below
from jax import lax


class _PolicyOutput(NamedTuple):  # scaffolding: mctx.PolicyOutput, only the field policy.py reads
    action: jax.Array  # scaffolding
    action_weights: jax.Array  # scaffolding


class mctx:  # scaffolding: namespace standing in for the mctx module
    PolicyOutput = _PolicyOutput  # scaffolding


# ##>: Type aliases.
Array = jax.Array
PRNGKey = jax.Array


@partial(jax.jit, static_argnums=(2,))
def get_policy_target(policy_output: mctx.PolicyOutput, legal_mask: Array, temperature: float = 1.0) -> Array:
    """
    Convert MCTS visit counts to a policy target for training.

    Parameters
    ----------
    policy_output : mctx.PolicyOutput
        Output from mctx search containing action_weights.
    legal_mask : Array
        Boolean mask of legal actions, shape (num_actions,).
    temperature : float
        Temperature for softening the policy.
        - 1.0: proportional to visit counts
        - 0.0: deterministic (argmax)
        - >1.0: more uniform exploration

    Returns
    -------
    Array
        Normalized policy distribution, shape (num_actions,).
    """
    # ##>: action_weights are already normalized visit counts.
    weights = policy_output.action_weights

    # ##>: Mask illegal actions.
    masked_weights = jnp.where(legal_mask, weights, 0.0)

    # ##>: Apply temperature.
    def with_temperature(w: Array) -> Array:
        # ##>: Use max to prevent division by zero during JAX tracing.
        # ##&: JAX's lax.cond traces both branches, so this must be safe even when temperature=0.
        safe_temp = jnp.maximum(temperature, 0.01)
        powered = jnp.power(w + 1e-8, 1.0 / safe_temp)
        return powered / jnp.sum(powered)

    def without_temperature(w: Array) -> Array:
        # ##>: Greedy: return one-hot at max.
        return jax.nn.one_hot(jnp.argmax(w), w.shape[-1])

    is_greedy = temperature < 0.01
    policy = lax.cond(is_greedy, without_temperature, with_temperature, masked_weights)

    return policy


@partial(jax.jit, static_argnums=(3,))
def select_action(
    policy_output: mctx.PolicyOutput, key: PRNGKey, legal_mask: Array, temperature: float = 1.0
) -> Array:
    """
    Select an action from MCTS policy output.

    Parameters
    ----------
    policy_output : mctx.PolicyOutput
        Output from mctx search.
    key : PRNGKey
        JAX random key for sampling.
    legal_mask : Array
        Boolean mask of legal actions, shape (num_actions,).
    temperature : float
        Temperature for action selection.
        - 0.0: deterministic (best action)
        - 1.0: proportional to visit counts
        - >1.0: more exploration

    Returns
    -------
    Array
        Selected action index (scalar int).
    """
    policy = get_policy_target(policy_output, legal_mask, temperature)

    # ##>: Sample from the policy.
    def sample_action(p: Array) -> Array:
        return jax.random.choice(key, p.shape[-1], p=p)

    def greedy_action(p: Array) -> Array:
        return jnp.argmax(p)

    is_greedy = temperature < 0.01
    action = lax.cond(is_greedy, greedy_action, sample_action, policy)

    return action


# scaffolding: reinforce/evaluate.py's greedy evaluation (temperature=0.0), one move per step with a stand-in MCTS output
key = jax.random.PRNGKey(0)  # scaffolding
temperature = 0.0  # scaffolding: evaluate() plays greedily
calls = 0  # scaffolding
try:  # scaffolding
    for step in range(3):  # scaffolding
        key, mcts_key, action_key = jax.random.split(key, 3)  # scaffolding
        weights = jax.nn.softmax(jax.random.normal(mcts_key, (4,)))  # scaffolding: stand-in for run_mcts_jit's visit distribution
        mcts_output = mctx.PolicyOutput(action=jnp.argmax(weights), action_weights=weights)  # scaffolding
        legal_mask = jnp.array([True, True, False, True])  # scaffolding
        action = select_action(mcts_output, action_key, legal_mask, temperature)
        action = int(action)
        calls += 1  # scaffolding
    _report({"jit(select_action)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
