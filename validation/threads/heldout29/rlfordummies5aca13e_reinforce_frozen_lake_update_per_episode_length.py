# source: https://github.com/jugheadjones10/rl-for-dummies/blob/5aca13e14d424e24460410c5dc887ebea343418a/rl_for_dummies/reinforce_jax_frozen_lake.py
# expect: shape-churn at line 185
# runtime: COMPILES 9 CALLS 12
# why: the jitted update takes the whole episode as a Python list of (s, a, r) tuples, so every new episode length is a new pytree structure and update traces and compiles again (9 compiles for 12 episodes of 9 distinct lengths).
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

os.environ["JAX_PLATFORM_NAME"] = "cpu"

import random
import time

import flax.linen as nn
# import gymnasium as gym  # scaffolding: gymnasium is not installed; a FrozenLake stand-in follows
import jax
import jax.numpy as jnp
import numpy as np
import optax
from types import SimpleNamespace  # scaffolding


class _Discrete:  # scaffolding: gym.spaces.Discrete
    def __init__(self, n):  # scaffolding
        self.n = n  # scaffolding


class _Box:  # scaffolding: gym.spaces.Box
    def __init__(self, low, high, shape, dtype=np.float32):  # scaffolding
        self.shape = shape  # scaffolding


class _FrozenLake:  # scaffolding: FrozenLake-v1 4x4, is_slippery=False (same map and rules)
    MAP = "SFFFFHFHFFFHHFFG"  # scaffolding

    def __init__(self):  # scaffolding
        self.observation_space = _Discrete(16)  # scaffolding
        self.action_space = _Discrete(4)  # scaffolding

    def reset(self):  # scaffolding
        self.pos = 0  # scaffolding
        return 0, {}  # scaffolding

    def step(self, a):  # scaffolding: 0 left, 1 down, 2 right, 3 up
        r, c = divmod(self.pos, 4)  # scaffolding
        r, c = [(r, max(c - 1, 0)), (min(r + 1, 3), c), (r, min(c + 1, 3)), (max(r - 1, 0), c)][a]  # scaffolding
        self.pos = r * 4 + c  # scaffolding
        tile = self.MAP[self.pos]  # scaffolding
        return self.pos, float(tile == "G"), tile in "GH", False, {}  # scaffolding

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

# Print device information:
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


class Policy(nn.Module):
    action_dim: int

    @nn.compact
    def __call__(self, x: jnp.ndarray):
        x = nn.Dense(128)(x)
        x = nn.relu(x)
        logits = nn.Dense(self.action_dim)(x)
        return logits


learning_rate = 0.0002
gamma = 0.98
SEED = 42


def main():
    random.seed(SEED)
    np.random.seed(SEED)
    key = jax.random.PRNGKey(SEED)
    key, init_key = jax.random.split(key)

    env = gym.make("FrozenLake-v1", is_slippery=False)
    env = OneHotWrapper(env)
    pi = Policy(action_dim=env.action_space.n)

    s, _ = env.reset()
    params = pi.init(init_key, s)
    optimizer = optax.adam(learning_rate=learning_rate)
    opt_state = optimizer.init(params)

    apply_fn = jax.jit(pi.apply)

    @jax.jit
    def update(params, data):
        def loss_fn(params):
            R = 0.0
            loss = 0.0
            # Process episode in reverse to compute returns
            for s, a, r in reversed(data):
                R = r + gamma * R
                logits = apply_fn(params, s)
                log_prob = jax.nn.log_softmax(logits)[a]
                loss += log_prob * R
            return -loss / len(data)

        grads = jax.grad(loss_fn)(params)
        return grads

    time_taken = 0.0
    score = 0.0
    print_interval = 20

    for n_epi in range(12):  # scaffolding: range(10000) in the repo
        start_time = time.time()

        s, _ = env.reset()
        done = False
        data = []

        while not done:
            logits = apply_fn(params, s)
            key, sample_key = jax.random.split(key)
            action = jax.random.categorical(sample_key, logits)
            action = int(action)
            s_prime, r, done, truncated, info = env.step(action)
            data.append((s, action, r))
            s = s_prime
            score += r

        grads = update(params, data)
        updates, opt_state = optimizer.update(grads, opt_state)
        params = optax.apply_updates(params, updates)
        _LENGTHS.append(len(data))  # scaffolding: record the episode length

        time_taken += time.time() - start_time

        if n_epi % print_interval == 0 and n_epi != 0:
            print(
                f"# of episode :{n_epi}, avg score : {score / print_interval}, avg episode time: {time_taken / print_interval:.4f} sec"
            )
            score = 0.0
            time_taken = 0.0

    env.close()


_LENGTHS = []  # scaffolding
if __name__ == "__main__":
    main()
    print("episode lengths:", _LENGTHS, "distinct:", len(set(_LENGTHS)))  # scaffolding
    _report({"jit(update)"}, 12)  # scaffolding
