# source: https://github.com/yardenas/jax-dreamer/commit/4042577b3441b2ad88f21cb972cd05c3660a43a9
# expect: trace-time-error at line 396
# runtime: ERROR TypeError
# why: evaluate_model is a plain @jax.jit and train_utils passes agent.model (a Learner holding the haiku multi_transform) as an ordinary argument, so jit cannot interpret the Learner as an array and raises TypeError.
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



# yardenas/jax-dreamer at the parent of 4042577: dreamer/rssm.py, dreamer/blocks.py (Encoder, Decoder, DenseDecoder),
# dreamer/models.py (WorldModel), train.py (create_model), dreamer/utils.py (Learner, evaluate_model),
# train_utils.py (the evaluate_model call in evaluate), flattened in that order.
from types import SimpleNamespace  # scaffolding
from typing import Callable, Tuple, Union, Sequence

import haiku as hk
import jax
import jax.nn as jnn
import jax.numpy as jnp
import jax.random
import numpy as np
import optax

jax.tree_map = jax.tree_util.tree_map  # scaffolding: removed from jax since the commit


class _Dist:  # scaffolding: stand-in for tensorflow_probability.substrates.jax distributions (not installed)
    def __init__(self, loc, scale=1.0, *args, **kwargs):  # scaffolding
        self.loc, self.scale = loc, scale  # scaffolding

    def mean(self):  # scaffolding
        return self.loc  # scaffolding

    def stddev(self):  # scaffolding
        return self.scale * jnp.ones_like(self.loc)  # scaffolding

    def sample(self, seed):  # scaffolding
        return self.loc + self.scale * jax.random.normal(seed, jnp.shape(self.loc))  # scaffolding


class _Independent(_Dist):  # scaffolding
    def __init__(self, dist, n):  # scaffolding
        super().__init__(dist.loc, dist.scale)  # scaffolding


tfd = SimpleNamespace(Normal=_Dist, MultivariateNormalDiag=_Dist, Bernoulli=_Dist, Independent=_Independent)  # scaffolding

State = Tuple[jnp.ndarray, jnp.ndarray]
Action = jnp.ndarray
Observation = jnp.ndarray


class Prior(hk.Module):
    def __init__(self, config):
        super(Prior, self).__init__()
        self.c = config

    def __call__(self, prev_state: State, prev_action: Action
                 ) -> Tuple[tfd.MultivariateNormalDiag, State]:
        stoch, det = prev_state
        cat = jnp.concatenate([prev_action, stoch], -1)
        x = jnn.elu(hk.Linear(self.c['deterministic_size'])(cat))
        x, det = hk.GRU(self.c['deterministic_size'])(x, det)
        x = jnn.elu(hk.Linear(self.c['hidden'])(x))
        mean = hk.Linear(self.c['stochastic_size'])(x)
        stddev = jnn.softplus(hk.Linear(self.c['stochastic_size'])(x)) + 0.1
        prior = tfd.MultivariateNormalDiag(mean, stddev)
        sample = prior.sample(seed=hk.next_rng_key())
        return prior, (sample, det)


class Posterior(hk.Module):
    def __init__(self, config):
        super(Posterior, self).__init__()
        self.c = config

    def __call__(self, prev_state: State, observation: Observation
                 ) -> Tuple[tfd.MultivariateNormalDiag, State]:
        stoch, det = prev_state
        cat = jnp.concatenate([det, observation], -1)
        x = jnn.elu(hk.Linear(self.c['hidden'])(cat))
        mean = hk.Linear(self.c['stochastic_size'])(x)
        stddev = jnn.softplus(hk.Linear(self.c['stochastic_size'])(x)) + 0.1
        posterior = tfd.MultivariateNormalDiag(mean, stddev)
        sample = posterior.sample(seed=hk.next_rng_key())
        return posterior, (sample, det)


def init_state(batch_size: int, stochastic_size: int,
               deterministic_size: int) -> State:
    return (jnp.zeros((batch_size, stochastic_size)),
            jnp.zeros((batch_size, deterministic_size)))


class RSSM(hk.Module):
    def __init__(self, config):
        super(RSSM, self).__init__()
        self.c = config
        self.prior = Prior(config.rssm)
        self.posterior = Posterior(config.rssm)

    def __call__(self, prev_state: State, prev_action: Action,
                 observation: Observation
                 ) -> Tuple[Tuple[tfd.MultivariateNormalDiag,
                                  tfd.MultivariateNormalDiag],
                            State]:
        prior, state = self.prior(prev_state, prev_action)
        posterior, state = self.posterior(state, observation)
        return (prior, posterior), state

    def generate_sequence(self, initial_features: jnp.ndarray,
                          actor: hk.Transformed,
                          actor_params: hk.Params,
                          actions=None) -> jnp.ndarray:
        def vec(state):
            return jnp.concatenate(state, -1)

        sequence = jnp.zeros(
            (initial_features.shape[0],
             self.c.imag_horizon,
             self.c.rssm['stochastic_size'] + self.c.rssm['deterministic_size'])
        )
        state = jnp.split(initial_features,
                          (self.c.rssm['stochastic_size'],), -1)
        keys = hk.next_rng_keys(
            self.c.imag_horizon if not actions else actions.shape[1]
        )
        for t, key in enumerate(keys):
            action = actor.apply(
                actor_params,
                jax.lax.stop_gradient(vec(state))
            ).sample(seed=key) if not actions else actions[:, t]
            _, state = self.prior(state, action)
            sequence = sequence.at[:, t].set(vec(state))
        return sequence

    def observe_sequence(self, observations: Observation, actions: Action
                         ) -> Tuple[Tuple[tfd.MultivariateNormalDiag,
                                          tfd.MultivariateNormalDiag],
                                    jnp.ndarray]:
        priors, posteriors = [], []
        features = jnp.zeros(observations.shape[:2] +
                             (self.c.rssm['stochastic_size'] + self.c.rssm[
                                 'deterministic_size'],))
        state = init_state(observations.shape[0],
                           self.c.rssm['stochastic_size'],
                           self.c.rssm['deterministic_size'])
        for t in range(observations.shape[1]):
            (prior, posterior), state = self.__call__(
                state,
                actions[:, t],
                observations[:, t]
            )
            priors.append((prior.mean(), prior.stddev()))
            posteriors.append((posterior.mean(), posterior.stddev()))
            features = features.at[:, t].set(jnp.concatenate(state, -1))

        def joint_mvn(dists):
            mus, stddevs = jnp.asarray(list(zip(*dists))
                                       ).transpose((0, 2, 1, 3))
            return tfd.MultivariateNormalDiag(mus, stddevs)

        prior = joint_mvn(priors)
        posterior = joint_mvn(posteriors)
        return (prior, posterior), features


class Encoder(hk.Module):
    def __init__(self, depth: int, kernels: Sequence[int]):
        super(Encoder, self).__init__()
        self._depth = depth
        self._kernels = kernels

    def __call__(self, observation: jnp.ndarray) -> jnp.ndarray:
        def cnn(x):
            for i, kernel in enumerate(self._kernels):
                depth = 2 ** i * self._depth
                x = jnn.relu(hk.Conv2D(depth, kernel, 2, padding='VALID')(x))
            return x
        cnn = hk.BatchApply(cnn)
        return hk.Flatten(2)(cnn(observation))


class Decoder(hk.Module):
    def __init__(self, depth: int,
                 kernels: Sequence[int],
                 output_shape: Sequence[int]):
        super(Decoder, self).__init__()
        self._depth = depth
        self._kernels = kernels
        self._output_shape = output_shape

    def __call__(self, features: jnp.ndarray) -> jnp.ndarray:
        x = hk.Linear(32 * self._depth)(features)
        x = hk.Reshape((-1, 1, 32 * self._depth), 2)(x)

        def transpose_cnn(x):
            for i, kernel in enumerate(self._kernels):
                depth = 2 ** (len(self._kernels) - i - 2) * self._depth
                if i != len(self._kernels) - 1:
                    x = jnn.relu(hk.Conv2DTranspose(
                        depth, kernel, 2, padding='VALID')(x))
                else:
                    x = jnn.relu(hk.Conv2DTranspose(
                        self._output_shape[-1], kernel, 2, padding='VALID')(x))
            return x

        out = hk.BatchApply(transpose_cnn)(x)
        return tfd.Independent(tfd.Normal(out, 1), len(self._output_shape))


class DenseDecoder(hk.Module):
    def __init__(self, output_sizes: Sequence[int], dist: str):
        super(DenseDecoder, self).__init__()
        self._output_size = output_sizes
        self._dist = dist

    def __call__(self, features: jnp.ndarray):
        mlp = hk.nets.MLP(self._output_size, activation=jnn.elu)
        mlp = hk.BatchApply(mlp)
        x = mlp(features)
        x = jnp.squeeze(x, axis=-1)
        dist = dict(
            normal=lambda mu: tfd.Normal(mu, 1.0),
            bernoulli=lambda p: tfd.Bernoulli(p, dtype=jnp.float32)
        )[self._dist]
        return tfd.Independent(dist(x), 0)


class WorldModel(hk.Module):
    def __init__(self, observation_space, config):
        super(WorldModel, self).__init__()
        self.rssm = RSSM(config)
        self.encoder = Encoder(config.encoder['depth'],  # scaffolding: b. module prefix dropped
                               tuple(config.encoder['kernels']))
        self.decoder = Decoder(config.decoder['depth'],  # scaffolding: b. module prefix dropped
                               tuple(config.decoder['kernels']),
                               observation_space.shape)
        self.reward = DenseDecoder(tuple(config.reward['output_sizes'])  # scaffolding: b. module prefix dropped
                                   + (1,), 'normal')
        self.terminal = DenseDecoder(tuple(config.terminal['output_sizes'])  # scaffolding: b. module prefix dropped
                                     + (1,), 'bernoulli')

    def __call__(
            self,
            prev_state: State,
            prev_action: Action,
            observation: Observation
    ) -> Tuple[Tuple[tfd.MultivariateNormalDiag,
                     tfd.MultivariateNormalDiag],
               State]:
        observation = jnp.squeeze(self.encoder(observation[None, None]))
        return self.rssm(prev_state, prev_action, observation)

    def generate_sequence(
            self,
            initial_features: jnp.ndarray, actor: hk.Transformed,
            actor_params: hk.Params, actions=None
    ) -> Tuple[jnp.ndarray, tfd.Normal, tfd.Bernoulli]:
        features = self.rssm.generate_sequence(initial_features, actor,
                                               actor_params, actions)
        reward = self.reward(features)
        terminal = self.terminal(features)
        return features, reward, terminal

    def observe_sequence(
            self,
            observations: Observation, actions: Action
    ) -> Tuple[
        Tuple[tfd.MultivariateNormalDiag,
              tfd.MultivariateNormalDiag],
        jnp.ndarray, tfd.Normal, tfd.Normal, tfd.Bernoulli
    ]:
        observations = self.encoder(observations)
        (prior, posterior), features = self.rssm.observe_sequence(observations,
                                                                  actions)
        reward = self.reward(features)
        terminal = self.terminal(features)
        decoded = self.decode(features)
        return (prior, posterior), features, decoded, reward, terminal

    def decode(self, featuers: jnp.ndarray) -> tfd.Normal:
        return self.decoder(featuers)


def create_model(config, observation_space):
    def model():
        _model = WorldModel(observation_space, config)  # scaffolding: models. module prefix dropped

        def filter_state(prev_state, prev_action, observation):
            return _model(prev_state, prev_action, observation)

        def generate_sequence(initial_state, policy,
                              policy_params):
            return _model.generate_sequence(initial_state, policy,
                                            policy_params)

        def observe_sequence(observations, actions):
            return _model.observe_sequence(observations, actions)

        def decode(feature):
            return _model.decode(feature)

        def init(observations, actions):
            return _model.observe_sequence(observations, actions)

        return init, (filter_state, generate_sequence, observe_sequence,
                      decode)

    return hk.multi_transform(model)


PRNGKey = jnp.ndarray


class Learner:
    def __init__(
            self,
            model: Union[hk.Transformed, hk.MultiTransformed],
            seed: PRNGKey,
            optimizer_config: dict,
            *input_example: Tuple
    ):
        self.optimizer = optax.chain(
            optax.clip_by_global_norm(optimizer_config['clip']),
            optax.scale_by_adam(eps=optimizer_config['eps']),
            optax.scale(-optimizer_config['lr']))
        self.model = model
        self.params = self.model.init(seed, *input_example)
        self.opt_state = self.optimizer.init(self.params)

    @property
    def apply(self) -> Union[Callable, Tuple[Callable]]:
        return self.model.apply


@jax.jit
def evaluate_model(observations, actions, key, model, model_params):
    length = min(len(observations) + 1, 50)
    _, generate_sequence, infer, decode = model.apply
    key, subkey = jax.random.split(key)
    _, features, infered_decoded, *_ = infer(model_params,
                                             subkey,
                                             observations[:length],
                                             actions[:length])
    conditioning_length = length // 5
    key, subkey = jax.random.split(key)
    generated = generate_sequence(
        model_params, subkey, features[:, :conditioning_length], None, None,
        actions=actions[:, conditioning_length:])
    key, subkey = jax.random.split(key)
    generated_decoded = decode(model_params, subkey, generated)
    out = observations[:length], infered_decoded, generated_decoded
    out = jax.tree_map(lambda x: ((x + 0.5) * 255).astype(jnp.uint8), out)
    return out

config = SimpleNamespace(  # scaffolding: dreamer/config.yaml, sizes cut down for CPU
    rssm={'hidden': 32, 'deterministic_size': 32, 'stochastic_size': 8},  # scaffolding
    model_opt={'lr': 3e-4, 'eps': 1e-5, 'clip': 100},  # scaffolding
    encoder={'depth': 4, 'kernels': [4, 4, 4, 4]},  # scaffolding
    decoder={'depth': 4, 'kernels': [5, 5, 6, 6]},  # scaffolding
    reward={'output_sizes': [16]},  # scaffolding
    terminal={'output_sizes': [16]},  # scaffolding
    imag_horizon=15,  # scaffolding
)  # scaffolding
observation_space = SimpleNamespace(shape=(64, 64, 3))  # scaffolding: pendulum.swingup pixels
T, action_dim = 10, 1  # scaffolding: a short evaluation episode
model = Learner(create_model(config, observation_space), jax.random.PRNGKey(0), config.model_opt,  # scaffolding: as Dreamer builds it
                jnp.zeros((1, 2) + observation_space.shape), jnp.zeros((1, 2, action_dim)))  # scaffolding
agent = SimpleNamespace(model=model, rng_seq=hk.PRNGSequence(1))  # scaffolding
rng = np.random.default_rng(0)  # scaffolding
calls = 0  # scaffolding
try:  # scaffolding
    for epoch in range(2):  # scaffolding: two evaluation epochs of train_utils.train
        evaluation_episodes_summaries = [{  # scaffolding
            'observation': rng.uniform(-0.5, 0.5, (T,) + observation_space.shape).astype(np.float32),  # scaffolding
            'action': rng.uniform(-1, 1, (T, action_dim)).astype(np.float32)}]  # scaffolding
        more_vidoes = evaluate_model(
            evaluation_episodes_summaries[0]['observation'],
            evaluation_episodes_summaries[0]['action'],
            next(agent.rng_seq),
            agent.model, agent.model.params)
        calls += 1  # scaffolding
    _report({"jit(evaluate_model)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
