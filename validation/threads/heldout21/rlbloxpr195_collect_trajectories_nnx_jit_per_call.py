# source: https://github.com/mlaux1/rl-blox/pull/195
# expect: jit-in-loop-or-body at line 111
# runtime: COMPILES 8 CALLS 64
# why: sample and value are defined and wrapped in nnx.jit inside collect_trajectories, so each call of collect_trajectories (once per PPO update) builds new jitted functions that trace and compile again: 4 updates give 8 compiles.
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
# mlaux1/rl-blox PR #195, commit 6a7d0cb^ (before 'JIT PPO data collection'): rl_blox/algorithm/ppo.py collect_trajectories, mlp.py MLP, policy_head.py SoftmaxPolicy
import jax
import jax.numpy as jnp
import numpy as np
import chex
from flax import nnx


class dist:  # scaffolding: tensorflow_probability.substrates.jax.distributions stand-in
    class Categorical:
        def __init__(self, logits):
            self.logits = logits

        def sample(self, seed, sample_shape=()):
            return jax.random.categorical(seed, self.logits, shape=sample_shape + self.logits.shape[:-1])


class VecEnv:  # scaffolding: gym.vector.VectorEnv stand-in (CartPole-like, 4 envs, never done)
    def __init__(self, n=4):
        self.n = n
        self.rng = np.random.default_rng(0)

    def reset(self):
        return self.rng.normal(size=(self.n, 4)).astype(np.float32), {}

    def step(self, action):
        obs = self.rng.normal(size=(self.n, 4)).astype(np.float32)
        return obs, np.ones(self.n, np.float32), np.zeros(self.n, bool), np.zeros(self.n, bool), {}


class MLP(nnx.Module):
    n_outputs: int

    def __init__(
        self,
        n_features: int,
        n_outputs: int,
        hidden_nodes: list[int],
        activation: str,
        rngs: nnx.Rngs,
    ):
        chex.assert_scalar_positive(n_features)
        chex.assert_scalar_positive(n_outputs)
        self.n_outputs = n_outputs
        self.activation = getattr(nnx, activation)
        self.hidden_layers = nnx.List()  # scaffolding: was [] (flax 0.12 needs nnx.List)
        n_in = n_features
        for n_out in hidden_nodes:
            self.hidden_layers.append(nnx.Linear(n_in, n_out, rngs=rngs))
            n_in = n_out

        self.output_layer = nnx.Linear(n_in, n_outputs, rngs=rngs)
    def __call__(self, x: jnp.ndarray) -> jnp.ndarray:
        for layer in self.hidden_layers:
            x = self.activation(layer(x))
        return self.output_layer(x)


class SoftmaxPolicy(nnx.Module):  # StochasticPolicyBase in rl-blox
    net: nnx.Module

    def __init__(self, net: nnx.Module):
        self.net = net

    def __call__(self, observation: jnp.ndarray) -> jnp.ndarray:
        return nnx.softmax(self.logits(observation))

    def logits(self, observation: jnp.ndarray) -> jnp.ndarray:
        return self.net(observation)
    def sample(self, observation: jnp.ndarray, key: jnp.ndarray) -> jnp.ndarray:
        return dist.Categorical(logits=self.logits(observation)).sample(
            seed=key,
            sample_shape=(),
        )


def collect_trajectories(
    envs,
    actor,
    critic: nnx.Module,
    key: jnp.ndarray,
    batch_size: int = 64,
    logger=None,
    last_observation=None,
    global_step: int = 0,
):
    @nnx.jit
    def sample(policy, observation, subkey):
        return policy.sample(observation, subkey)

    @nnx.jit
    def value(value_fn, observation):
        return value_fn(observation).flatten()

    def add_to_batch(batch, value):
        return (
            jnp.array(value[None, ...])
            if batch is None
            else jnp.concat([batch, value[None, ...]], axis=0)
        )

    observations, actions, rewards, terminated_arr, next_values = (
        None,
        None,
        None,
        None,
        None,
    )
    obs = envs.reset()[0] if last_observation is None else last_observation

    for _ in range(batch_size):
        key, subkey = jax.random.split(key)
        action = sample(actor, obs, subkey)
        next_obs, reward, terminated, truncated, info = envs.step(
            np.asarray(action)
        )

        observations = add_to_batch(observations, obs)
        actions = add_to_batch(actions, action)
        rewards = add_to_batch(rewards, reward)

        obs = jnp.copy(next_obs)
        next_value = value(critic, obs)
        terminated_arr = add_to_batch(terminated_arr, terminated)
        next_values = add_to_batch(next_values, next_value)
        obs = next_obs

    return observations, actions, rewards, terminated_arr, next_values, obs, global_step  # scaffolding: reshaping and GAE left out


envs = VecEnv()  # scaffolding
actor = SoftmaxPolicy(MLP(4, 2, [16], "relu", nnx.Rngs(0)))  # scaffolding
critic = MLP(4, 1, [16], "relu", nnx.Rngs(1))  # scaffolding
key = jax.random.PRNGKey(0)  # scaffolding
last_obs = None  # scaffolding
for update in range(4):  # scaffolding: train_ppo's loop over updates, 8 steps each
    key, subkey = jax.random.split(key)  # scaffolding
    *_, last_obs, _ = collect_trajectories(envs, actor, critic, subkey, batch_size=8, last_observation=last_obs)  # scaffolding
_report({"jit(sample)", "jit(value)"}, 64)  # scaffolding
