# source: https://github.com/alucantonio/data_enhanced_simulation/blob/99e5b67931019bbdb1ebae5feff25f08773e2396/9_REINFORCE.ipynb
# expect: shape-churn at line 145
# runtime: COMPILES 6 CALLS 6
# why: Each episode's states, actions and rewards are lists of the episode's length turned into arrays, so the nnx.jit train_step (and the jitted discount_rewards) see a new leading dimension for every new episode length and recompile.

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
# cell 7
import numpy as np
from flax import nnx
# import gymnasium as gym  (not installed; see the stand-in below)
import optax
import jax.numpy as jnp
import jax


# scaffolding: gymnasium is not installed; a stand-in for gym.make("CartPole-v1") whose episodes
# end after preset numbers of steps (CartPole episodes end at varying lengths too)
class _StandInCartPole:  # scaffolding
    def __init__(self, lengths):  # scaffolding
        self._lengths = iter(lengths)  # scaffolding
        self._rng = np.random.default_rng(0)  # scaffolding
    def reset(self):  # scaffolding
        self._t, self._n = 0, next(self._lengths)  # scaffolding
        return self._rng.normal(size=4).astype(np.float32) * 0.05, {}  # scaffolding
    def step(self, action):  # scaffolding
        self._t += 1  # scaffolding
        return self._rng.normal(size=4).astype(np.float32) * 0.05, 1.0, self._t >= self._n, False, {}  # scaffolding
env = _StandInCartPole([12, 25, 9, 31, 17, 40])  # scaffolding: instead of gym.make("CartPole-v1")
# cell 10
@jax.jit
def discount_rewards(rewards, gamma=0.99):

    def discount_step(carry, reward):
        cumulative_reward = reward + gamma * carry
        return cumulative_reward, cumulative_reward
    
    # Use reverse to match the backward computation in the loop
    _, discounted_rewards = jax.lax.scan(discount_step, 0.0, rewards[::-1])

    # Normalize the rewards to be within the [0,1] interval for numerical stability
    discounted_rewards /= discounted_rewards.max()
    
    # Reverse the result to match the original order
    return discounted_rewards[::-1]
# cell 12
#@title Solution:

class PolicyNetwork(nnx.Module):
  def __init__(self, l1, l2, l3, rngs: nnx.Rngs):
    self.linear1 = nnx.Linear(l1, l2, rngs=rngs)
    self.linear2 = nnx.Linear(l2, l3, rngs=rngs)

  def __call__(self, x):
    y = nnx.leaky_relu(self.linear1(x))
    y = self.linear2(y)
    y = nnx.softmax(y)
    return y

l1 = 4
l2 = 150
l3 = 2

learning_rate = 0.002
model = PolicyNetwork(l1, l2, l3, nnx.Rngs(0))
optimizer = nnx.ModelAndOptimizer(model, optax.adam(learning_rate))  # scaffolding: nnx.Optimizer(model, tx) needs wrt= on flax 0.12; the notebook's later versions use ModelAndOptimizer
# cell 14
#@title Solution:

@nnx.jit
def loss_fn(model, states, actions, discounted_rewards):
    log_probs = jnp.log(jnp.take_along_axis(model(states), actions[:, None], axis=1).squeeze())
    return -jnp.sum(log_probs * discounted_rewards)


@nnx.jit
def train_step(model, optimizer, states, actions, discounted_rewards):
    loss, grads = nnx.value_and_grad(loss_fn)(model, states, actions, discounted_rewards)
    optimizer.update(grads)
    return loss
# cell 17
#@title Solution:

MAX_DUR = 200
MAX_EPISODES = 6  # scaffolding: 500 in the notebook
gamma = 0.99
score = np.zeros(MAX_EPISODES)

for episode in range(MAX_EPISODES):
    curr_state = env.reset()[0]
    states, actions = [], []

    num_t = MAX_DUR 
    
    for t in range(MAX_DUR):
        act_prob = model(curr_state)
        action = np.random.choice(np.array([0,1]), p=act_prob.__array__())

        next_state, _, terminated, truncated, info = env.step(action)

        # Record episode data
        states.append(curr_state)
        actions.append(action)

        curr_state = next_state

        if terminated or truncated:
            num_t = t + 1
            break

    ep_len = len(states)
    score[episode] = ep_len
    rewards = np.ones(ep_len)

    disc_future_rewards = discount_rewards(rewards)

    # standardization of returns to make training more stable
    # (see https://huggingface.co/learn/deep-rl-course/unit4/hands-on)
    disc_future_rewards = (disc_future_rewards-disc_future_rewards.mean())/(disc_future_rewards.std())

    states = np.array(states)
    actions = np.array(actions)

    loss = train_step(model, optimizer, states, actions, disc_future_rewards)
        
    if episode % 100 == 0:
        print(f"Episode {episode}, Total Reward: {ep_len}")
_report({"jit(train_step)"}, MAX_EPISODES)  # scaffolding
