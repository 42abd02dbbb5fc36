# source: https://github.com/ikostrikov/implicit_q_learning/issues/5
# expect: bad-static-spec at line 71
# runtime: ERROR ValueError
# why: The _sample_actions the issue links lists 'distribution' in static_argnames, but the function has no such parameter; jax 0.10.2 validates static_argnames and raises ValueError when the decorator is applied (at import of policy.py).
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
import sys  # scaffolding
sys.excepthook = lambda t, v, tb: print(f"ERROR {t.__name__}")  # scaffolding: the error is raised at import, outside any try
import functools
from typing import Optional, Sequence, Tuple

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np

PRNGKey = Params = object  # scaffolding: aliases from common.py
LOG_STD_MIN = -10.0
LOG_STD_MAX = 2.0


class TanhNormal:  # scaffolding: stand-in for tfd.TransformedDistribution(MultivariateNormalDiag, Tanh) (tensorflow_probability not installed)
    def __init__(self, loc, scale):  # scaffolding
        self.loc, self.scale = loc, scale  # scaffolding

    def sample(self, seed):  # scaffolding
        return jnp.tanh(self.loc + self.scale * jax.random.normal(seed, self.loc.shape))  # scaffolding


class NormalTanhPolicy(nn.Module):
    hidden_dims: Sequence[int]
    action_dim: int
    log_std_min: Optional[float] = None
    log_std_max: Optional[float] = None

    @nn.compact
    def __call__(self,
                 observations: jnp.ndarray,
                 temperature: float = 1.0,
                 training: bool = False):
        outputs = nn.relu(nn.Dense(self.hidden_dims[0])(observations))  # scaffolding: common.MLP

        means = nn.Dense(self.action_dim)(outputs)
        log_stds = nn.Dense(self.action_dim)(outputs)

        log_std_min = self.log_std_min or LOG_STD_MIN
        log_std_max = self.log_std_max or LOG_STD_MAX
        log_stds = jnp.clip(log_stds, log_std_min, log_std_max)

        return TanhNormal(means, jnp.exp(log_stds) * temperature)  # scaffolding: the tfd distribution


@functools.partial(jax.jit, static_argnames=('actor_def', 'distribution'))
def _sample_actions(rng: PRNGKey,
                    actor_def: nn.Module,
                    actor_params: Params,
                    observations: np.ndarray,
                    temperature: float = 1.0) -> Tuple[PRNGKey, jnp.ndarray]:
    dist = actor_def.apply({'params': actor_params}, observations, temperature)
    rng, key = jax.random.split(rng)
    return rng, dist.sample(seed=key)


def sample_actions(rng: PRNGKey,
                   actor_def: nn.Module,
                   actor_params: Params,
                   observations: np.ndarray,
                   temperature: float = 1.0) -> Tuple[PRNGKey, jnp.ndarray]:
    return _sample_actions(rng, actor_def, actor_params, observations,
                           temperature)


class Learner:  # scaffolding: the actor part of learner.Learner (common.Model stand-in)
    def __init__(self, seed, observations, action_dim):  # scaffolding
        actor_def = NormalTanhPolicy((256,), action_dim)  # scaffolding
        self.actor_apply_fn = actor_def  # scaffolding: self.actor.apply_fn (common.Model keeps the module as apply_fn)
        self.actor_params = actor_def.init(jax.random.PRNGKey(seed), observations)['params']  # scaffolding
        self.rng = jax.random.PRNGKey(seed + 1)  # scaffolding

    def sample_actions(self,
                       observations: np.ndarray,
                       temperature: float = 1.0) -> jnp.ndarray:
        rng, actions = sample_actions(self.rng, self.actor_apply_fn,
                                      self.actor_params, observations,
                                      temperature)
        self.rng = rng

        actions = np.asarray(actions)
        return np.clip(actions, -1, 1)


try:  # scaffolding
    agent = Learner(42, np.zeros((1, 17), np.float32), 6)  # scaffolding: HalfCheetah sizes
    for step in range(5):  # scaffolding: evaluation.py's loop, temperature=0.0
        observation = np.random.RandomState(step).randn(17).astype(np.float32)  # scaffolding
        action = agent.sample_actions(observation, temperature=0.0)
    _report({"jit(_sample_actions)", "jit(sample_actions)"}, 5)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
