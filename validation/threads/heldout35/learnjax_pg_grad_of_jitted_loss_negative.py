# source: https://github.com/nilsimda/learn_jax/blob/c532b438788cdf85bfa75df7dee7be9c9694c507/policy_gradients.ipynb
# expect: none
# runtime: COMPILES 2 CALLS 33
# why: The previous commit ('faster pg cartpole'): eager jax.grad of a module-level @jax.jit loss_fn per step; the inner jit is one function object, so its two pieces compile once and are reused over 33 calls.

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
import jax
import flax
import optax
import numpy as np
from jax import random, numpy as jnp


class _StubCartPole:  # scaffolding: stand-in for gym.make("CartPole-v1") (gymnasium not installed)
    def __init__(self):
        self._rng = np.random.RandomState(0)
        self._t = 0

    def reset(self, seed=None):
        self._t = 0
        return self._rng.uniform(-0.05, 0.05, 4).astype(np.float32), {}

    def step(self, action):
        self._t += 1
        obs = self._rng.uniform(-0.05, 0.05, 4).astype(np.float32)
        return obs, 1.0, False, self._t >= 8, {}


env = _StubCartPole()  # scaffolding
obs, info = env.reset(seed=42)

from flax import linen as nn
from jax import random, numpy as jnp

class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.Dense(5)(x)
        x = nn.relu(x)
        x = nn.Dense(1)(x)
        return x

key, subkey = random.split(random.PRNGKey(0))
model = MLP()
params = model.init(subkey, obs[np.newaxis, :])
y = model.apply(params, obs[np.newaxis, :])

print('Initialized parameter shapes:\n', jax.tree_util.tree_map(jnp.shape, params))  # scaffolding: jax.tree_map -> jax.tree_util.tree_map (removed API)
print('Output:\n', y)

@jax.jit
def loss_fn(params, obs, key):
    logits = model.apply(params, obs[np.newaxis])
    left_proba = nn.sigmoid(logits)
    action = random.uniform(key, (1,1)) > left_proba
    labels = jnp.array([[1.]]) - action
    return optax.sigmoid_binary_cross_entropy(logits, labels).mean(), action

_N_CALLS = [0]  # scaffolding

def play_one_step(params, model, env, obs, key):
    _N_CALLS[0] += 1  # scaffolding
    grads, action = jax.grad(loss_fn, has_aux=True)(params, obs, key)
    obs, reward, done, truncated, _ = env.step(action.item())
    return obs, reward, done, truncated, grads

play_one_step(params, model, env, obs, key)

def play_multiple_episodes(env, n_episodes, n_max_steps, model, params, key):
    all_rewards = []
    all_grads = []
    for _ in range(n_episodes):
        current_rewards = []
        current_grads = []
        obs, _ = env.reset()
        for _ in range(n_max_steps):
            key, subkey = random.split(key)
            obs, reward, done, truncated, grads = play_one_step(
                params, model, env, obs, subkey
            )
            current_rewards.append(reward)
            current_grads.append(grads)
            if done or truncated: break
        all_rewards.append(current_rewards)
        all_grads.append(current_grads)
    return all_rewards, all_grads

all_rewards, all_grads = play_multiple_episodes(env, 4, 200, model, params, key)  # scaffolding: one round of episodes instead of the training loop
print([sum(r) for r in all_rewards])  # scaffolding
_report({"jit(loss_fn)"}, _N_CALLS[0])  # scaffolding
