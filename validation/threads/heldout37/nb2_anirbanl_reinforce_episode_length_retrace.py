# source: https://github.com/anirbanl/jax-code/blob/b29205d54790b1f8766cd202d49139a6ed67fe98/rl/jax_reinforce_cartpole.ipynb
# expect: shape-churn at line 119
# runtime: COMPILES 3 CALLS 6
# why: Policy.update passes the whole episode (states and actions stacked to length T) to the jitted step_fn, so every new episode length is a new input shape and a new compile.

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
import numpy as np
from collections import deque
from jax import jacobian, lax
import jax
import jax.numpy as jp
from jax import jit, grad, vmap, random, jacrev, jacobian, jacfwd, value_and_grad
from functools import partial
from jax.example_libraries import stax  # scaffolding: jax.experimental.stax in the notebook (moved)
from jax.example_libraries.stax import Dense, Softmax  # scaffolding: same move; unused layers and jax.ops/tree_multimap imports cut
from jax.nn import softmax, sigmoid
from jax.example_libraries import optimizers  # scaffolding: jax.experimental.optimizers in the notebook (moved)


class CartPoleStandIn:  # scaffolding: gym's CartPole-v0 dynamics (gym is not installed)
    def __init__(self):
        self.rng = np.random.RandomState(0)
        self.n = 2

    def seed(self, s):
        self.rng = np.random.RandomState(s)

    def reset(self):
        self.state = self.rng.uniform(-0.05, 0.05, size=(4,))
        return np.array(self.state, dtype=np.float32)

    def step(self, action):
        x, x_dot, theta, theta_dot = self.state
        force = 10.0 if action == 1 else -10.0
        costheta, sintheta = np.cos(theta), np.sin(theta)
        temp = (force + 0.05 * theta_dot ** 2 * sintheta) / 1.1
        thetaacc = (9.8 * sintheta - costheta * temp) / (0.5 * (4.0 / 3.0 - 0.1 * costheta ** 2 / 1.1))
        xacc = temp - 0.05 * thetaacc * costheta / 1.1
        x, x_dot = x + 0.02 * x_dot, x_dot + 0.02 * xacc
        theta, theta_dot = theta + 0.02 * theta_dot, theta_dot + 0.02 * thetaacc
        self.state = (x, x_dot, theta, theta_dot)
        done = bool(x < -2.4 or x > 2.4 or theta < -0.2095 or theta > 0.2095)
        return np.array(self.state, dtype=np.float32), 1.0, done, {}


# %% cell 2
def one_hot(x, k, dtype=np.float32):
    """Create a one-hot encoding of x of size k."""
    return jp.array(x[:, None] == jp.arange(k), dtype)

class Policy:
    def __init__(self, rng, num_actions, s_size=4, h_size=16, a_size=2, lr=1e-2):
        super(Policy, self).__init__()
        self.key = rng
        self.init_fun, self.apply_fun = stax.serial(
            Dense(h_size), Dense(a_size), Softmax
        )
        self.in_shape = (-1, s_size)
        self.opt_init, self.opt_update, self.get_params = optimizers.adam(step_size=lr)
        _, self.net_params = self.init_fun(self.key, self.in_shape)
        # print(net_params)
        self.opt_state = self.opt_init(self.net_params)
        self.opt_t = 1
        self.num_actions = num_actions

        def loss_fn(params, sar):
            one_hot_actions = one_hot(sar['a'], self.num_actions)
            probs = self.apply_fun(params, sar['s'])
            return jp.sum(- one_hot_actions * jp.log(probs) * sar['r'])

        @jit
        def step_fn(i, opt_state, sar):
            params = self.get_params(opt_state)
            l, g = value_and_grad(loss_fn)(params, sar)
            return self.opt_update(i, g, opt_state), l
        self.step = step_fn


    def update_key(self):
        self.key, _ = jax.random.split(self.key)
        return self.key

    def act(self, state):
        probs = self.apply_fun(self.net_params, state)
        uf = jax.random.uniform(self.update_key(), (1,), minval=0.0, maxval=1.0)[0]
        action = jp.argmax(uf < jp.cumsum(probs))
        # print(action, probs, uf)
        return action.item()#, jp.log(probs[action])

    def update(self, sar, gamma=1.0):
        discounts = [gamma**i for i in range(len(sar['r'])+1)]
        sar['r'] = sum([a*b for a,b in zip(discounts, sar['r'])])
        # print(f"R={sar['r']}")
        sar['s'] = jp.array(sar['s'])
        sar['a'] = jp.array(sar['a'])

        self.opt_state, loss = self.step(self.opt_t, self.opt_state, sar)
        self.opt_t += 1
        self.net_params = self.get_params(self.opt_state)
        return loss



# %% cell 3
def reinforce(env, policy, n_episodes=10000, max_t=1000, gamma=1.0, print_every=100):
    scores_deque = deque(maxlen=100)
    scores = []
    for i_episode in range(1, n_episodes+1):
        # print(f"Episode {i_episode}")
        saved_log_probs = []
        rewards = []
        sar = {key: [] for key in 'sar'}
        state = env.reset()
        # print(f'State:{state}')
        for t in range(max_t):
            action = policy.act(state)
            sar['s'].append(state)
            sar['a'].append(action)
            state, reward, done, _ = env.step(action)
            sar['r'].append(reward)
            rewards.append(reward)
            if done:
                # print(f'Done {t}')
                break 
        scores_deque.append(sum(rewards))
        scores.append(sum(rewards))
        l = policy.update(sar, gamma)
        # print(f'loss {l}')
        
        if i_episode % print_every == 0:
            print('Episode {}\tAverage Score: {:.2f}'.format(i_episode, np.mean(scores_deque)))
        if np.mean(scores_deque)>=195.0:
            print('Environment solved in {:d} episodes!\tAverage Score: {:.2f}'.format(i_episode-100, np.mean(scores_deque)))
            break
        
    return scores

# (plot_scores cut: scaffolding)

# %% cell 4
def main():
    env = CartPoleStandIn()  # scaffolding: gym.make('CartPole-v0')
    env.seed(0)
    rng = jax.random.PRNGKey(0)
    pi = Policy(rng, 2, lr=1e-3)  # scaffolding: env.action_space.n
    scores = reinforce(env, pi, n_episodes=6, print_every=1)  # scaffolding: 10000 episodes
    print("episode lengths:", scores)  # scaffolding
    return len(scores)

if __name__ == '__main__':
    _report({"jit(step_fn)"}, main())  # scaffolding
