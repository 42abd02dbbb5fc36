# source: https://github.com/rm-2278/JAX_practice/blob/8c8a59bbb5a87a370b7e4121c1abd71c61d0ff93/models/A2Ctest1.py
# expect: none
# runtime: COMPILES 3 CALLS 606
# why: unlike the learner's REINFORCE scripts, each A2C update stacks a fixed 200-step rollout, and the jitted select_action reads globals (ACT_SCALE, ACT_BIAS) that are set once before the first call, so select_action, compute_gae and train_step each compile once (3 compiles for 606 calls).
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
# import gymnasium as gym  # scaffolding: gymnasium is not installed; a Pendulum-v1 stand-in follows
import numpy as np
from types import SimpleNamespace  # scaffolding


class _PendulumStandIn:  # scaffolding: Pendulum-v1 interface: obs (3,), action (1,) in [-2, 2], truncation after 200 steps
    observation_space = SimpleNamespace(shape=(3,))  # scaffolding
    action_space = SimpleNamespace(shape=(1,), low=np.array([-2.0], dtype=np.float32), high=np.array([2.0], dtype=np.float32))  # scaffolding

    def reset(self):  # scaffolding
        self._t = 0  # scaffolding
        self._th, self._thdot = np.random.uniform(-np.pi, np.pi), np.random.uniform(-1, 1)  # scaffolding
        return self._obs(), {}  # scaffolding

    def _obs(self):  # scaffolding
        return np.array([np.cos(self._th), np.sin(self._th), self._thdot], dtype=np.float32)  # scaffolding

    def step(self, u):  # scaffolding: the gym pendulum dynamics
        u = float(np.clip(u, -2.0, 2.0)[0])  # scaffolding
        cost = self._th ** 2 + 0.1 * self._thdot ** 2 + 0.001 * u ** 2  # scaffolding
        self._thdot = np.clip(self._thdot + (3 * 10.0 / 2 * np.sin(self._th) + 3.0 * u) * 0.05, -8, 8)  # scaffolding
        self._th = self._th + self._thdot * 0.05  # scaffolding
        self._t += 1  # scaffolding
        return self._obs(), -cost, False, self._t >= 200, {}  # scaffolding


gym = SimpleNamespace(make=lambda name: _PendulumStandIn())  # scaffolding

class ContinuousActorCritic(nnx.Module):
    def __init__(self, obs_dim, act_dim, rngs):
        self.shared = nnx.Linear(obs_dim, 128, rngs=rngs)
        self.mu_head = nnx.Linear(128, act_dim, rngs=rngs)
        self.unshared = nnx.Linear(obs_dim, 128, rngs=rngs)
        self.value_head = nnx.Linear(128, 1, rngs=rngs)
        
        self.log_std = nnx.Param(jnp.zeros(act_dim))
        
    def __call__(self, inp):
        x = nnx.relu(self.shared(inp))
        mu = self.mu_head(x)
        value = self.value_head(nnx.relu(self.unshared(inp))).squeeze()
        return mu, self.log_std.get_value(), value

@nnx.jit
def select_action(model, state, key):
    mu, log_std, value = model(state)
    std = jnp.exp(log_std)
    
    action = mu + std * jax.random.normal(key, shape=mu.shape)
    
    action_squashed = jnp.tanh(action)
    action = action_squashed * ACT_SCALE + ACT_BIAS
    return action, value

@nnx.jit
def compute_gae(rewards, values, dones, next_value, gamma=0.99, lam=0.95):
    v_ext = jnp.append(values, next_value)
    deltas = rewards + gamma * v_ext[1:] * (1.0 - dones) - v_ext[:-1]
    
    def step(carry, args):
        delta, done = args
        gae = delta + gamma * lam * (1.0 - done) * carry
        return gae, gae
    
    _, advantages = jax.lax.scan(step, 0.0, (deltas[::-1], dones[::-1]))
    advantages = advantages[::-1]
    return advantages, advantages + values

def a2c_loss(model, states, actions, advantages, returns):
    mu, log_std, values = model(states)
    variance = jnp.exp(2 * log_std)
    
    eps = 1e-6
    y = (actions - ACT_BIAS) / ACT_SCALE
    y = jnp.clip(y, -1.0 + eps, 1.0 - eps)
    actions = jnp.arctanh(y)
    
    log_prob = -0.5 * (((actions - mu)**2) / variance + jnp.log(variance) + jnp.log(2 * jnp.pi))
    log_probs = jnp.sum(log_prob, axis=-1)
    
    log_det_jac = jnp.sum(jnp.log(ACT_SCALE) + jnp.log(1.0 - y**2 + eps), axis=-1)

    log_probs = log_probs - log_det_jac
    
    pi_loss = -jnp.mean(log_probs * advantages)
    
    v_loss = 0.5 * jnp.mean((values - returns) ** 2)
    
    entropy = 0.5 * jnp.mean(jnp.sum(1.0 + jnp.log(2 * jnp.pi) + jnp.log(variance), axis=-1))
    
    return pi_loss + v_loss - 0.01 * entropy

@nnx.jit
def train_step(model, optimizer, states, actions, advantages: jnp.ndarray, returns):
    adv_norm = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    loss, grads = nnx.value_and_grad(a2c_loss)(model, states, actions, adv_norm, returns)
    optimizer.update(model, grads)
    return loss

env = gym.make("Pendulum-v1")
rngs = nnx.Rngs(42)
key = jax.random.key(42)

obs_dim = env.observation_space.shape[0]
act_dim = env.action_space.shape[0]

ACT_LOW = jnp.asarray(env.action_space.low, dtype=jnp.float32)
ACT_HIGH = jnp.asarray(env.action_space.high, dtype=jnp.float32)
ACT_SCALE = (ACT_HIGH - ACT_LOW) / 2.0
ACT_BIAS = (ACT_HIGH + ACT_LOW) / 2.0

model = ContinuousActorCritic(obs_dim, act_dim, rngs)
optimizer = nnx.Optimizer(model, optax.adam(3e-4), wrt=nnx.Param)

epochs = 3  # scaffolding: 2000 epochs cut to 3
steps_per_epoch = 200

for epoch in range(epochs):
    state, _ = env.reset()
    states, actions, rewards, values, dones = [], [], [], [], []
    ep_return = 0.
    
    last_next_state = state
    last_done = False
    
    for _ in range(steps_per_epoch):
        key, subkey = jax.random.split(key)
        state_f = jnp.asarray(state, dtype=jnp.float32)
        
        action, value = select_action(model, state_f, subkey)
        env_action = np.array(action, dtype=np.float32)
        
        next_state, reward, term, trunc, _ = env.step(env_action)
        done = term or trunc
        
        last_next_state = next_state
        last_done = done
        
        states.append(state_f)
        actions.append(action)
        rewards.append(reward)
        values.append(value)
        dones.append(done)
        
        ep_return += reward
        state = next_state
        if done:
            state, _ = env.reset()
            
    batch_states = jnp.stack(states)
    batch_actions = jnp.stack(actions)
    batch_rewards = jnp.array(rewards, dtype=jnp.float32)
    batch_values = jnp.array(values)
    batch_dones = jnp.array(dones, dtype=jnp.float32)
    
    if last_done:
        next_value = jnp.array(0.0, dtype=batch_values.dtype)
    else:
        _, _, next_value = model(jnp.asarray(last_next_state, dtype=jnp.float32))
    
    advantages, returns = compute_gae(batch_rewards, batch_values, batch_dones, next_value)
    
    loss = train_step(model, optimizer, batch_states, batch_actions, advantages, returns)
    
    if epoch % 50 == 0:
        print(f"Epoch: {epoch} | Return: {ep_return:.1f} | Loss: {float(loss):.3f}")

print({n: _COMPILED.count(n) for n in ("jit(select_action)", "jit(compute_gae)", "jit(train_step)")})  # scaffolding
_report({"jit(select_action)", "jit(compute_gae)", "jit(train_step)"}, 3 * 200 + 3 + 3)  # scaffolding
