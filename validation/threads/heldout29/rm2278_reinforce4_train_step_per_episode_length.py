# source: https://github.com/rm-2278/JAX_practice/blob/58285b4c9004e8e70fa6eb25917ccbfa58fb01c6/models/Reinforce4.py
# expect: shape-churn at line 122
# runtime: COMPILES 4 CALLS 4
# why: each REINFORCE update stacks one whole episode, so states/actions/returns have the episode's length and nnx.jit(train_step) compiles again for every new length (4 compiles for 4 episodes); the eager lax.scan in compute_return also compiles per length.
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
from flax import nnx
import optax
# import gymnasium as gym  # scaffolding: gymnasium is not installed; a CartPole stand-in follows
import numpy as np  # scaffolding
from types import SimpleNamespace  # scaffolding


class _CartPoleStandIn:  # scaffolding: CartPole-v1 observations (4,), 2 actions, episodes of varying length
    _lengths = [12, 17, 9, 23]  # scaffolding: episode lengths of the stand-in

    def __init__(self):  # scaffolding
        self._episode = -1  # scaffolding

    def reset(self, seed=None):  # scaffolding
        self._episode += 1  # scaffolding
        self._t = 0  # scaffolding
        self._rng = np.random.default_rng(seed)  # scaffolding
        return self._rng.normal(size=4).astype(np.float32), {}  # scaffolding

    def step(self, action):  # scaffolding
        self._t += 1  # scaffolding
        term = self._t >= self._lengths[self._episode % len(self._lengths)]  # scaffolding
        return self._rng.normal(size=4).astype(np.float32), 1.0, term, False, {}  # scaffolding


gym = SimpleNamespace(make=lambda name: _CartPoleStandIn())  # scaffolding

#

class Policy(nnx.Module):
    def __init__(self, obs_dim, act_dim, rngs):
        self.dense = nnx.Linear(obs_dim, 128, rngs=rngs)
        self.head = nnx.Linear(128, act_dim, rngs=rngs)
    def __call__(self, x):
        return self.head(nnx.relu(self.dense(x)))
    
@nnx.jit
def select_action(model, state, key):
    logits = model(state)
    action = jax.random.categorical(key, logits)
    return action

def compute_return(rewards, gamma=0.99):
    def step(carry, r):
        g = r + carry*gamma
        return g, g
    _, returns = jax.lax.scan(step, 0.0, rewards[::-1])
    return returns[::-1]

def reinfoce_loss(model, states, actions, returns):
    logits = model(states)
    log_probs = nnx.log_softmax(logits)
    log_probs_action = jnp.take_along_axis(log_probs, actions[:, None], axis=1).squeeze()
    return -jnp.mean(returns * log_probs_action)    # If log_probs_action is confidence, if high confidence in higher than average cases neg loss and push towards it, if high confidence in lower than average cases pos loss and push away from it
    
@nnx.jit
def train_step(model, optimizer, states, actions, returns):
    returns_norm = (returns - returns.mean()) / (returns.std() + 1e-8)
    loss, grad = nnx.value_and_grad(reinfoce_loss)(model, states, actions, returns_norm)
    optimizer.update(model, grad)
    return loss

SEED = 42
rngs = nnx.Rngs(SEED)
key = jax.random.key(SEED)

model = Policy(obs_dim=4, act_dim=2, rngs=rngs)
optimizer = nnx.Optimizer(model, optax.adam(1e-3), wrt=nnx.Param)

env = gym.make('CartPole-v1')


for epoch in range(1, 5):  # scaffolding: 500 epochs cut to 4
    state, _ = env.reset(seed=SEED+epoch)
    states, actions, rewards = [], [], []
    
    done = False
    
    while not done:
        key, subkey = jax.random.split(key)
        state_f = jnp.asarray(state, dtype=jnp.float32)
        action = select_action(model, state_f, subkey)
        next_state, reward, term, trunc, _ = env.step(int(action))
        done = term or trunc
        
        states.append(state_f)
        actions.append(action)
        rewards.append(reward)

        state = next_state
        
    states = jnp.stack(states)
    actions = jnp.array(actions)
    returns = compute_return(jnp.array(rewards, dtype=jnp.float32))
    
    loss = train_step(model, optimizer, states, actions, returns)
    if epoch % 50 == 0:
        print(f"Epoch: {epoch} | EpLength: {len(returns)} | Loss: {loss:.4f}")
        
print({n: _COMPILED.count(n) for n in ("jit(scan)", "jit(select_action)", "jit(train_step)")})  # scaffolding
_report({"jit(train_step)"}, 4)  # scaffolding
