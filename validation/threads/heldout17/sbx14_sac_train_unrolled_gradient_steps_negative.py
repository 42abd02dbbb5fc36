# source: https://github.com/araffin/sbx/issues/14
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: SAC._train unrolls a Python loop over the static gradient_steps (slow to compile for 1000 steps, the issue) and calls the jitted update functions inside (inlined); gradient_steps and the policy_delay_indices keys are the same on every call, so _train compiles once for 3 train() calls.
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
from typing import NamedTuple

import flax
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.training.train_state import TrainState


class RLTrainState(TrainState):  # type: ignore[misc]
    target_params: flax.core.FrozenDict  # type: ignore[misc]


class ReplayBufferSamplesNp(NamedTuple):
    observations: np.ndarray
    actions: np.ndarray
    next_observations: np.ndarray
    dones: np.ndarray
    rewards: np.ndarray


class SAC:
    policy_delay = 1  # scaffolding: SAC's default
    gamma, tau, target_entropy = 0.99, 0.005, np.float32(-1.0)  # scaffolding

    @staticmethod
    @jax.jit
    def update_critic(gamma, actor_state, qf_state, ent_coef_state, observations, actions, next_observations, rewards, dones, key):  # scaffolding: linear actor/critic instead of SACPolicy
        key, noise_key = jax.random.split(key, 2)  # scaffolding
        next_actions = jnp.tanh(next_observations @ actor_state.params["w"])  # scaffolding
        ent_coef_value = ent_coef_state.apply_fn({"params": ent_coef_state.params})  # scaffolding
        next_q = qf_state.apply_fn(qf_state.target_params, next_observations, next_actions)  # scaffolding
        target_q = rewards + (1 - dones) * gamma * next_q  # scaffolding

        def mse_loss(params):  # scaffolding
            return ((qf_state.apply_fn(params, observations, actions) - target_q) ** 2).mean()  # scaffolding

        qf_loss_value, grads = jax.value_and_grad(mse_loss)(qf_state.params)  # scaffolding
        qf_state = qf_state.apply_gradients(grads=grads)  # scaffolding
        return qf_state, (qf_loss_value, ent_coef_value), key  # scaffolding

    @staticmethod
    @jax.jit
    def update_actor(actor_state, qf_state, ent_coef_state, observations, key):  # scaffolding: deterministic linear actor
        def actor_loss(params):  # scaffolding
            actor_actions = jnp.tanh(observations @ params["w"])  # scaffolding
            min_qf_pi = qf_state.apply_fn(qf_state.params, observations, actor_actions)  # scaffolding
            log_prob = -0.5 * (actor_actions ** 2).sum(-1)  # scaffolding
            ent_coef_value = ent_coef_state.apply_fn({"params": ent_coef_state.params})  # scaffolding
            return (ent_coef_value * log_prob - min_qf_pi).mean(), -log_prob.mean()  # scaffolding

        (actor_loss_value, entropy), grads = jax.value_and_grad(actor_loss, has_aux=True)(actor_state.params)
        actor_state = actor_state.apply_gradients(grads=grads)

        return actor_state, qf_state, actor_loss_value, key, entropy

    @staticmethod
    @jax.jit
    def soft_update(tau: float, qf_state: RLTrainState):
        qf_state = qf_state.replace(target_params=optax.incremental_update(qf_state.params, qf_state.target_params, tau))
        return qf_state

    @staticmethod
    @jax.jit
    def update_temperature(target_entropy: np.ndarray, ent_coef_state: TrainState, entropy: float):
        def temperature_loss(temp_params):
            ent_coef_value = ent_coef_state.apply_fn({"params": temp_params})
            ent_coef_loss = ent_coef_value * (entropy - target_entropy).mean()
            return ent_coef_loss

        ent_coef_loss, grads = jax.value_and_grad(temperature_loss)(ent_coef_state.params)
        ent_coef_state = ent_coef_state.apply_gradients(grads=grads)

        return ent_coef_state, ent_coef_loss

    @classmethod
    @partial(jax.jit, static_argnames=["cls", "gradient_steps"])
    def _train(
        cls,
        gamma: float,
        tau: float,
        target_entropy: np.ndarray,
        gradient_steps: int,
        data: ReplayBufferSamplesNp,
        policy_delay_indices: flax.core.FrozenDict,
        qf_state: RLTrainState,
        actor_state: TrainState,
        ent_coef_state: TrainState,
        key,
    ):
        actor_loss_value = jnp.array(0)

        for i in range(gradient_steps):

            def slice(x, step=i):
                assert x.shape[0] % gradient_steps == 0
                batch_size = x.shape[0] // gradient_steps
                return x[batch_size * step : batch_size * (step + 1)]

            (
                qf_state,
                (qf_loss_value, ent_coef_value),
                key,
            ) = SAC.update_critic(
                gamma,
                actor_state,
                qf_state,
                ent_coef_state,
                slice(data.observations),
                slice(data.actions),
                slice(data.next_observations),
                slice(data.rewards),
                slice(data.dones),
                key,
            )
            qf_state = SAC.soft_update(tau, qf_state)

            # hack to be able to jit (n_updates % policy_delay == 0)
            if i in policy_delay_indices:
                (actor_state, qf_state, actor_loss_value, key, entropy) = cls.update_actor(
                    actor_state,
                    qf_state,
                    ent_coef_state,
                    slice(data.observations),
                    key,
                )
                ent_coef_state, _ = SAC.update_temperature(target_entropy, ent_coef_state, entropy)

        return (
            qf_state,
            actor_state,
            ent_coef_state,
            key,
            (actor_loss_value, qf_loss_value, ent_coef_value),
        )

    def __init__(self):  # scaffolding: replaces the SB3 set-up (Pendulum sizes: obs 3, action 1)
        self._n_updates = 0  # scaffolding
        self.rng = np.random.RandomState(0)  # scaffolding
        q_apply = lambda p, o, a: (jnp.concatenate([o, a], -1) @ p["w"])[:, 0]  # scaffolding
        qf_params = {"w": jnp.zeros((4, 1))}  # scaffolding
        self.qf_state = RLTrainState.create(apply_fn=q_apply, params=qf_params, target_params=qf_params, tx=optax.adam(3e-4))  # scaffolding
        self.actor_state = TrainState.create(apply_fn=None, params={"w": jnp.zeros((3, 1))}, tx=optax.adam(3e-4))  # scaffolding
        self.ent_coef_state = TrainState.create(apply_fn=lambda v: jnp.exp(v["params"]["log_ent_coef"]),  # scaffolding
                                                params={"log_ent_coef": jnp.zeros(())}, tx=optax.adam(3e-4))  # scaffolding
        self.key = jax.random.PRNGKey(0)  # scaffolding

    def train(self, batch_size, gradient_steps):
        n = batch_size * gradient_steps  # scaffolding: self.replay_buffer.sample(batch_size * gradient_steps)
        # Pre-compute the indices where we need to update the actor
        # This is a hack in order to jit the train loop
        # It will compile once per value of policy_delay_indices
        policy_delay_indices = {i: True for i in range(gradient_steps) if ((self._n_updates + i + 1) % self.policy_delay) == 0}
        policy_delay_indices = flax.core.FrozenDict(policy_delay_indices)

        data = ReplayBufferSamplesNp(  # scaffolding: random samples instead of the SB3 buffer's tensors
            self.rng.randn(n, 3).astype(np.float32), self.rng.uniform(-1, 1, (n, 1)).astype(np.float32),  # scaffolding
            self.rng.randn(n, 3).astype(np.float32), np.zeros(n, np.float32), self.rng.randn(n).astype(np.float32))  # scaffolding

        (
            self.qf_state,
            self.actor_state,
            self.ent_coef_state,
            self.key,
            (actor_loss_value, qf_loss_value, ent_coef_value),
        ) = self._train(
            self.gamma,
            self.tau,
            self.target_entropy,
            gradient_steps,
            data,
            policy_delay_indices,
            self.qf_state,
            self.actor_state,
            self.ent_coef_state,
            self.key,
        )
        self._n_updates += gradient_steps


model = SAC()  # scaffolding
for _ in range(3):  # scaffolding: three train() calls of model.learn, gradient_steps cut from 1000 to 8
    model.train(batch_size=16, gradient_steps=8)
_report({"jit(_train)"}, 3)  # scaffolding
