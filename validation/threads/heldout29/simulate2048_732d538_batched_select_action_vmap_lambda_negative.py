# source: https://github.com/schalappe/simulate_2048/commit/732d538940e55e4ae4439e5ae9f2a4c063fae5ad
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: batched_select_action builds a new lambda under jax.vmap on every call, but the jitted select_action inside keeps one cache entry (static temperature=1.0, same shapes), so it compiles once for 4 self-play steps; temperature 1.0 never divides by zero.
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
        # ##>: Raise to power of 1/temperature for sharpening/softening.
        powered = jnp.power(w + 1e-8, 1.0 / temperature)
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


def batched_select_action(
    policy_outputs: mctx.PolicyOutput,
    keys: Array,
    legal_masks: Array,
    temperature: float = 1.0,
) -> Array:
    """
    Select actions for a batch of MCTS policy outputs.

    Parameters
    ----------
    policy_outputs : mctx.PolicyOutput
        Batched output from mctx search, with batch dimension in each field.
    keys : Array
        Batch of random keys, shape (batch_size, 2).
    legal_masks : Array
        Batch of legal action masks, shape (batch_size, num_actions).
    temperature : float
        Temperature for action selection (shared across batch).

    Returns
    -------
    Array
        Selected action indices, shape (batch_size,).
    """
    # ##>: Use vmap to apply select_action across the batch.
    # ##>: Temperature is static, so we use a lambda to capture it.
    return jax.vmap(lambda po, k, m: select_action(po, k, m, temperature))(policy_outputs, keys, legal_masks)


# scaffolding: reinforce/training/self_play.py's batched loop: one batched_select_action per step with temperature=1.0 and stand-in MCTS outputs
key = jax.random.PRNGKey(0)  # scaffolding
temperature = 1.0  # scaffolding: the self-play temperature
batch_size = 8  # scaffolding
calls = 0  # scaffolding
try:  # scaffolding
    for step in range(4):  # scaffolding
        key, mcts_key, action_key = jax.random.split(key, 3)  # scaffolding
        weights = jax.nn.softmax(jax.random.normal(mcts_key, (batch_size, 4)), axis=-1)  # scaffolding: stand-in for the batched search output
        policy_outputs = mctx.PolicyOutput(action=jnp.argmax(weights, axis=-1), action_weights=weights)  # scaffolding
        legal_masks = jnp.ones((batch_size, 4), dtype=bool)  # scaffolding
        action_keys = jax.random.split(action_key, batch_size)
        actions = batched_select_action(policy_outputs, action_keys, legal_masks, temperature)
        calls += 1  # scaffolding
    _report({"jit(select_action)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
