# source: https://github.com/nilsimda/learn_jax/blob/3e29bc485d056d3178bea79960b7026c28ff5ff4/policy_gradients.ipynb
# expect: jit-in-loop-or-body at line 92
# runtime: COMPILES 33 CALLS 33
# why: play_one_step builds jax.jit(jax.grad(loss_fn)) afresh on every environment step (jax.grad returns a new function), so every one of the 33 calls traces and compiles again; the commit's message and the notebook's last cell note 'training gets slower over time'.

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

key, subkey = random.split(key)
n_iterations = 2  # scaffolding: was 150
n_episodes_per_update = 2  # scaffolding: was 10
n_max_steps = 200
uniform_probs = random.uniform(subkey, (n_iterations, n_episodes_per_update, n_max_steps))
uniform_probs.shape

@jax.jit
def loss_fn(params, obs, uni_prob):
    logits = model.apply(params, obs[jnp.newaxis])
    left_proba = nn.sigmoid(logits)
    action = uni_prob > left_proba
    labels = jnp.array([[1.]]) - action
    return optax.sigmoid_binary_cross_entropy(logits, labels).mean(), action

_N_CALLS = [0]  # scaffolding

def play_one_step(params, env, obs, uni_prob):
    _N_CALLS[0] += 1  # scaffolding
    grads, action = jax.jit(jax.grad(loss_fn, has_aux=True))(params, obs, uni_prob)
    obs, reward, done, truncated, _ = env.step(action.item())
    return obs, reward, done, truncated, grads

play_one_step(params, env, obs, uniform_probs[0, 0, 0])

def play_multiple_episodes(env, n_episodes, n_max_steps, params, iter):
    all_rewards = []
    all_grads = []
    for episode in range(n_episodes):
        current_rewards = []
        current_grads = []
        obs, _ = env.reset()
        for step in range(n_max_steps):
            obs, reward, done, truncated, grads = play_one_step(
                params, env, obs, uniform_probs[iter, episode, step]
            )
            current_rewards.append(reward)
            current_grads.append(grads)
            if done or truncated: break
        all_rewards.append(current_rewards)
        all_grads.append(current_grads)
    return all_rewards, all_grads

def discount_rewards(rewards, discount_factor):
    discounted = np.array(rewards)
    for step in range(len(rewards)-2, -1, -1):
        discounted[step] += discounted[step+1] * discount_factor 
    return discounted

def discount_and_normalize_rewards(all_rewards, discount_factor):
    all_discounted_rewards = [discount_rewards(rewards, discount_factor)
                              for rewards in all_rewards]
    flat_rewards = np.concatenate(all_discounted_rewards)
    mean, std = flat_rewards.mean(), flat_rewards.std() + 1e-8  # scaffolding: +1e-8, the stub's rewards are constant
    return jax.tree_util.tree_map(lambda dr: (dr-mean)/std, all_discounted_rewards)  # scaffolding: jax.tree_map -> jax.tree_util.tree_map

opt = optax.nadam(learning_rate=0.01)
opt_state = opt.init(params)
discount_factor = 0.95

for it in range(n_iterations):
    all_rewards, all_grads = play_multiple_episodes(
        env, n_episodes_per_update, n_max_steps, params, it 
    )

    total_rewards = sum(map(sum, all_rewards))
    print(f"\rIteration: {it + 1}/{n_iterations},"
          f" mean rewards: {total_rewards / n_episodes_per_update:.1f}", end="")

    all_final_rewards = discount_and_normalize_rewards(all_rewards, discount_factor)
    all_mean_grads = []
    params_arr, params_info = jax.tree_util.tree_flatten(params)
    for var_index in range(len(params_arr)):
        scaled_grads = jnp.array([reward * jax.tree_util.tree_leaves(all_grads[episode][step])[var_index]
                  for episode, rewards in enumerate(all_final_rewards)
                  for step, reward in enumerate(rewards)])
        mean_grads = jnp.mean(scaled_grads, axis=0)
        all_mean_grads.append(mean_grads)
    
    grads = jax.tree_util.tree_unflatten(params_info, all_mean_grads)
    updates, opt_state = opt.update(grads, opt_state, params)
    params = optax.apply_updates(params, updates)

print()  # scaffolding
_report({"jit(loss_fn)"}, _N_CALLS[0])  # scaffolding
