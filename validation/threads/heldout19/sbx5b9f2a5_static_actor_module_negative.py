# source: https://github.com/araffin/sbx/commit/5b9f2a51b0e1e07c7a0dd5dbd0ff1b3bba403eef
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: The flax Actor module is passed as a static argument of the jitted sample_action; a linen module is hashable and the same instance is passed every step, so five environment steps compile once.
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

from functools import partial
from typing import Sequence  # scaffolding

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.training.train_state import TrainState
from flax import struct  # scaffolding


@struct.dataclass
class _MultivariateNormalDiag:  # scaffolding: stand-in for tfd.MultivariateNormalDiag (tfp not installed; its JAX distributions are pytrees)
    loc: jax.Array
    scale_diag: jax.Array

    def sample(self, seed):
        return self.loc + self.scale_diag * jax.random.normal(seed, self.loc.shape)

    def mode(self):
        return self.loc


@struct.dataclass
class TanhTransformedDistribution:  # scaffolding: stand-in for sbx.common.distributions
    base: _MultivariateNormalDiag

    def sample(self, seed):
        return jnp.tanh(self.base.sample(seed))

    def mode(self):
        return jnp.tanh(self.base.mode())


class tfd:  # scaffolding
    Distribution = object
    MultivariateNormalDiag = _MultivariateNormalDiag


class BaseJaxPolicy:  # (SB3 BasePolicy base class left out)
    @staticmethod
    @partial(jax.jit, static_argnames="actor")
    def sample_action(actor, actor_state, obervations, key):
        dist = actor.apply(actor_state.params, obervations)
        action = dist.sample(seed=key)
        return action

    @staticmethod
    @partial(jax.jit, static_argnames="actor")
    def select_action(actor, actor_state, obervations):
        return actor.apply(actor_state.params, obervations).mode()


class Actor(nn.Module):
    action_dim: Sequence[int]
    n_units: int = 256
    log_std_min: float = -20
    log_std_max: float = 2

    def get_std(self):
        # Make it work with gSDE
        return jnp.array(0.0)

    @nn.compact
    def __call__(self, x: jnp.ndarray) -> tfd.Distribution:
        x = nn.Dense(self.n_units)(x)
        x = nn.relu(x)
        x = nn.Dense(self.n_units)(x)
        x = nn.relu(x)
        mean = nn.Dense(self.action_dim)(x)
        log_std = nn.Dense(self.action_dim)(x)
        log_std = jnp.clip(log_std, self.log_std_min, self.log_std_max)
        dist = TanhTransformedDistribution(
            tfd.MultivariateNormalDiag(loc=mean, scale_diag=jnp.exp(log_std)),
        )
        return dist


class SACPolicy(BaseJaxPolicy):
    n_units = 64  # scaffolding
    use_sde = False  # scaffolding

    def build(self, key, lr_schedule, qf_learning_rate: float) -> None:
        key, actor_key, qf_key, dropout_key = jax.random.split(key, 4)
        # Keep a key for the actor
        key, self.key = jax.random.split(key, 2)
        # Initialize noise
        self.reset_noise()

        obs = jnp.array([np.zeros(3, np.float32)])  # scaffolding: observation_space.sample()

        self.actor = Actor(
            action_dim=np.prod((2,)),  # scaffolding: action_space.shape
            n_units=self.n_units,
        )
        # Hack to make gSDE work without modifying internal SB3 code
        self.actor.reset_noise = self.reset_noise

        self.actor_state = TrainState.create(
            apply_fn=self.actor.apply,
            params=self.actor.init(actor_key, obs),
            tx=optax.adam(learning_rate=lr_schedule(1)),  # scaffolding: optimizer_class
        )

        self.actor.apply = jax.jit(self.actor.apply)

        return key

    def reset_noise(self, batch_size: int = 1) -> None:
        """
        Sample new weights for the exploration matrix, when using gSDE.
        """
        self.key, self.noise_key = jax.random.split(self.key, 2)

    def forward(self, obs: np.ndarray, deterministic: bool = False) -> np.ndarray:
        return self._predict(obs, deterministic=deterministic)

    def _predict(self, observation: np.ndarray, deterministic: bool = False) -> np.ndarray:
        if deterministic:
            return BaseJaxPolicy.select_action(self.actor, self.actor_state, observation)
        # Trick to use gSDE: repeat sampled noise by using the same noise key
        if not self.use_sde:
            self.reset_noise()
        return BaseJaxPolicy.sample_action(self.actor, self.actor_state, observation, self.noise_key)


policy = SACPolicy()  # scaffolding
policy.key = jax.random.PRNGKey(0)  # scaffolding
policy.build(jax.random.PRNGKey(1), lambda _: 3e-4, 3e-4)  # scaffolding
for _ in range(5):  # scaffolding: five environment steps
    actions = policy.forward(np.random.rand(1, 3).astype(np.float32))  # scaffolding
_report({"jit(sample_action)"}, 5)  # scaffolding
