# source: https://github.com/danijar/embodied/blob/170c38062f0daa713f9aaba49e568ab882f2e0f3/embodied/agents/dreamerv3/jaxagent.py
# expect: none
# runtime: COMPILES 2 CALLS 12
# why: JAXAgent jits the policy with static_argnames=['mode'] and the env loop alternates 'train' and 'eval' episodes; each mode string compiles once (2 compiles for 12 calls) and is then reused.

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


class Agent:  # scaffolding: stand-in for the DreamerV3 agent's policy (ninjax.pure dropped)
  def policy(self, params, obs, carry, mode, seed):
    feat = jnp.tanh(obs['image'].reshape((obs['image'].shape[0], -1)) @ params['w'] + carry)
    logits = feat @ params['out']
    if mode == 'train':
      act = jax.random.categorical(seed, logits)
    else:
      act = jnp.argmax(logits, -1)
    return {'action': act}, {}, feat


class JAXAgent:  # trimmed to the policy path of embodied's jaxagent.py

  def __init__(self, agent):
    self.agent = agent
    self._transform()

  def _transform(self):

    def policy(params, obs, carry, seed, mode):
      return self.agent.policy(params, obs, carry, mode, seed)  # scaffolding: nj.pure(self.agent.policy)(...)[1]

    self._policy = jax.jit(
        policy, static_argnames=['mode'])  # scaffolding: (pm, ps, ps, ps), ps shardings dropped (positional shardings raise on jax 0.10.2)

  def policy(self, obs, carry, mode='train'):
    seed = jax.random.PRNGKey(len(obs['image']))  # scaffolding: self._next_seeds(...)
    acts, outs, carry = self._policy(
        self.policy_params, obs, carry, seed, mode)
    return acts, outs, carry


# scaffolding: an env loop that alternates training episodes and evaluation episodes
agent = JAXAgent(Agent())
agent.policy_params = {'w': jnp.ones((48, 16)) * 0.01, 'out': jnp.ones((16, 4))}
carry = jnp.zeros((4, 16))
calls = 0
for episode in range(4):
  mode = 'train' if episode % 2 == 0 else 'eval'
  for t in range(3):
    obs = {'image': np.random.rand(4, 4, 4, 3).astype(np.float32)}
    acts, outs, carry = agent.policy(obs, carry, mode=mode)
    calls += 1
_report({"jit(policy)"}, calls)
