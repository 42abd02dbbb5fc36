# source: https://github.com/alucantonio/data_enhanced_simulation/blob/49569a3bd7ae3d10b4becfd177d353a0e3f994e9/7_IntroRL_solutions.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 20
# why: The nnx.jit-ed _train_epoch reads the globals env (a stateful ContextBandit whose bandit_matrix is baked in at trace time) and arms, and is called 20 times from a Python loop; neither global changes after the first call and the state/key carried through keep their types, so it compiles once.

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
# cell 3
from jax import random, vmap
import numpy as np
from flax import nnx
import optax
import jax.numpy as jnp
# cell 4
def softmax(av, tau=1.12):
    softm = (jnp.exp(av / tau) / jnp.sum(jnp.exp(av / tau)))
    return softm

def one_hot(N, pos, val=1):
    one_hot_vec = jnp.zeros(N)
    one_hot_vec = one_hot_vec.at[pos].set(val)
    return one_hot_vec

def running_mean(x,N=50):
    c = x.shape[0] - N
    y = np.zeros(c)
    conv = np.ones(N)
    for i in range(c):
        y[i] = (x[i:i+N] @ conv)/N
    return y
# cell 6
class ContextBandit:
    def __init__(self, seed=42, arms=10):
        key = random.key(seed)
        self.arms = arms
        self.init_distribution(key, arms)
        
    def init_distribution(self, key, arms):
        self.bandit_matrix = random.uniform(key, shape=(arms,arms))

    def reward(self, prob, key):
        subkeys = random.split(key, self.arms + 1)
        key = subkeys[0]

        rewards = vmap(lambda k: random.uniform(k) < prob)(subkeys[1:])
        
        return rewards.sum(), key 

    def update_state(self, key):
        key, subkey = random.split(key)
        state = random.randint(subkey, shape=(), minval=0, maxval=self.arms)
        return state, key
        
    def get_reward(self,arm,state,key):
        return self.reward(self.bandit_matrix[arm,state], key)
        
    def choose_arm(self, arm, state, key):
        reward, key = self.get_reward(arm, state, key)
        state, key = self.update_state(key)
        return reward, state, key
# cell 7
arms = 10
N, D_in, H, D_out = 1, arms, 100, arms
env = ContextBandit(arms)
# cell 9
class Model(nnx.Module):
  def __init__(self, D_in, D_out, rngs: nnx.Rngs):
    self.linear1 = nnx.Linear(D_in, H, rngs=rngs)
    self.linear2 = nnx.Linear(H, D_out, rngs=rngs)

  def __call__(self, x):
    y = nnx.relu(self.linear1(x))
    y = nnx.relu(self.linear2(y))
    return y
# cell 11
@nnx.jit
def _train_epoch(model, optimizer, cur_state, key):
    oh_cur_state = one_hot(arms, cur_state)

    def loss(model, cur_state, key):
        y_pred = model(oh_cur_state)

        av_softmax = softmax(y_pred, tau=2.0)

        key, subkey = random.split(key)
        choice = random.choice(key=subkey, a=arms, p=av_softmax)
        cur_reward, cur_state, key = env.choose_arm(choice, cur_state, key)

        reward = y_pred.at[choice].set(cur_reward)
        MSE = optax.losses.squared_error(y_pred, reward).mean()
        return MSE, (cur_reward, cur_state, key)

    grads, res = nnx.grad(loss, has_aux=True)(model, cur_state, key)
    optimizer.update(grads)

    return res

def train(env, model, optimizer, epochs=5000):
    key = random.key(6)
    cur_state, key = env.update_state(key)

    rewards = []

    for _ in range(epochs):

        cur_reward, cur_state, key = _train_epoch(model, optimizer, cur_state, key)

        rewards.append(cur_reward)

    return np.array(rewards)
# cell 13
model = Model(D_in, D_out, rngs=nnx.Rngs(0))

lr = 0.01 # learning rate
optimizer = nnx.ModelAndOptimizer(model, optax.adam(lr))

rewards = train(env, model, optimizer, epochs=20)  # scaffolding: epochs=5000 (the default) in the notebook
# plt.plot(running_mean(rewards,N=500)); plt.show()  (plot cut)
_report({"jit(_train_epoch)"}, 20)  # scaffolding
