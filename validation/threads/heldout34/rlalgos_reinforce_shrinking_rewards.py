# source: https://github.com/magnusdk/rl_algos/blob/eb7ac4dea70bbecb394233890da01c29c4d32fb2/rl_algos/REINFORCE/agent.py
# expect: shape-churn at line 146
# runtime: COMPILES 6 CALLS 6
# why: update_params calls the jitted update_step once per time step t with trajectory[t:].r, whose length shrinks by one each step, so every step of every episode length compiles a new update_step.
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
from typing import List

import jax
import jax.numpy as jnp
import numpy as np

# --- rl_algos/REINFORCE/trajectory.py ---
TrajectoryItem = namedtuple("TrajectoryItem", ["s", "a", "r", "next_s"])


class Trajectory:
    """Utility class for keeping track of and working with trajectories.

    Implements __getitem__ and __len__, so works kind of like a list."""

    def __init__(self, traj: List[TrajectoryItem] = []):
        self._traj = traj

    def append(self, s, a, r, next_s):
        self._traj.append(TrajectoryItem(s=s, a=a, r=r, next_s=next_s))

    @property
    def r(self):
        return np.array([r for _, _, r, _ in self._traj])

    def __getitem__(self, key):
        res = self._traj.__getitem__(key)
        if isinstance(res, list):
            res = Trajectory(res)
        return res

    def __len__(self):
        return len(self._traj)


# --- rl_algos/REINFORCE/networks.py ---
def get_network():
    def logistic(x):
        return 1 / (1 + jnp.exp(-x))

    def network(params, state):
        p = logistic(jnp.dot(params, state))
        return jnp.array([p, 1 - p])

    return jax.jit(network)


class rlax:  # scaffolding: rlax is not installed; categorical_sample stand-in
    @staticmethod
    def categorical_sample(key, probs):
        return jax.random.categorical(key, jnp.log(probs))


# --- rl_algos/REINFORCE/agent.py ---
def _jitted_select_action(network):
    def select_action(params, rng_key, obs):
        action_probs = network(params, obs)

        # Sample randomly using the calculated action probabilities
        return rlax.categorical_sample(rng_key, action_probs)

    return jax.jit(select_action)


def _jitted_update_step(network, discount, alpha):
    def update_step(params, t, rewards_from_t, state, a):
        # Calculate discounted return
        discounts = discount ** jnp.arange(len(rewards_from_t))
        G = jnp.sum(discounts * jnp.array(rewards_from_t))

        # Define the gradient of the log-probability of choosing action a
        @jax.grad  # Behold (one of) the power(s) of JAX!
        def log_prob_of_a_gradient(params):
            action_probs = network(params, state)
            prob_of_a = action_probs[a]
            return jnp.log(prob_of_a)

        # Update parameters
        def update_params(old_params, gradient):
            update = alpha * (discount ** t) * G * gradient
            return old_params + update

        # Params (and thus also gradient) is a FlatMapping (pytree), and we must therefore map the update over each leaf.
        new_params = jax.tree_util.tree_map(
            update_params, params, log_prob_of_a_gradient(params)
        )
        return new_params

    return jax.jit(update_step)


class Agent:
    def __init__(
        self,
        network,
        initial_params,
        rng_key,
        discount: float = 0.99,
        alpha: float = 0.01,
    ):
        self.params = initial_params
        self.rng_key = rng_key

        # Use jitted (just-in-time compilated) functions because jit makes them run faster.
        self._select_action = _jitted_select_action(network)
        self._update_step = _jitted_update_step(network, discount, alpha)

    def select_action(self, obs):
        self.rng_key, sub_rng_key = jax.random.split(self.rng_key)
        a = self._select_action(self.params, sub_rng_key, obs)
        return int(a)

    def update_params(self, trajectory: Trajectory):
        # For every step t in trajectory, perform update.
        # See REINFORCE algorithm.
        for t in range(len(trajectory)):
            s, a, _, _ = trajectory[t]
            rewards_from_t = trajectory[t:].r
            self.params = self._update_step(self.params, t, rewards_from_t, s, a)


def gen_trajectory(agent, n_steps=6):  # scaffolding: stands in for gym_util.gen_trajectory on CartPole-v1
    traj = Trajectory([])
    s = np.full(4, 0.1, dtype=np.float32)
    for i in range(n_steps):
        a = agent.select_action(s)
        next_s = s + 0.01
        traj.append(s, a, 1.0, next_s)
        s = next_s
    return traj


k1, k2 = jax.random.split(jax.random.PRNGKey(1))  # scaffolding
agent = Agent(get_network(), jax.random.uniform(k1, (4,)), k2)  # scaffolding
trajectory = gen_trajectory(agent)  # scaffolding: one 6-step episode
agent.update_params(trajectory)
_report({"jit(update_step)"}, 6)
