# source: https://github.com/zombie-einstein/JAX-PPO/commit/d476775dd8e4039e374d561c06ec7bc9132b6899
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: train() lists the gymnax env and env_params in static_argnames; EnvParams is a frozen flax struct dataclass of Python scalars, so it hashes by value and repeated training runs reuse one compile.

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

import typing
from functools import partial

import jax
import jax.numpy as jnp
from flax import struct


@struct.dataclass
class EnvParams:  # scaffolding: gymnax Pendulum-v1 EnvParams (gymnax not installed), same fields
    max_speed: float = 8.0
    max_torque: float = 2.0
    dt: float = 0.05
    g: float = 10.0
    m: float = 1.0
    l: float = 1.0
    max_steps_in_episode: int = 200


class Pendulum:  # scaffolding: stand-in for gymnax's Pendulum-v1 environment
    def reset(self, key, params):
        high = jnp.array([jnp.pi, 1.0])
        state = jax.random.uniform(key, shape=(2,), minval=-high, maxval=high)
        return jnp.array([jnp.cos(state[0]), jnp.sin(state[0]), state[1]]), state

    def step_env(self, key, state, action, params):
        u = jnp.clip(action[0], -params.max_torque, params.max_torque)
        th, thdot = state
        reward = -(th ** 2 + 0.1 * thdot ** 2 + 0.001 * u ** 2)
        newthdot = thdot + (3 * params.g / (2 * params.l) * jnp.sin(th) + 3.0 / (params.m * params.l ** 2) * u) * params.dt
        newthdot = jnp.clip(newthdot, -params.max_speed, params.max_speed)
        new_state = jnp.array([th + newthdot * params.dt, newthdot])
        obs = jnp.array([jnp.cos(new_state[0]), jnp.sin(new_state[0]), new_state[1]])
        return obs, new_state, jnp.array([reward]), False, {}


def sample_actions(key, agent, observation):  # scaffolding: stands in for jax_ppo.mlp.algos.sample_actions
    mean = observation @ agent["w"]
    k, k_sample = jax.random.split(key)
    action = mean + jax.random.normal(k_sample, mean.shape)
    return k, action, -0.5 * jnp.sum((action - mean) ** 2, axis=-1), jnp.sum(observation, axis=-1)


def generate_samples(env, env_params, agent, n_samples, n_agents, key):
    def _sample_step(carry, _):
        k, _agent, _state, _observation = carry
        k, _action, _log_likelihood, _value = sample_actions(
            k, _agent, _observation
        )
        k, k_step = jax.random.split(k)
        new_observation, new_state, _reward, _done, _ = env.step_env(
            k_step, _state, _action[0], env_params
        )

        if n_agents is None:
            new_observation = new_observation[jnp.newaxis]
            _done = jnp.array([_done])

        return (
            (k, _agent, new_state, new_observation),
            (_observation, _action, _log_likelihood, _value, _reward[0], _done),  # (Trajectory)
        )

    key, reset_key = jax.random.split(key)
    observation, state = env.reset(reset_key, env_params)

    if n_agents is None:
        observation = observation[jnp.newaxis]

    _, trajectories = jax.lax.scan(
        _sample_step, (key, agent, state, observation), None, length=n_samples + 1
    )

    return trajectories


@partial(
    jax.jit,
    static_argnames=(
        "env",
        "env_params",
        "n_train",
        "n_train_env",
        "n_agents",
        "n_env_steps",
    ),
)
def train(
    key,
    env,
    env_params,
    agent,
    n_train: int,
    n_train_env: int,
    n_agents: typing.Optional[int] = None,
    n_env_steps: typing.Optional[int] = None,
):  # (training/testing arguments and the PPO update trimmed; body from jax_ppo/runner.py)
    if n_env_steps is None:
        n_env_steps = env_params.max_steps_in_episode

    def _train_step(carry, _):
        _key, _agent = carry

        _sample_keys = jax.random.split(_key, n_train_env + 1)
        _key, _sample_keys = _sample_keys[0], _sample_keys[1:]

        trajectories = jax.vmap(
            partial(
                generate_samples,
                env,
                env_params,
                _agent,
                n_env_steps,
                n_agents,
            )
        )(
            _sample_keys,
        )
        return (_key, _agent), jnp.mean(trajectories[4])  # (PPO update trimmed)

    (key, agent), rewards = jax.lax.scan(_train_step, (key, agent), None, length=n_train)
    return key, agent, rewards


env, env_params = Pendulum(), EnvParams()  # scaffolding: env, env_params = gym.make("Pendulum-v1")
agent = {"w": jnp.zeros((3, 1))}  # scaffolding
for seed in range(3):  # scaffolding: three training runs with fresh seeds
    k = jax.random.PRNGKey(seed)
    _k, trained_agent, rewards = train(
        k, env, env_params, agent,
        4,
        2,
    )
_report({"jit(train)"}, 3)
