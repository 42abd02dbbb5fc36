# source: https://github.com/FranzKnut/jax_rl_util/commit/0d03e34e7ca9026a3ca73c175f430a742d833f21
# expect: jit-in-loop-or-body at line 98
# runtime: COMPILES 10 CALLS 10
# why: PPO_Agent.__call__ wraps self.model.apply in a fresh jax.jit on every step, and the bound method is a new object each time, so each of the 10 rollout steps traces and compiles jit(apply) again (10 compiles for 10 calls).

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
import jax.random as jrandom
import numpy as np
import flax
import flax.linen as nn
from dataclasses import dataclass


class JaxRng:  # scaffolding: models.jax_util.JaxRng (external package), a key holder that splits on access
    def __init__(self, rng):
        self._rng = rng

    @property
    def rng(self):
        self._rng, key = jrandom.split(self._rng)
        return key


@dataclass
class PPO_Params:  # scaffolding: rtr_iil.reinforcement.ppo_rnn.PPO_Params (external), the fields used here
    MODEL: str = "GRU"
    NUM_UNITS: int = 8


@flax.struct.dataclass
class _Categorical:  # scaffolding: the policy distribution returned by the model (a pytree, like distrax's)
    logits: jnp.ndarray

    def sample(self, seed):
        return jax.random.categorical(seed, self.logits)


class ActorCriticRNN(nn.Module):  # scaffolding: rtr_iil.reinforcement.ppo_rnn.ActorCriticRNN (external), a small GRU actor-critic
    action_dim: int
    config: PPO_Params
    discrete: bool

    @nn.compact
    def __call__(self, hidden, x):
        obs, dones = x
        hidden = jnp.where(dones[0][:, None], jnp.zeros_like(hidden), hidden)
        hidden, y = nn.GRUCell(features=self.config.NUM_UNITS)(hidden, obs[0].reshape(obs.shape[1], -1))
        logits = nn.Dense(self.action_dim)(y)
        value = nn.Dense(1)(y)[..., 0]
        return hidden, _Categorical(logits), value


class models:  # scaffolding: `import models.mlp as models` (external)
    class GRU:
        @staticmethod
        def initialize_carry(batch_size, num_units):
            return jnp.zeros((batch_size, num_units))


# baselines/ppo_agent.py as added by the commit
class PPO_Agent(JaxRng):
    def __init__(self, action_dim, discrete, params, config, rng=None) -> None:
        rng = rng or jrandom.PRNGKey(0)
        super().__init__(rng)
        # Restore the model config and parameters
        self.params = params
        self.config = config

        # Initialize the model
        self.model = ActorCriticRNN(action_dim, self.config, discrete)
        rnn_cls = getattr(models, self.config.MODEL)

        self.hidden = rnn_cls.initialize_carry(1, self.config.NUM_UNITS)

    def __call__(self, obs, done):
        self.hidden, pi, value = jax.jit(self.model.apply)(
            self.params, self.hidden, (obs[None, None], jnp.array(done)[None, None])
        )
        return pi.sample(seed=self.rng).squeeze(), value


config = PPO_Params()  # scaffolding: load_config(ckpt_dir)
_model = ActorCriticRNN(3, config, True)  # scaffolding: params come from load_params(ckpt_dir) in the repo
params = _model.init(jrandom.PRNGKey(1), jnp.zeros((1, 8)), (jnp.zeros((1, 1, 1, 4, 4)), jnp.zeros((1, 1), bool)))  # scaffolding
agent = PPO_Agent(3, True, params, config)

done = False
obs = np.zeros((4, 4), np.float32)  # scaffolding: env.reset(None) of the wrapped CarRacing env (grayscale frames)
i = 10  # scaffolding: video_length
calls = 0  # scaffolding
while not done and i > 0:
    action, value = agent(obs[None], done)
    calls += 1  # scaffolding
    obs = np.full((4, 4), 0.1 * (10 - i), np.float32)  # scaffolding: env.step(0, np.array(action), key=0)
    i -= 1
print(int(action) in (0, 1, 2))  # scaffolding
_report({"jit(apply)"}, calls)  # scaffolding
