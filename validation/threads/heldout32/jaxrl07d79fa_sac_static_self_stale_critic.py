# source: https://github.com/ethanabrooks/jax-rl/commit/07d79fafeb4b0e7b2063dc8b062343b8317c3ecb
# expect: stale-closure at line 99
# runtime: COMPILES 1 CALLS 4
# why: SAC._update_critic is jitted with self static and reads self.flax_optimizer.critic, which update_critic reassigns after every call; self hashes by identity, so every later call reuses the first trace with the initial critic baked in and each 'update' restarts from the initial parameters.

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
import functools
from dataclasses import dataclass
from typing import Any

import flax
import jax
import jax.numpy as jnp
import numpy as np


def double_mse(q1, q2, qt):  # utils.py
    return jnp.square(qt - q1).mean() + jnp.square(qt - q2).mean()


@flax.struct.dataclass
class DoubleCritic:  # scaffolding: stands in for the flax.nn double-critic Model (flax.nn was removed)
    w1: Any
    w2: Any

    def __call__(self, obs, action):
        x = jnp.concatenate([obs, action], -1)
        return x @ self.w1, x @ self.w2


@flax.struct.dataclass
class Optimizer:  # scaffolding: stands in for flax.optim.Optimizer (removed from flax); plain SGD
    target: Any
    lr: float = flax.struct.field(pytree_node=False, default=0.1)

    def apply_gradient(self, grad):
        return self.replace(target=jax.tree_util.tree_map(lambda p, g: p - self.lr * g, self.target, grad))


@dataclass
class Optimizers:
    actor: Any
    critic: Any
    log_alpha: Any


class SAC:
    def __init__(self, obs_dim, action_dim, seed=0):  # scaffolding: the haiku/flax.nn model building is cut
        k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
        d = obs_dim + action_dim
        self.flax_optimizer = Optimizers(
            actor=None,
            critic=Optimizer(DoubleCritic(jax.random.normal(k1, (d,)), jax.random.normal(k2, (d,)))),
            log_alpha=None,
        )

    # noinspection PyPep8Naming
    @staticmethod
    def critic_loss(
        params: jnp.ndarray,
        obs: jnp.ndarray,
        action: jnp.ndarray,
        target_Q: jnp.ndarray,
    ):
        current_Q1, current_Q2 = params(obs, action)
        # current_Q1, current_Q2 = self.net.critic.apply(params, obs, action)
        critic_loss = double_mse(current_Q1, current_Q2, target_Q)
        return jnp.mean(critic_loss)

    # @functools.partial(jax.jit, static_argnums=0)
    def update_critic(self, obs, action, target_Q):  # (params/opt_params plumbing and get_td_target cut; target_Q passed in)
        self.flax_optimizer.critic = self._update_critic(action, obs, target_Q)

    @functools.partial(jax.jit, static_argnums=0)
    def _update_critic(self, action, obs, target_Q):
        grad = jax.grad(self.critic_loss)(
            self.flax_optimizer.critic.target, obs, action, target_Q
        )
        return self.flax_optimizer.critic.apply_gradient(grad)


agent = SAC(obs_dim=3, action_dim=1)  # scaffolding
rng = np.random.default_rng(0)  # scaffolding
obs, action = jnp.asarray(rng.normal(size=(32, 3))), jnp.asarray(rng.normal(size=(32, 1)))  # scaffolding: one replay batch
target_Q = jnp.asarray(rng.normal(size=(32,)))  # scaffolding
w_hist = []  # scaffolding
for it in range(4):  # scaffolding: four training iterations on the same batch
    agent.update_critic(obs, action, target_Q)
    w_hist.append(float(agent.flax_optimizer.critic.target.w1[0]))  # scaffolding
print("critic w1[0] after each update", [round(w, 4) for w in w_hist])  # scaffolding: all equal -> updates start from the first params
_report({"jit(_update_critic)"}, 4)  # scaffolding
