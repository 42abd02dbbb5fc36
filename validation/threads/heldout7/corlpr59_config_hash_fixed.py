# source: https://github.com/nissymori/JAX-CORL/pull/59
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: With the PR's __hash__ (hash of the config's repr) the pydantic config is a valid static argument and the jitted update compiles once for three calls.

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
from typing import Dict, NamedTuple, Sequence, Tuple

import jax
import jax.numpy as jnp
from pydantic import BaseModel


class TD3BCConfig(BaseModel):
    # GENERAL
    algo: str = "TD3-BC"
    project: str = "train-TD3-BC"
    env_name: str = "halfcheetah-medium-expert-v2"
    seed: int = 42
    eval_episodes: int = 5
    log_interval: int = 100000
    eval_interval: int = 10000
    batch_size: int = 256
    max_steps: int = int(1e6)
    n_jitted_updates: int = 8
    # DATASET
    data_size: int = int(1e6)
    normalize_state: bool = True
    # NETWORK
    hidden_dims: Sequence[int] = (256, 256)
    critic_lr: float = 1e-3
    actor_lr: float = 1e-3
    # TD3-BC SPECIFIC
    policy_freq: int = 2  # update actor every policy_freq updates
    alpha: float = 2.5  # BC loss weight
    policy_noise_std: float = 0.2  # std of policy noise
    policy_noise_clip: float = 0.5  # clip policy noise
    tau: float = 0.005  # target network update rate
    discount: float = 0.99  # discount factor

    def __hash__(
        self,
    ):  # make config hashable to be specified as static_argnums in jax.jit.
        return hash(self.__repr__())


config = TD3BCConfig(batch_size=16, n_jitted_updates=2)  # scaffolding: small sizes, no CLI


class Transition(NamedTuple):
    observations: jnp.ndarray
    actions: jnp.ndarray


class TD3BCTrainer(NamedTuple):
    # scaffolding: linear actor/critic weights stand in for the flax TrainStates
    actor: jnp.ndarray
    critic: jnp.ndarray
    update_idx: jnp.int32
    max_action: float = 1.0

    def update_actor(agent, batch: Transition, rng, config: TD3BCConfig):
        def actor_loss_fn(actor):
            predicted_action = batch.observations @ actor
            bc_loss = jnp.square(predicted_action - batch.actions).mean()
            return config.alpha * bc_loss
        loss, grad = jax.value_and_grad(actor_loss_fn)(agent.actor)
        return agent._replace(actor=agent.actor - config.actor_lr * grad), loss

    def update_critic(agent, batch: Transition, rng, config: TD3BCConfig):
        def critic_loss_fn(critic):
            q = jnp.concatenate([batch.observations, batch.actions], -1) @ critic
            return jnp.square(q - config.discount).mean()
        loss, grad = jax.value_and_grad(critic_loss_fn)(agent.critic)
        return agent._replace(critic=agent.critic - config.critic_lr * grad), loss

    @partial(jax.jit, static_argnums=(3,))
    def update_n_times(
        agent,
        data: Transition,
        rng,
        config: TD3BCConfig,
    ) -> Tuple["TD3BCTrainer", Dict]:
        for _ in range(
            config.n_jitted_updates
        ):  # we can jit for roop for static unroll
            rng, batch_rng = jax.random.split(rng, 2)
            batch_idx = jax.random.randint(
                batch_rng, (config.batch_size,), 0, len(data.observations)
            )
            batch: Transition = jax.tree.map(lambda x: x[batch_idx], data)
            rng, critic_rng, actor_rng = jax.random.split(rng, 3)
            agent, critic_loss = agent.update_critic(batch, critic_rng, config)
            if _ % config.policy_freq == 0:
                agent, actor_loss = agent.update_actor(batch, actor_rng, config)
        return agent._replace(update_idx=agent.update_idx + 1), {
            "critic_loss": critic_loss,
            "actor_loss": actor_loss,
        }


# scaffolding: a random dataset and three update calls
key = jax.random.PRNGKey(config.seed)
dataset = Transition(jax.random.normal(key, (64, 3)), jax.random.normal(key, (64, 2)))
agent = TD3BCTrainer(jnp.zeros((3, 2)), jnp.zeros((5, 1)), jnp.int32(0))
try:
    calls = 0
    for i in range(3):
        key, update_rng = jax.random.split(key)
        agent, update_info = agent.update_n_times(
            dataset,
            update_rng,
            config,
        )  # update parameters
        calls += 1
    _report({"jit(update_n_times)"}, calls)
except Exception as e:
    print(f"ERROR {type(e).__name__}")
