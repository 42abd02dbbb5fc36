# source: https://github.com/seohongpark/ogbench/pull/36
# expect: jit-in-loop-or-body at line 75
# runtime: COMPILES 3 CALLS 18
# why: the PR replaces supply_rng with an @jax.jit actor_fn defined inside evaluate(); each evaluation (run every eval interval during training) creates a new function object closing over the current agent, so jit retraces and recompiles actor_fn at every evaluation instead of reusing one compilation.

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
from collections import defaultdict

import flax
import jax
import jax.numpy as jnp
import numpy as np


class GCAgent(flax.struct.PyTreeNode):  # scaffolding: stand-in for the GCBC agent
    params: dict
    config: dict = flax.struct.field(pytree_node=False)

    @jax.jit
    def sample_actions(
        self,
        observations,
        goals=None,
        seed=None,
        temperature=1.0,
    ):
        """Sample actions from the actor."""
        mean = jnp.tanh(self.params['w'] @ jnp.concatenate([observations, goals]))  # scaffolding: actor network
        actions = mean + temperature * jax.random.normal(seed, mean.shape)  # scaffolding: dist.sample(seed=seed)
        if not self.config['discrete']:
            actions = jnp.clip(actions, -1, 1)
        return actions


class Env:  # scaffolding: three-step goal-reaching env
    def reset(self, options=None):
        self.t = 0
        return np.zeros(3, np.float32), {'goal': np.ones(3, np.float32)}

    def step(self, action):
        self.t += 1
        return np.full(3, self.t, np.float32), 0.0, self.t >= 3, False, {'success': float(self.t >= 3)}


def add_to(dict_of_lists, single_dict):
    for k, v in single_dict.items():
        dict_of_lists[k].append(v)


def evaluate(agent, env, task_id=None, config=None, num_eval_episodes=50, eval_temperature=0):
    key = jax.random.PRNGKey(np.random.randint(0, 2**32))

    @jax.jit
    def actor_fn(*args, key=jax.random.PRNGKey(np.random.randint(0, 2**32)), **kwargs):
        key, subkey = jax.random.split(key)
        return agent.sample_actions(*args, **kwargs, seed=subkey), key

    trajs = []
    stats = defaultdict(list)
    for i in range(num_eval_episodes):
        traj = defaultdict(list)
        observation, info = env.reset(options=dict(task_id=task_id, render_goal=False))
        goal = info.get('goal')
        done = False
        step = 0
        while not done:
            action, key = actor_fn(observations=observation, goals=goal, temperature=eval_temperature, key=key)
            action = np.array(action)
            if not config.get('discrete'):
                action = np.clip(action, -1, 1)
            next_observation, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
            step += 1
            add_to(traj, dict(observation=observation, action=action, reward=reward, done=done))
            observation = next_observation
        add_to(stats, info)
        trajs.append(traj)
    for k, v in stats.items():
        stats[k] = np.mean(v)
    return stats, trajs


config = {'discrete': False}  # scaffolding
agent = GCAgent(params={'w': jnp.full((3, 6), 0.1)}, config=config)  # scaffolding
env = Env()  # scaffolding
for i in range(3):  # scaffolding: three evaluation intervals during training
    agent = agent.replace(params={'w': agent.params['w'] + 0.01})  # scaffolding: agent.update(batch)
    eval_info, trajs = evaluate(agent=agent, env=env, task_id=1, config=config, num_eval_episodes=2, eval_temperature=0.0)
_report({"jit(actor_fn)"}, 18)  # scaffolding
