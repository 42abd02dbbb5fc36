# source: https://github.com/jugheadjones10/rl-for-dummies/blob/5aca13e14d424e24460410c5dc887ebea343418a/rl_for_dummies/dqn_simple_jax_frozen_lake.py
# expect: shape-churn at line 219
# runtime: COMPILES 2 CALLS 32
# why: the action passed to the jitted update is a numpy int64 when exploring (action_space.sample()) and a weak-typed Python int when greedy (int(jnp.argmax(...))), so update compiles once for each kind (2 compiles in 32 steps).
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



import os
import time

os.environ["JAX_PLATFORM_NAME"] = "cpu"
import random

# import gymnasium as gym  # scaffolding: gymnasium is not installed; a FrozenLake stand-in follows
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
# from torch.utils.tensorboard.writer import SummaryWriter  # scaffolding: tensorboard is not installed; a no-op writer follows
from types import SimpleNamespace  # scaffolding


class SummaryWriter:  # scaffolding: no-op stand-in
    def __init__(self, *a, **kw):  # scaffolding
        pass  # scaffolding

    def add_scalar(self, *a, **kw):  # scaffolding
        pass  # scaffolding


class _Discrete:  # scaffolding: gym.spaces.Discrete; sample() returns np.int64 as gymnasium's does
    def __init__(self, n):  # scaffolding
        self.n = n  # scaffolding
        self._rng = np.random.default_rng()  # scaffolding

    def seed(self, s):  # scaffolding
        self._rng = np.random.default_rng(s)  # scaffolding

    def sample(self):  # scaffolding
        return np.int64(self._rng.integers(self.n))  # scaffolding


class _Box:  # scaffolding: gym.spaces.Box
    def __init__(self, low, high, shape, dtype=np.float32):  # scaffolding
        self.shape = shape  # scaffolding


class _FrozenLake:  # scaffolding: FrozenLake-v1 4x4, is_slippery=False (same map and rules)
    MAP = "SFFFFHFHFFFHHFFG"  # scaffolding

    def __init__(self):  # scaffolding
        self.observation_space = _Discrete(16)  # scaffolding
        self.action_space = _Discrete(4)  # scaffolding

    def reset(self):  # scaffolding
        self.pos, self.t = 0, 0  # scaffolding
        return 0, {}  # scaffolding

    def step(self, a):  # scaffolding: 0 left, 1 down, 2 right, 3 up
        r, c = divmod(self.pos, 4)  # scaffolding
        r, c = [(r, max(c - 1, 0)), (min(r + 1, 3), c), (r, min(c + 1, 3)), (max(r - 1, 0), c)][a]  # scaffolding
        self.pos, self.t = r * 4 + c, self.t + 1  # scaffolding
        tile = self.MAP[self.pos]  # scaffolding
        return self.pos, float(tile == "G"), tile in "GH" or self.t >= 20, False, {}  # scaffolding: also ends after 20 steps so the short run terminates

    def close(self):  # scaffolding
        pass  # scaffolding


class _ObservationWrapper:  # scaffolding: gym.ObservationWrapper
    def __init__(self, env):  # scaffolding
        self.env = env  # scaffolding
        self.observation_space = env.observation_space  # scaffolding
        self.action_space = env.action_space  # scaffolding

    def reset(self):  # scaffolding
        obs, info = self.env.reset()  # scaffolding
        return self.observation(obs), info  # scaffolding

    def step(self, a):  # scaffolding
        obs, r, d, t, i = self.env.step(a)  # scaffolding
        return self.observation(obs), r, d, t, i  # scaffolding

    def close(self):  # scaffolding
        self.env.close()  # scaffolding


gym = SimpleNamespace(ObservationWrapper=_ObservationWrapper, make=lambda name, is_slippery=False: _FrozenLake(),  # scaffolding
                      spaces=SimpleNamespace(Discrete=_Discrete, Box=_Box))  # scaffolding

print("JAX devices: ", jax.devices())
# print("Default device: ", jax.default_device())  # scaffolding: on jax 0.10.2 jax.default_device() is a config context manager that needs an argument (TypeError)


class OneHotWrapper(gym.ObservationWrapper):
    def __init__(self, env):
        super().__init__(env)
        assert isinstance(env.observation_space, gym.spaces.Discrete)
        self.n = env.observation_space.n
        self.observation_space = gym.spaces.Box(0, 1, (self.n,), dtype=np.float32)

    def observation(self, obs):
        one_hot = np.zeros(self.n, dtype=np.float32)
        one_hot[obs] = 1.0
        return one_hot


class QNetwork(nn.Module):
    action_dim: int

    @nn.compact
    def __call__(self, x: jnp.ndarray):
        x = nn.Dense(128)(x)
        x = nn.relu(x)
        x = nn.Dense(self.action_dim)(x)
        return x


learning_rate = 0.001
gamma = 0.99
epsilon = 0.1  # Fixed epsilon
SEED = 40


def linear_schedule(start_e: float, end_e: float, duration: int, t: int):
    slope = (end_e - start_e) / duration
    return max(slope * t + start_e, end_e)


def main():
    # Setup
    # Seeding
    random.seed(SEED)
    np.random.seed(SEED)
    key = jax.random.PRNGKey(SEED)
    key, init_key = jax.random.split(key)

    run_name = f"FrozenLake__{int(time.time())}"
    writer = SummaryWriter(f"runs/{run_name}")

    # Environment
    env = gym.make("FrozenLake-v1", is_slippery=False)
    env = OneHotWrapper(env)
    env.action_space.seed(SEED)

    # Initialize network and optimizer
    q_network = QNetwork(action_dim=env.action_space.n)

    s, _ = env.reset()
    params = q_network.init(init_key, s)
    optimizer = optax.adam(learning_rate=learning_rate)
    opt_state = optimizer.init(params)

    apply_fn = jax.jit(q_network.apply)

    @jax.jit
    def update(params, s, a, r, s_prime, done):
        q_next = apply_fn(params, s_prime)
        q_next = jnp.max(q_next, axis=-1)
        next_q_value = r + (1 - done) * gamma * q_next

        def loss_fn(params):
            q_values = apply_fn(params, s)
            current_q = q_values[a]
            loss = 0.5 * (current_q - next_q_value) ** 2
            return loss

        grads = jax.grad(loss_fn)(params)
        return grads

    time_taken = 0.0
    score = 0.0
    print_interval = 20

    for n_epi in range(3):  # scaffolding: range(5000) in the repo
        start_time = time.time()

        s, _ = env.reset()
        done = False

        returns = 0
        while not done:
            epsilon = linear_schedule(
                0.1,
                0,
                100,
                n_epi,
            )
            if random.random() < epsilon:
                action = env.action_space.sample()
            else:
                q_values = apply_fn(params, s)
                action = int(jnp.argmax(q_values))
            s_prime, r, done, truncated, info = env.step(action)
            score += r
            returns += r
            # Train
            grads = update(params, s, action, r, s_prime, done or truncated)
            _ACTION_TYPES.append(type(action).__name__)  # scaffolding: record what the action was
            updates, opt_state = optimizer.update(grads, opt_state)
            params = optax.apply_updates(params, updates)
            s = s_prime

        time_taken += time.time() - start_time

        # TRY NOT TO MODIFY: record rewards for plotting purposes
        print(f"episode_number={n_epi}, episodic_return={returns}")
        writer.add_scalar("charts/episodic_return", returns, n_epi)
        returns = 0

        if n_epi % print_interval == 0 and n_epi != 0:
            print(
                f"# of episode: {n_epi}, avg score: {score/print_interval}, avg episode time: {time_taken/print_interval:.4f} sec"
            )
            score = 0.0
            time_taken = 0.0

    env.close()


_ACTION_TYPES = []  # scaffolding
if __name__ == "__main__":
    main()
    print("update calls by action type:", {t: _ACTION_TYPES.count(t) for t in set(_ACTION_TYPES)})  # scaffolding
    _report({"jit(update)"}, len(_ACTION_TYPES))  # scaffolding
