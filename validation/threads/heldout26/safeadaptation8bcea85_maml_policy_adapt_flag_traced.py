# source: https://github.com/yardenas/safe-adaptation-agents/commit/8bcea85aad5cd03f0cdbcea77f457aa93e27c5a7
# expect: trace-time-error at line 248
# runtime: ERROR TracerBoolConversionError
# why: MamlPpoLagrangian.policy marks only self and train static (static_argnums=(0, 4)), so the Python bool adapt arrives traced and if not adapt and not train raises TracerBoolConversionError on the first adaptation step.
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



# safe-adaptation-agents (safe meta-RL research) at 9e69866: safe_adaptation_agents/nets.py, models.py (Actor,
# DenseDecoder), utils.py (Learner) and agents/on_policy/maml_ppo_lagrangian.py (MamlPpoLagrangian.__call__ and
# policy), flattened in that order; the PpoLagrangian base and the MAML training code are cut.
import abc
import functools
from functools import partial
from types import SimpleNamespace
from typing import Callable, Dict, NamedTuple, Optional, Sequence, Tuple, Union, Any

import numpy as np
import optax
import jax
import jax.numpy as jnp
import jax.nn as jnn
import haiku as hk
import jmp


class _Normal:  # scaffolding: stand-in for tensorflow_probability.substrates.jax distributions (not installed)
    def __init__(self, loc, scale):  # scaffolding
        self.loc, self.scale = loc, scale  # scaffolding

    def sample(self, seed):  # scaffolding
        return self.loc + self.scale * jax.random.normal(seed, jnp.shape(self.loc))  # scaffolding

    def mode(self):  # scaffolding
        return self.loc  # scaffolding

    def log_prob(self, x):  # scaffolding
        return jnp.sum(-0.5 * ((x - self.loc) / self.scale) ** 2 - jnp.log(self.scale), -1)  # scaffolding

    def entropy(self):  # scaffolding
        return jnp.sum(jnp.log(self.scale) * jnp.ones_like(self.loc), -1)  # scaffolding


tfd = SimpleNamespace(Normal=_Normal, Independent=lambda dist, n: dist)  # scaffolding

Space = Any  # scaffolding: gym.spaces.Space
TrainingLogger = Any  # scaffolding: safe_adaptation_agents.logging.TrainingLogger


def initializer(name: str) -> hk.initializers.Initializer:
  return {
      'glorot': hk.initializers.VarianceScaling(1.0, 'fan_avg', 'uniform'),
      'he': hk.initializers.VarianceScaling(2.0, 'fan_in', 'uniform')
  }[name]


def mlp(x: jnp.ndarray,
        activation: Callable[[jnp.ndarray], jnp.ndarray] = jnn.relu,
        initializer: hk.initializers.Initializer = initializer('glorot'),
        output_sizes: Tuple = (128, 128, 1)):
  x = hk.nets.MLP(output_sizes, activation=activation, w_init=initializer)(x)
  return x


nets = SimpleNamespace(mlp=mlp, initializer=initializer)  # scaffolding: the nets module


class Actor(hk.Module):

  def __init__(self,
               output_size: Sequence[int],
               layers: Sequence[int],
               min_stddev: float,
               max_stddev: float,
               initialization: str = 'glorot',
               activation: Union[str, Callable[[jnp.ndarray],
                                               jnp.ndarray]] = jnn.relu,
               squash: bool = False,
               heteroscedastic: bool = True):
    super().__init__()
    factor = 2 if heteroscedastic else 1
    self.output_size = tuple(map(lambda x: factor * x, output_size))
    self.layers = layers
    self._min_stddev = min_stddev
    self._max_stddev = max_stddev
    self._initialization = initialization
    self._activation = activation if callable(activation) else eval(activation)
    self._squash = squash
    self._heteroscedastic = heteroscedastic

  def __call__(self, observation: jnp.ndarray):
    x = nets.mlp(
        observation,
        output_sizes=tuple(self.layers) + tuple(self.output_size),
        initializer=nets.initializer(self._initialization),
        activation=self._activation)
    if self._heteroscedastic:
      mu, stddev = jnp.split(x, 2, -1)
    else:
      mu, stddev = x, hk.get_parameter('pi_stddev', (x.shape[-1],), x.dtype,
                                       hk.initializers.Constant(0.5))
    init_std = np.log(np.exp(5.0) - 1.0).astype(stddev.dtype)
    stddev = jnn.softplus(stddev + init_std) +  self._min_stddev
    if self._squash:
      multivariate_normal_diag = tfd.Normal(5.0 * jnn.tanh(mu / 5.0), stddev)
      multivariate_normal_diag = tfd.TransformedDistribution(
          multivariate_normal_diag, StableTanhBijector())
    else:
      multivariate_normal_diag = tfd.Normal(mu, stddev)
    dist = tfd.Independent(multivariate_normal_diag, 1)
    if self._squash:
      dist = SampleDist(dist)
    return dist


class DenseDecoder(hk.Module):

  def __init__(self,
               output_size: Sequence[int],
               layers: Sequence[int],
               dist: str,
               initialization: str = 'glorot',
               activation: Union[str, Callable[[jnp.ndarray],
                                               jnp.ndarray]] = jnn.relu,
               name: Optional[str] = None):
    super(DenseDecoder, self).__init__(name)
    self.output_size = output_size
    self.layers = layers
    self._dist = dist
    self._initialization = initialization
    self._activation = activation if callable(activation) else eval(activation)

  def __call__(self, x: jnp.ndarray):
    x = nets.mlp(
        x,
        output_sizes=tuple(self.layers) + tuple(self.output_size),
        initializer=nets.initializer(self._initialization),
        activation=self._activation)
    x = jnp.squeeze(x, axis=-1)
    dist = dict(
        normal=lambda mu: tfd.Normal(mu, 1.0),
        bernoulli=lambda p: tfd.Bernoulli(p))[self._dist]
    return tfd.Independent(dist(x), 0)


models = SimpleNamespace(Actor=Actor, DenseDecoder=DenseDecoder)  # scaffolding: the models module (StableTanhBijector/SampleDist cut: they subclass tfp's Tanh bijector)

PRNGKey = jnp.ndarray


class LearningState(NamedTuple):
  params: hk.Params
  opt_state: optax.OptState


class Learner:

  def __init__(self, model: Union[hk.Transformed, hk.MultiTransformed],
               seed: PRNGKey, optimizer_config: Dict, precision: jmp.Policy,
               *input_example: Any):
    self.optimizer = optax.flatten(
        optax.chain(
            optax.clip_by_global_norm(optimizer_config['clip']),
            optax.scale_by_adam(eps=optimizer_config['eps']),
            optax.scale(-optimizer_config['lr'])))
    self.model = model
    self.params = self.model.init(seed, *input_example)
    self.opt_state = self.optimizer.init(self.params)
    self.precision = precision

  @property
  def apply(self) -> Union[Callable, Tuple[Callable]]:
    return self.model.apply

  @property
  def state(self):
    return LearningState(self.params, self.opt_state)

  @state.setter
  def state(self, state: LearningState):
    self.params = state.params
    self.opt_state = state.opt_state


def get_mixed_precision_policy(precision):
  policy = ('params=float32,compute=float' + str(precision) + ',output=float' +
            str(precision))
  return jmp.get_policy(policy)


utils = SimpleNamespace(Learner=Learner, get_mixed_precision_policy=get_mixed_precision_policy)  # scaffolding: the utils module


class PpoLagrangian:  # scaffolding: stand-in for ppo_lagrangian.PpoLagrangian (only what __call__/policy touch)
  def __init__(self, observation_space, action_space, config, logger, actor, critic, safety_critic):  # scaffolding
    self.config, self.logger = config, logger  # scaffolding
    self.rng_seq = hk.PRNGSequence(config.seed)  # scaffolding
    self.training_step = 0  # scaffolding
    self.actor = utils.Learner(actor, next(self.rng_seq), config.actor_opt,  # scaffolding
                               utils.get_mixed_precision_policy(config.precision),  # scaffolding
                               observation_space.sample())  # scaffolding
    self.buffer = SimpleNamespace(full=False)  # scaffolding: episodic_trajectory_buffer, never full here


ppo_lagrangian = SimpleNamespace(PpoLagrangian=PpoLagrangian)  # scaffolding


class MamlPpoLagrangian(ppo_lagrangian.PpoLagrangian):

  def __call__(self, observation: np.ndarray, train: bool, adapt: bool, *args,
               **kwargs) -> np.ndarray:
    if train and self.buffer.full:
      assert adapt, (
          'Should train at the first step of adaptation (after filling up the '
          'buffer with adaptation and query data)')
      self.train(self.buffer.dump())
      self.logger.log_metrics(self.training_step)
    # Use the prior parameters on only adaptation phase, otherwise use prior.
    policy_params = self.actor.params if adapt else self.pi_posterior
    action = self.policy(observation, policy_params, next(self.rng_seq), train,
                         adapt)
    return action

  @partial(jax.jit, static_argnums=(0, 4))
  def policy(self, observation: jnp.ndarray, params: hk.Params,
             key: jnp.ndarray, train: bool, adapt: bool) -> jnp.ndarray:
    policy = self.actor.apply(params, observation)
    # Take the mode on query episodes in which we evaluate the agent.
    if not adapt and not train:
      action = policy.mode()
    else:
      action = policy.sample(seed=key)
    return action


config = SimpleNamespace(  # scaffolding: configs.yaml values, layers cut to 32
    seed=0, precision=32,  # scaffolding
    actor={'layers': [32, 32], 'min_stddev': 0.01, 'max_stddev': 10., 'activation': 'jnn.tanh',  # scaffolding
           'initialization': 'glorot', 'squash': False, 'heteroscedastic': False},  # scaffolding
    actor_opt={'lr': 3e-4, 'eps': 1e-7, 'clip': 10})  # scaffolding
rs = np.random.RandomState(0)  # scaffolding
observation_space = SimpleNamespace(shape=(8,), sample=lambda: rs.uniform(-1, 1, (8,)).astype(np.float32))  # scaffolding
action_space = SimpleNamespace(shape=(2,))  # scaffolding
actor = hk.without_apply_rng(hk.transform(lambda x: models.Actor(**config.actor, output_size=action_space.shape)(x)))  # scaffolding: agents.make
agent = MamlPpoLagrangian(observation_space, action_space, config, None, actor, None, None)  # scaffolding
agent.pi_posterior = agent.actor.params  # scaffolding: the adapted posterior the MAML inner step would produce
calls = 0  # scaffolding
try:  # scaffolding
    for train, adapt in [(True, True), (True, True), (True, False), (True, False)]:  # scaffolding: driver adaptation then query steps
        observation = rs.uniform(-1, 1, (5, 8)).astype(np.float32)  # scaffolding
        action = agent(observation, train, adapt)  # scaffolding
        calls += 1  # scaffolding
    _report({"jit(policy)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
