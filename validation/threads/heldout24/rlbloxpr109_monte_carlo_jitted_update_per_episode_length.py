# source: https://github.com/mlaux1/rl-blox/pull/109
# expect: shape-churn at line 112
# runtime: COMPILES 8 CALLS 12
# why: The jitted tabular Monte-Carlo `update` receives rew_arr/obs_arr/act_arr[start_t:i+1], whose length is the episode length, so each new episode length compiles again (8 compiles for 12 episodes).

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


import jax
import jax.numpy as jnp
import numpy as np
from jax import Array, jit, random
from jax.random import PRNGKey
from jax.typing import ArrayLike


# --- rl_blox/blox/value_policy.py ---
@jit
def get_greedy_action(
    key: PRNGKey, q_table: ArrayLike, observation: ArrayLike
) -> Array:
    # TODO: technically correct way is commented out because it is super slow
    # true_indices = q_table[observation] == q_table[observation].max()
    # return random.choice(key, jnp.flatnonzero(true_indices))
    return jnp.argmax(q_table[observation])


def get_epsilon_greedy_action(
    key: PRNGKey, q_table: ArrayLike, observation: ArrayLike, epsilon: float
) -> Array:
    key, subkey = random.split(key)
    roll = random.uniform(subkey)
    if roll < epsilon:
        return random.choice(key, jnp.arange(len(q_table[observation])))
    else:
        return get_greedy_action(key, q_table, observation)


class _ChainEnv:  # scaffolding: stand-in for gym.make("CliffWalking-v0") (gymnasium not installed); episodes end at random lengths
    def __init__(self, n_states=6, seed=0):  # scaffolding
        self.n, self.rng, self.s = n_states, np.random.default_rng(seed), 0  # scaffolding

    def reset(self):  # scaffolding
        self.s = 0  # scaffolding
        return self.s, {}  # scaffolding

    def step(self, action):  # scaffolding
        self.s = min(max(self.s + (1 if action == 1 else -1), 0), self.n - 1)  # scaffolding
        terminated = self.s == self.n - 1 or self.rng.random() < 0.2  # scaffolding
        return self.s, -1.0, terminated, False, {}  # scaffolding


# --- rl_blox/algorithm/monte_carlo.py ---
def train_monte_carlo(
    env,
    q_table: ArrayLike,
    total_timesteps: int,
    n_visits: ArrayLike | None = None,
    epsilon: float = 0.5,
    gamma: float = 0.99,
    seed: int = 1,
    logger=None,
) -> ArrayLike:
    key = jax.random.key(seed)

    observation, _ = env.reset()

    if n_visits is None:
        n_visits = jnp.zeros_like(q_table)

    obs_arr = jnp.empty((total_timesteps,), dtype=jnp.int32)
    act_arr = jnp.empty((total_timesteps,), dtype=jnp.int32)
    rew_arr = jnp.empty((total_timesteps,), dtype=jnp.float32)

    start_t = 0

    for i in range(total_timesteps):  # scaffolding: tqdm.trange in the repo
        key, action_key = jax.random.split(key)
        action = get_epsilon_greedy_action(
            action_key, q_table, observation, epsilon
        )

        obs_arr = obs_arr.at[i].set(int(observation))
        observation, reward, terminated, truncated, info = env.step(int(action))

        act_arr = act_arr.at[i].set(int(action))
        rew_arr = rew_arr.at[i].set(float(reward))

        if terminated or truncated:
            q_table, n_visits = update(
                q_table,
                n_visits,
                rew_arr[start_t : i + 1],
                obs_arr[start_t : i + 1],
                act_arr[start_t : i + 1],
                gamma,
            )
            _EPISODE_LENGTHS.append(i + 1 - start_t)  # scaffolding
            observation, _ = env.reset()
            start_t = i + 1
    return q_table, n_visits


@jax.jit
def update(
    q_table: ArrayLike,
    n_visits: ArrayLike,
    rewards: jnp.ndarray,
    observations: jnp.ndarray,
    actions: jnp.ndarray,
    gamma: float,
) -> tuple[jnp.ndarray, jnp.ndarray]:
    ep_len = rewards.shape[0]

    def _update_body(i, state):
        q_table, n_visits, ep_return = state
        idx = ep_len - 1 - i

        obs = observations[idx]
        act = actions[idx]
        rew = rewards[idx]

        ep_return = rew + gamma * ep_return
        n_visits = n_visits.at[obs, act].add(1)
        pred_error = ep_return - q_table[obs, act]
        q_table = q_table.at[obs, act].add(
            1.0 / n_visits[obs, act] * pred_error
        )

        return (q_table, n_visits, ep_return)

    q_table, n_visits, _ = jax.lax.fori_loop(
        0, ep_len, _update_body, (q_table, n_visits, 0.0)
    )

    return q_table, n_visits


_EPISODE_LENGTHS = []  # scaffolding
env = _ChainEnv()  # scaffolding
q_table = jnp.zeros((6, 2), dtype=jnp.float32)  # scaffolding: make_q_table(env)
q_table, n_visits = train_monte_carlo(env, q_table, total_timesteps=60, seed=1)  # scaffolding: examples/monte_carlo.py, cut down
print("episode lengths:", _EPISODE_LENGTHS)  # scaffolding
_report({"jit(update)"}, len(_EPISODE_LENGTHS))  # scaffolding
