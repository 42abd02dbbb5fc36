# source: https://github.com/keraJLi/rejax/commit/bbcebb89306c105a825c064b5dc1d4789ae18526
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: With np.prod the flattened size is a concrete integer even inside jit, so the jitted init traces once and is reused for three seeds.

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


import types  # scaffolding

import flax.linen as nn  # scaffolding
import jax
import numpy as np
from jax import numpy as jnp


class _Box:  # scaffolding: gymnax.environments.spaces.Box
    def __init__(self, low, high, shape, dtype=jnp.float32):
        self.low, self.high, self.shape, self.dtype = low, high, shape, dtype


class _Discrete:  # scaffolding: gymnax.environments.spaces.Discrete
    def __init__(self, num_categories):
        self.num_categories, self.shape = num_categories, ()


class _Dict:  # scaffolding: gymnax.environments.spaces.Dict
    def __init__(self, spaces):
        self.spaces = spaces


spaces = types.SimpleNamespace(Box=_Box, Discrete=_Discrete, Dict=_Dict)  # scaffolding


class _GridEnv:  # scaffolding: a converted jumanji env with a dict observation (grid + action mask)
    def observation_space(self, params):
        return spaces.Dict({"grid": spaces.Box(0, 1, (4, 4)), "action_mask": spaces.Box(0, 1, (4,))})


# src/rejax/compat/jumanji2gymnax.py after the commit
def num_entries(space) -> int:
    if isinstance(space, spaces.Discrete):
        return space.num_categories
    elif isinstance(space, spaces.Box):
        return np.prod(np.array(space.shape)).astype(int)
    elif isinstance(space, spaces.Dict):
        return sum(num_entries(subspace) for subspace in space.spaces.values())
    raise ValueError(f"Unsupported space {space}")

class FlattenObsWrapper:  # scaffolding: the real class derives from gymnax's Environment and forwards attributes
    def __init__(self, env):
        self.env = env

    def observation_space(self, params):
        space = self.env.observation_space(params)
        size = num_entries(space)
        return spaces.Box(-jnp.inf, jnp.inf, (size,), dtype=jnp.float32)


env, env_params = FlattenObsWrapper(_GridEnv()), None  # scaffolding
actor = nn.Dense(4)  # scaffolding


@jax.jit  # scaffolding: rejax jits algo.train, which runs the registered init functions
def initialize_network_params(rng):
    obs_ph = jnp.empty([1, *env.observation_space(env_params).shape])  # src/rejax/algos/ppo.py
    return actor.init(rng, obs_ph)  # scaffolding


try:  # scaffolding
    for seed in range(3):  # scaffolding: three training seeds
        params = initialize_network_params(jax.random.PRNGKey(seed))  # scaffolding
    _report({"jit(initialize_network_params)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
