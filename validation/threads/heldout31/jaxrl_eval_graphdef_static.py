# source: https://github.com/gabe00122/jaxrl/blob/c53f0bce013cd054f4072251fcb57b0299d766f5/jaxrl/eval.py
# expect: none
# runtime: COMPILES 2 CALLS 4
# why: Every evaluation round builds fresh JittedPolicy objects whose nnx.split graphdef is passed as a static argument, but GraphDefs of the same architecture compare and hash equal, so _sample and _initialize_carry compile once across rounds.

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

import random
from functools import partial
from typing import NamedTuple

import jax
import numpy as np
from jax import numpy as jnp
from flax import nnx


class TimeStep(NamedTuple):  # scaffolding: jaxrl.types.TimeStep (fields kept)
    obs: jax.Array
    time: jax.Array
    terminated: jax.Array
    last_action: jax.Array
    last_reward: jax.Array
    action_mask: jax.Array | None


class _Categorical:  # scaffolding: the policy distribution returned by the model
    def __init__(self, logits):
        self.logits = logits

    def sample(self, seed):
        return jax.random.categorical(seed, self.logits)


class TransformerActorCritic(nnx.Module):  # scaffolding: small stand-in for jaxrl.model.network
    def __init__(self, obs_dim, num_actions, rngs: nnx.Rngs):
        self.torso = nnx.Linear(obs_dim + 8, 8, rngs=rngs)
        self.policy_head = nnx.Linear(8, num_actions, rngs=rngs)
        self.value_head = nnx.Linear(8, 1, rngs=rngs)

    def initialize_carry(self, num_agents, rngs):
        return jnp.zeros((num_agents, 8))

    def __call__(self, ts, carry):
        h = jnp.tanh(self.torso(jnp.concatenate([ts.obs.reshape(carry.shape[0], -1), carry], -1)))
        return self.value_head(h), _Categorical(self.policy_head(h)), h


class _Env:  # scaffolding: stand-in for the king-of-the-hill gridworld (4 agents, 2 teams)
    num_agents = 4
    teams = jnp.array([0, 0, 1, 1])

    def reset(self, rng_key):
        return jnp.zeros(()), self._ts(jax.random.normal(rng_key, (4, 6)), jnp.zeros((4,), jnp.int32))

    def step(self, env_state, actions, rng_key):
        return env_state + 1, self._ts(jax.random.normal(rng_key, (4, 6)), actions)

    def _ts(self, obs, actions):
        return TimeStep(obs=obs, time=jnp.zeros((4,), jnp.int32), terminated=jnp.zeros((4,), bool),
                        last_action=actions, last_reward=jnp.ones((4,)), action_mask=None)


@partial(jax.jit, static_argnums=(0,))
def env_reset(env, rng_key):
    env_state, timestep = env.reset(rng_key)
    return env_state, split_timestep(timestep)


@partial(jax.jit, static_argnums=(0,), donate_argnums=(1,))
def env_step(env, env_state, actions, rng_key):
    env_state, timestep = env.step(env_state, actions, rng_key)
    return env_state, split_timestep(timestep)


def split_timestep(ts: TimeStep):
    ts = jax.tree.map(lambda x: x.reshape(x.shape[0], 1, 1, *x.shape[1:]), ts)  # (einops rearrange "b ... -> b 1 1 ...")
    batch_size = ts.obs.shape[0]
    return [TimeStep(
        obs=ts.obs[i],
        time=ts.time[i],
        terminated=ts.terminated[i],
        last_action=ts.last_action[i],
        last_reward=ts.last_reward[i],
        action_mask=None, #ts.action_mask[i],
    ) for i in range(batch_size)]


@partial(jax.jit, static_argnums=(0, 2))
def _initialize_carry(graphdef, state, num_agents: int, rng_key):
    model = nnx.merge(graphdef, state)
    return model.initialize_carry(num_agents, rngs=nnx.Rngs(rng_key))


@partial(jax.jit, static_argnums=(0,), donate_argnums=(3,))
def _sample(graphdef, state, timestep, carry, _key):
    model = nnx.merge(graphdef, state)
    _, policy, carry = model(timestep, carry)
    action = policy.sample(seed=_key)
    action = action.squeeze()

    return action, carry


class JittedPolicy:
    def __init__(self, model) -> None:
        self._graphdef, self._state = nnx.split(model)

    def sample_action(self, ts: TimeStep, carry, rng_key: jax.Array):
        return _sample(self._graphdef, self._state, ts, carry, rng_key)
    
    def initialize_carry(self, num_agents: int, rng_key):
        return _initialize_carry(self._graphdef, self._state, num_agents, rng_key)


def _round(env, policies: list, max_steps: int, rngs: nnx.Rngs):
    teams = np.asarray(env.teams)
    unique_teams = np.unique(teams)

    team_rewards = np.zeros_like(unique_teams, dtype=np.float64)

    carries = [policy.initialize_carry(1, rngs.carry()) for policy in policies]
    env_state, timestep = env_reset(env, rngs.env())

    np_actions = np.zeros((len(policies,)), jnp.int32)
    
    for _ in range(max_steps):
        for i, policy in enumerate(policies):
            action, carry = policy.sample_action(timestep[i], carries[i], rngs.action())
            carries[i] = carry
            np_actions[i] = action
        
        actions = jnp.asarray(np_actions)
        
        env_state, timestep = env_step(env, env_state, actions, rngs.env())

        for i, ts in enumerate(timestep):
            team_idx = teams[i]
            team_rewards[team_idx] += ts.last_reward.item()
    
    return team_rewards


def main():
    max_steps = 5  # scaffolding: experiment.config.max_env_steps
    env = _Env()  # scaffolding: create_env(...)
    rngs = nnx.Rngs(default=42)

    # scaffolding: three "checkpoints" of the same architecture instead of load_policy()
    models = [TransformerActorCritic(6, 5, rngs=nnx.Rngs(s)) for s in range(3)]

    for i in range(4):  # scaffolding: was progress.track(range(1000))
        m = random.choices(models, k=2)
        lineup = [m[0]] * 2 + [m[1]] * 2  # (4 + 4 agents in the original)
        p = [JittedPolicy(p) for p in lineup]

        out = _round(env, p, max_steps, rngs)
        ranking = np.argsort(out)


random.seed(0)  # scaffolding
main()  # scaffolding
_report({"jit(_sample)", "jit(_initialize_carry)"}, 4)
