# source: https://github.com/instadeepai/og-marl/commit/11a6acfdebabed50a38c58c39839576f08a72cb4
# expect: none
# runtime: COMPILES 1 CALLS 20
# why: After the commit the same code lives inside train_bc_system; select_actions is created once per call, so the per-step jax.jit wrapper still hits the cache and compiles once.

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


from typing import Sequence

import jax
import jax.numpy as jnp
import flax.linen as nn
import numpy as np  # scaffolding
tree = type("tree", (), {"map_structure": staticmethod(jax.tree.map)})  # scaffolding: dm-tree stand-in

LAYER_SIZES = (16,)  # scaffolding: the repo's constants, cut down
GRU_LAYER_SIZE = 8  # scaffolding
NUM_ACTS = 4  # scaffolding
NUM_EVALS = 2  # scaffolding


class _SmaxLike:  # scaffolding: stand-in for the SMAC 3m environment (3 agents, 6-dim obs, 5-step episodes)
    possible_agents = ["agent_0", "agent_1", "agent_2"]

    def reset(self):
        self.t = 0
        return self._obs(), {"legals": {a: np.array([1, 1, 1, 0], bool) for a in self.possible_agents}}

    def _obs(self):
        return {a: np.full(6, float(self.t + i), np.float32) for i, a in enumerate(self.possible_agents)}

    def step(self, act):
        self.t += 1
        done = self.t >= 5
        info = {"legals": {a: np.array([1, 1, 1, 0], bool) for a in self.possible_agents}}
        return (self._obs(), {a: 1.0 for a in act}, {a: done for a in act}, {a: False for a in act}, info)


# og_marl/jax/systems/bc.py after the commit: the same code nested in train_bc_system
def train_bc_system(environment):
    class BehaviourCloningPolicy(nn.Module):
        dense_layer_sizes: Sequence[int]
        gru_hidden_size: int
        output_size: int

        @nn.compact
        def __call__(self, carry, inputs):
            dense_layers = [nn.Dense(size) for size in self.dense_layer_sizes]
            x = inputs
            for layer in dense_layers:
                x = layer(x)
                x = nn.relu(x)
            carry, x = nn.GRUCell(self.gru_hidden_size)(carry, x)

            # Final dense layer for output
            output = nn.Dense(self.output_size)(x)
        
            return carry, output

        @staticmethod
        def initialize_carry(layer_size, input_shape):
            """Initializes the carry state."""
            # Use a dummy key since the default state init fn is just zeros.
            return nn.GRUCell(layer_size).initialize_carry(jax.random.PRNGKey(0), input_shape)

    def select_actions(carry, params, obs, legals):
        policy = BehaviourCloningPolicy(LAYER_SIZES, GRU_LAYER_SIZE, NUM_ACTS)
        carry, logits = policy.apply(params, carry, obs)
        logits = jnp.where(legals, logits, -99999999.) # Legal action masking
        act = jnp.argmax(logits, axis=-1)
        return carry, act

    def stack(obs, agents):
        stacked_obs = []
        for agent in agents:
            stacked_obs.append(obs[agent])
        stacked_obs = tree.map_structure(lambda x: jnp.array(x), stacked_obs)
        stacked_obs = jnp.stack(stacked_obs)
        return stacked_obs

    def unstack(stacked_values, agents):
        unstacked = {}
        for i, agent in enumerate(agents):
            unstacked[agent] = int(stacked_values[i])
        return unstacked

    def evaluation(init_carry, params, environment):
        episode_returns = []
        for e in range(NUM_EVALS):
            episode_return = 0
            done = False
            obs, info = environment.reset()
            carry = init_carry
            while not done:
                obs = stack(obs, environment.possible_agents)
                legals = stack(info["legals"], environment.possible_agents)
                carry, act = jax.jit(select_actions)(carry, params, obs, legals)
                act = unstack(act, environment.possible_agents)

                obs, rew, term, trunc, info = environment.step(act)

                done = all(trunc.values()) or all(term.values())
                episode_return += sum(list(rew.values())) / len(list(rew.values())) # mean over agents
            episode_returns.append(episode_return)
        return {"mean_episode_return": sum(episode_returns)/NUM_EVALS}

    ################
    ##### MAIN #####
    ################

    rng_key = jax.random.PRNGKey(42)
    dummy_obs = jnp.zeros((3, 6))  # scaffolding: buffer_state.experience["obs"][0,0,0]
    policy = BehaviourCloningPolicy(LAYER_SIZES, GRU_LAYER_SIZE, NUM_ACTS)
    init_carry = policy.initialize_carry(GRU_LAYER_SIZE, dummy_obs.shape)
    params = policy.init(rng_key, init_carry, dummy_obs)

    eval_logs = evaluation(init_carry, params, environment)
    print(f"First Eval Episode Return: {eval_logs['mean_episode_return']}")
    eval_logs = evaluation(init_carry, params, environment)  # scaffolding: a second evaluation, as after an epoch
    return _report({"jit(select_actions)"}, 2 * NUM_EVALS * 5)  # scaffolding


train_bc_system(_SmaxLike())  # scaffolding
