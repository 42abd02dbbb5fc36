# source: https://github.com/ikostrikov/jaxrl/pull/18
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: sample_actions lists the defaulted distribution parameter in static_argnums=(1, 5) but callers pass only five positional arguments; the 2021 JAX raised 'static_argnums ... called with only N positional arguments' (the PR's wrapper works around it), while jax 0.10.2 resolves the default and compiles once for repeated calls.

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
from functools import partial
from typing import Tuple

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np


class _Dist:  # scaffolding: stands in for the tfd distribution the policy returns
    def __init__(self, mean):
        self.mean = mean

    def sample(self, seed):
        return self.mean + jax.random.normal(seed, self.mean.shape)


class NormalTanhPolicy(nn.Module):  # scaffolding: stand-in for jaxrl's policy module
    action_dim: int

    @nn.compact
    def __call__(self, observations, temperature=1.0):
        return _Dist(nn.Dense(self.action_dim)(observations) * temperature)


@partial(jax.jit, static_argnums=(1, 5))
def sample_actions(
        rng,
        actor_def: nn.Module,
        actor_params,
        observations: np.ndarray,
        temperature: float = 1.0,
        distribution: str = 'log_prob') -> Tuple[jnp.ndarray, jnp.ndarray]:
    if distribution == 'det':
        return rng, actor_def.apply({'params': actor_params}, observations,
                                    temperature)
    else:
        dist = actor_def.apply({'params': actor_params}, observations,
                               temperature)
        rng, key = jax.random.split(rng)
        return rng, dist.sample(seed=key)


actor_def = NormalTanhPolicy(action_dim=2)  # scaffolding
observations = np.ones((1, 3), np.float32)  # scaffolding
actor_params = actor_def.init(jax.random.PRNGKey(0), observations)['params']  # scaffolding
rng = jax.random.PRNGKey(1)  # scaffolding
for _ in range(2):  # scaffolding: two calls as in an acting loop
    rng, actions = sample_actions(rng, actor_def, actor_params, observations, 1.0)
_report({"jit(sample_actions)"}, 2)  # scaffolding
