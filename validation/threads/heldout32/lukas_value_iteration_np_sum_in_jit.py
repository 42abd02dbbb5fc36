# source: https://github.com/LukasSchaefer/jax_playground/blob/c2937104efe5d0694011f29f065880f219753579/value_iteration/value_iteration.py
# expect: none
# runtime: COMPILES 3 CALLS 453
# why: _compute_value calls NumPy's np.sum on a traced array inside @jax.jit/@vmap, and the jitted helpers are called from a Python while loop that branches on a device value and passes a Python float gamma, which all look like jit problems, but np.sum dispatches to the tracer's .sum method, the loop test runs outside jit, and each helper compiles once for all 453 iterations and 3 rounds.

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
import time

import numpy as np
import jax
from jax import numpy as jnp
from jax import jit, random, vmap


GAMMA = 0.9
THETA = 1e-15
ROUNDS = 3


def generate_random_mdp(num_states, num_actions):
    """Generates a random MDP with the specified number of states and actions

    :param num_states (int): number of states
    :param num_actions (int): number of actions
    :return: state_names (list of str),
             action_names (list of str),
             P (np.array of shape (num_states, num_actions, num_states)),
             R (np.array of shape (num_states, num_actions, num_states)),
    """
    states = ["s" + str(i) for i in range(num_states)]
    actions = ["a" + str(i) for i in range(num_actions)]

    transitions = np.random.rand(num_states, num_actions, num_states)
    transitions /= transitions.sum(axis=2, keepdims=True)
    rewards = np.random.rand(num_states, num_actions, num_states)
    return states, actions, transitions, rewards


def value_iteration_numpy(transitions, rewards, gamma=GAMMA, theta=THETA):
    """
    Performs value iteration on the given MDP.

    Args:
        transitions: transition function as a numpy array of shape (num_states, num_actions, num_states)
        rewards: reward function as a numpy array of shape (num_states, num_actions)
        gamma: discount factor
        theta: convergence threshold

    Returns:
        (np.ndarray, np.ndarray): (policy, value)
    """
    num_states, num_actions, _ = transitions.shape

    # Initialize value function
    value = np.zeros(num_states)

    delta = np.inf
    while delta >= theta:
        # Compute the value function
        value_new = np.max(np.sum(transitions * (rewards + gamma * value), axis=-1), axis=-1)
        delta = np.max(np.abs(value_new - value))
        value = value_new

    # Compute the policy
    policy = np.argmax(np.sum(transitions * (rewards + gamma * value), axis=-1), axis=-1)

    return policy, value


# (value_iteration_torch cut: torch.compile comparison, not JAX)


@jax.jit
@partial(jax.vmap, in_axes=(0, 0, None, None))
def _compute_value(transitions, rewards, value, gamma):
    return jnp.max(np.sum(transitions * (rewards + gamma * value), axis=-1), axis=-1)


@jax.jit
def _compute_delta(value_new, value):
    return jnp.max(jnp.abs(value_new - value))


@jax.jit
@partial(jax.vmap, in_axes=(0, 0, None, None))
def _compute_policy(transitions, rewards, value, gamma):
    return jnp.argmax(jnp.sum(transitions * (rewards + gamma * value), axis=-1), axis=-1)


def value_iteration_jax(transitions, rewards, gamma=GAMMA, theta=THETA):
    """
    Performs value iteration on the given MDP.

    Args:
        transitions: transition function as a numpy array of shape (num_states, num_actions, num_states)
        rewards: reward function as a numpy array of shape (num_states, num_actions)
        gamma: discount factor
        theta: convergence threshold

    Returns:
        (np.ndarray, np.ndarray): (policy, value)
    """
    num_states, num_actions, _ = transitions.shape

    # convert to jax arrays
    transitions = jnp.array(transitions)
    rewards = jnp.array(rewards)

    # Initialize value function
    value = jnp.zeros(num_states)

    delta = np.inf
    while delta >= theta:
        # Compute the value function
        value_new = _compute_value(transitions, rewards, value, gamma)
        delta = _compute_delta(value_new, value)
        value = value_new

    # Compute the policy
    policy = _compute_policy(transitions, rewards, value, gamma)

    return policy, value


N_CALLS = [0]  # scaffolding
_orig_compute_delta = _compute_delta  # scaffolding


def _compute_delta(value_new, value):  # scaffolding: count the loop iterations
    N_CALLS[0] += 1
    return _orig_compute_delta(value_new, value)


print("Generating Random MDP ...")
np.random.seed(0)  # scaffolding
num_states = 12  # scaffolding: int(input("Number of states: "))
num_actions = 3  # scaffolding: int(input("Number of actions: "))
states, actions, transition_function, reward_function = generate_random_mdp(num_states, num_actions)
print()

print("Value Iteration (Numpy)")
start = time.time()
policy, value = value_iteration_numpy(transition_function, reward_function)
end = time.time()
print(f"Time taken: {end - start:.3f}s")
print(f"Policy: {policy}")
print(f"Value: {value}")
print()
print("----------------------------------------")
print()

print("Value Iteration (Jax)")
for round in range(ROUNDS):
    print(f"\tRound {round}:")
    start = time.time()
    policy, value = value_iteration_jax(transition_function, reward_function, gamma=0.9)
    end = time.time()
    print(f"\tTime taken: {end - start:.3f}s")
    print(f"\tPolicy: {policy}")
    print(f"\tValue: {value}")
    print()
_report({"jit(_compute_value)", "jit(_compute_delta)", "jit(_compute_policy)"}, N_CALLS[0])
