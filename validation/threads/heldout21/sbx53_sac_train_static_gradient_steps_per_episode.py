# source: https://github.com/araffin/sbx/issues/53
# expect: changing-static at line 91
# runtime: COMPILES 3 CALLS 4
# why: SAC._train is jitted with gradient_steps static (and the sampled batch is batch_size * gradient_steps long), so with train_freq per episode every new episode length compiles _train again, as araffin says (it might re-compile the training loop if the number of steps changes): 3 compiles for 4 episodes.
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
# araffin/sbx#53 (train_freq per episode): sbx/sac/sac.py at 6a50cbf (the release the thread discusses), SAC._train and update_actor_and_temperature
from functools import partial
from typing import Any, Dict, NamedTuple  # scaffolding: NamedTuple for the type alias below

import jax
import jax.numpy as jnp
import numpy as np
from jax.typing import ArrayLike

TrainState = RLTrainState = dict  # scaffolding: flax TrainState stand-ins (the states are dicts of arrays here)


class ReplayBufferSamplesNp(NamedTuple):  # sbx/common/type_aliases.py
    observations: np.ndarray
    actions: np.ndarray
    next_observations: np.ndarray
    dones: np.ndarray
    rewards: np.ndarray


class SAC:
    @staticmethod
    @jax.jit
    def update_critic(gamma, actor_state, qf_state, ent_coef_state, observations, actions, next_observations, rewards, dones, key):  # scaffolding: a linear critic instead of the flax Q-networks
        key, sub = jax.random.split(key)
        q = observations @ qf_state["w"] + actions.sum(-1)
        target = rewards + gamma * (1.0 - dones) * (next_observations @ qf_state["w"])
        loss = jnp.mean((q - target) ** 2)
        qf_state = {"w": qf_state["w"] - 1e-3 * jnp.mean(observations, 0) * loss}
        return qf_state, (loss, jnp.exp(ent_coef_state["log_ent"])), key

    @staticmethod
    @jax.jit
    def soft_update(tau, qf_state):  # scaffolding: target update
        return qf_state

    @classmethod
    def update_actor(cls, actor_state, qf_state, ent_coef_state, observations, key):  # scaffolding: a linear actor
        loss = jnp.mean(observations @ actor_state["w"])
        return {"w": actor_state["w"] - 1e-3}, qf_state, loss, key, -loss

    @classmethod
    def update_temperature(cls, target_entropy, ent_coef_state, entropy):  # scaffolding
        return ent_coef_state, entropy - target_entropy

    @classmethod
    def update_actor_and_temperature(
        cls,
        actor_state: RLTrainState,
        qf_state: RLTrainState,
        ent_coef_state: TrainState,
        observations: jax.Array,
        target_entropy: ArrayLike,
        key: jax.Array,
    ):
        (actor_state, qf_state, actor_loss_value, key, entropy) = cls.update_actor(
            actor_state,
            qf_state,
            ent_coef_state,
            observations,
            key,
        )
        ent_coef_state, ent_coef_loss_value = cls.update_temperature(target_entropy, ent_coef_state, entropy)
        return actor_state, qf_state, ent_coef_state, actor_loss_value, ent_coef_loss_value, key

    @classmethod
    @partial(jax.jit, static_argnames=["cls", "gradient_steps", "policy_delay", "policy_delay_offset"])
    def _train(
        cls,
        gamma: float,
        tau: float,
        target_entropy: ArrayLike,
        gradient_steps: int,
        data: ReplayBufferSamplesNp,
        policy_delay: int,
        policy_delay_offset: int,
        qf_state: RLTrainState,
        actor_state: TrainState,
        ent_coef_state: TrainState,
        key: jax.Array,
    ):
        assert data.observations.shape[0] % gradient_steps == 0
        batch_size = data.observations.shape[0] // gradient_steps

        carry = {
            "actor_state": actor_state,
            "qf_state": qf_state,
            "ent_coef_state": ent_coef_state,
            "key": key,
            "info": {
                "actor_loss": jnp.array(0.0),
                "qf_loss": jnp.array(0.0),
                "ent_coef_loss": jnp.array(0.0),
            },
        }

        def one_update(i: int, carry: Dict[str, Any]) -> Dict[str, Any]:
            # Note: this method must be defined inline because
            # `fori_loop` expect a signature fn(index, carry) -> carry
            actor_state = carry["actor_state"]
            qf_state = carry["qf_state"]
            ent_coef_state = carry["ent_coef_state"]
            key = carry["key"]
            info = carry["info"]
            batch_obs = jax.lax.dynamic_slice_in_dim(data.observations, i * batch_size, batch_size)
            batch_act = jax.lax.dynamic_slice_in_dim(data.actions, i * batch_size, batch_size)
            batch_next_obs = jax.lax.dynamic_slice_in_dim(data.next_observations, i * batch_size, batch_size)
            batch_rew = jax.lax.dynamic_slice_in_dim(data.rewards, i * batch_size, batch_size)
            batch_done = jax.lax.dynamic_slice_in_dim(data.dones, i * batch_size, batch_size)
            (
                qf_state,
                (qf_loss_value, ent_coef_value),
                key,
            ) = cls.update_critic(
                gamma,
                actor_state,
                qf_state,
                ent_coef_state,
                batch_obs,
                batch_act,
                batch_next_obs,
                batch_rew,
                batch_done,
                key,
            )
            qf_state = cls.soft_update(tau, qf_state)

            (actor_state, qf_state, ent_coef_state, actor_loss_value, ent_coef_loss_value, key) = jax.lax.cond(
                (policy_delay_offset + i) % policy_delay == 0,
                # If True:
                cls.update_actor_and_temperature,
                # If False:
                lambda *_: (actor_state, qf_state, ent_coef_state, info["actor_loss"], info["ent_coef_loss"], key),
                actor_state,
                qf_state,
                ent_coef_state,
                batch_obs,
                target_entropy,
                key,
            )
            info = {"actor_loss": actor_loss_value, "qf_loss": qf_loss_value, "ent_coef_loss": ent_coef_loss_value}

            return {
                "actor_state": actor_state,
                "qf_state": qf_state,
                "ent_coef_state": ent_coef_state,
                "key": key,
                "info": info,
            }

        update_carry = jax.lax.fori_loop(0, gradient_steps, one_update, carry)

        return (
            update_carry["qf_state"],
            update_carry["actor_state"],
            update_carry["ent_coef_state"],
            update_carry["key"],
            (update_carry["info"]["actor_loss"], update_carry["info"]["qf_loss"], update_carry["info"]["ent_coef_loss"]),
        )


# scaffolding: OffPolicyAlgorithm with train_freq=(1, "episode") and gradient_steps=-1 calls
# train(gradient_steps=<env steps of the finished episode>), and SAC.train samples batch_size * gradient_steps
batch_size = 4  # scaffolding
qf_state, actor_state, ent_coef_state = {"w": jnp.zeros(3)}, {"w": jnp.zeros(3)}, {"log_ent": jnp.zeros(())}  # scaffolding
key = jax.random.PRNGKey(0)  # scaffolding
rng = np.random.default_rng(0)  # scaffolding
episode_lengths = [5, 7, 5, 6]  # scaffolding: episodes end at different steps
for gradient_steps in episode_lengths:  # scaffolding
    n = batch_size * gradient_steps  # scaffolding
    data = ReplayBufferSamplesNp(rng.normal(size=(n, 3)).astype(np.float32), rng.normal(size=(n, 1)).astype(np.float32), rng.normal(size=(n, 3)).astype(np.float32), np.zeros(n, np.float32), np.ones(n, np.float32))  # scaffolding
    qf_state, actor_state, ent_coef_state, key, losses = SAC._train(0.99, 0.005, -1.0, gradient_steps, data, 1, 0, qf_state, actor_state, ent_coef_state, key)  # scaffolding: self._train(...) in SAC.train
_report({"jit(_train)"}, len(episode_lengths))  # scaffolding
