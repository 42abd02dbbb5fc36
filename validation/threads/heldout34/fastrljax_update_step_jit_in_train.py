# source: https://github.com/ChaitanyaKatti/fast-RL-jax/commit/01ca6c453403ed3b89c3ef845094a95450d2d5a8
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: the commit moved jit from the whole training loop to a single PPO update step: jax.jit(_update_step) is built inside train(), but once, before the update loop, so all updates reuse one compile.
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
import time
from typing import Dict

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.struct import dataclass
from flax.training.train_state import TrainState


@dataclass
class PPOParams:
    LR: float
    NUM_AGENTS: int
    NUM_STEPS: int
    TOTAL_TIMESTEPS: int
    EPOCHS: int
    NUM_MINIBATCHES: int
    GAMMA: float
    GAE_LAMBDA: float
    CLIP_EPS: float
    CLIP_VALUE: float
    ENT_COEF: float
    VF_COEF: float
    MAX_GRAD_NORM: float
    ANNEAL_LR: bool
    DEBUG: bool

    # Derived parameters
    BATCH_SIZE: int     # To be calculated based on NUM_AGENTS and NUM_STEPS
    NUM_UPDATES: int    # To be calculated based on TOTAL_TIMESTEPS, NUM_STEPS, and NUM_AGENTS
    MINIBATCH_SIZE: int # To be calculated based on NUM_AGENTS, NUM_STEPS, and NUM_MINIBATCHES


@dataclass
class Transition:
    done: jnp.ndarray
    action: jnp.ndarray
    value: jnp.ndarray
    reward: jnp.ndarray
    log_prob: jnp.ndarray
    obs: jnp.ndarray
    info: Dict


class _Gaussian:  # scaffolding: stands in for rl/distribution.py
    def __init__(self, mean):
        self.mean = mean

    def sample(self, rng):
        return self.mean + jax.random.normal(rng, self.mean.shape)

    def log_prob(self, a):
        return -0.5 * jnp.sum((a - self.mean) ** 2, axis=-1)

    def entropy(self):
        return jnp.full(self.mean.shape[:-1], 1.4189385 * self.mean.shape[-1])


class Agent(nn.Module):  # scaffolding: small actor-critic instead of rl/network.py
    action_dim: int

    @nn.compact
    def __call__(self, x):
        h = nn.tanh(nn.Dense(16)(x))
        return _Gaussian(nn.Dense(self.action_dim)(h)), nn.Dense(1)(h)[..., 0]


class PointEnv:  # scaffolding: stands in for the zoo environments (vectorised over NUM_AGENTS)
    def observation_space(self, env_params):
        return jnp.zeros((env_params["num_agents"], 2)), jnp.ones((env_params["num_agents"], 2))

    def action_space(self, env_params):
        return jnp.zeros((env_params["num_agents"], 2)), jnp.ones((env_params["num_agents"], 2))

    def reset(self, rng, env_params):
        pos = jax.random.normal(rng, (env_params["num_agents"], 2))
        return pos, pos

    def step(self, rng, state, action, env_params):
        pos = state + 0.1 * action
        reward = -jnp.sum(pos ** 2, axis=-1)
        done = jnp.zeros(pos.shape[0])
        return pos, pos, reward, done, {"reward": reward, "done": done}


def train(network_cls: type[nn.Module], env, env_params, params: PPOParams, seed, jit: bool = True):
    rng = jax.random.PRNGKey(seed)

    # Define a linear learning rate schedule
    def linear_schedule(count):
        frac = (
            1.0
            - (count // (params.NUM_MINIBATCHES * params.EPOCHS))
            / params.NUM_UPDATES
        )
        return params.LR * frac

    # NETWORK
    rng, _rng = jax.random.split(rng)
    init_x = jnp.zeros(env.observation_space(env_params)[0].shape)
    network = network_cls(action_dim=env.action_space(env_params)[0].shape[-1])
    network_params = network.init(_rng, init_x)

    # OPTIMIZER
    if params.ANNEAL_LR:
        tx = optax.chain(
            optax.clip_by_global_norm(params.MAX_GRAD_NORM),
            optax.adam(learning_rate=linear_schedule),
        )
    else:
        tx = optax.chain(
            optax.clip_by_global_norm(params.MAX_GRAD_NORM),
            optax.adam(params.LR),
        )
    train_state = TrainState.create(
        apply_fn=network.apply,
        params=network_params,
        tx=tx,
    )

    # SINGLE TRAIN STEP = COLLECT TRAJECTORIES + UPDATE EPOCHS
    def _update_step(train_state, rng):
        def _env_step(runner_state, rng):
            train_state, env_state, last_obs = runner_state

            # SELECT ACTION
            pi, value = network.apply(train_state.params, last_obs)
            action = pi.sample(rng)
            log_prob = pi.log_prob(action)

            # STEP ENV
            rng_step = jax.random.split(rng, params.NUM_AGENTS)
            obsv, env_state, reward, done, info = env.step(
                rng_step, env_state, action, env_params
            )
            # STORE TRANSITION
            transition = Transition(
                done, action, value, reward, log_prob, last_obs, info
            )
            runner_state = (train_state, env_state, obsv)
            return runner_state, transition

        # RESET ENV
        obsv, env_state = env.reset(rng, env_params)
        runner_state = (train_state, env_state, obsv)

        step_rngs = jax.random.split(rng, params.NUM_STEPS)
        runner_state, traj_batch = jax.lax.scan(
            _env_step, runner_state, step_rngs, length=params.NUM_STEPS
        )

        train_state, env_state, last_obs = runner_state
        _, last_val = network.apply(train_state.params, last_obs)

        def _calculate_gae(traj_batch, last_val):
            def _get_advantages(gae_and_next_value, transition):
                gae, next_value = gae_and_next_value
                done, value, reward = (
                    transition.done,
                    transition.value,
                    transition.reward,
                )
                delta = reward + params.GAMMA * next_value * (1 - done) - value
                gae = (
                    delta
                    + params.GAMMA * params.GAE_LAMBDA * (1 - done) * gae
                )
                return (gae, value), gae

            _, advantages = jax.lax.scan(
                _get_advantages,
                (jnp.zeros_like(last_val), last_val),
                traj_batch,
                reverse=True,
                unroll=16,
            )
            return advantages, advantages + traj_batch.value

        advantages, targets = _calculate_gae(traj_batch, last_val)
        advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)

        def _loss_fn(network_params: Dict, traj_batch, gae, targets):  # (minibatch shuffling and epochs trimmed)
            pi, value = network.apply(network_params, traj_batch.obs)
            log_prob = pi.log_prob(traj_batch.action)
            value_loss = 0.5 * jnp.square(value - targets).mean()
            ratio = jnp.exp(log_prob - traj_batch.log_prob)
            loss_actor = -(ratio * gae - jnp.abs(gae) * jnp.square(ratio - 1.0)/(2.0 * params.CLIP_EPS)).mean()
            entropy = pi.entropy().mean()
            total_loss = loss_actor + params.VF_COEF * value_loss - params.ENT_COEF * entropy
            return total_loss, (loss_actor, value_loss, entropy)

        grad_fn = jax.value_and_grad(_loss_fn, has_aux=True)
        loss_info, grads = grad_fn(train_state.params, traj_batch, advantages, targets)
        train_state = train_state.apply_gradients(grads=grads)
        info = (traj_batch.info, loss_info)
        return train_state, info

    start_time = time.time()

    rngs = jax.random.split(rng, params.NUM_UPDATES)

    if jit:
        print("JIT compilation... (this may take a moment)")
        _update_step = jax.jit(_update_step)

    for i, rng in enumerate(rngs):  # (tqdm progress bar and debug printing trimmed)
        train_state, info = _update_step(train_state, rng)

    print(f"Training time: {time.time() - start_time:.2f} seconds")

    return {"train_state": train_state, "info": info}


ppo_params = PPOParams(  # scaffolding: small hyperparameters
    LR=3e-4, NUM_AGENTS=4, NUM_STEPS=8, TOTAL_TIMESTEPS=160, EPOCHS=1, NUM_MINIBATCHES=1, GAMMA=0.99,
    GAE_LAMBDA=0.95, CLIP_EPS=0.2, CLIP_VALUE=0.2, ENT_COEF=0.01, VF_COEF=0.5, MAX_GRAD_NORM=0.5,
    ANNEAL_LR=True, DEBUG=False, BATCH_SIZE=32, NUM_UPDATES=5, MINIBATCH_SIZE=32,
)
out = train(Agent, PointEnv(), {"num_agents": 4}, ppo_params, seed=42, jit=True)
_report({"jit(_update_step)"}, 5)
