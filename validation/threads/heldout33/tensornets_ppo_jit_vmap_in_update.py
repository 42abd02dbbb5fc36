# source: https://github.com/Mo379/TensorNets/blob/17db57463a315afc91631f998a71aad6def67558/APP/src/ppo_.py
# expect: jit-in-loop-or-body at line 126
# runtime: COMPILES 4 CALLS 4
# why: PPO_.update() wraps the already-jitted gae_advantages in a fresh jax.jit(jax.vmap(...)) on every call, and update() runs after every rollout, so the agent-wise GAE is traced and compiled again each update.

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
from typing import Tuple

import haiku as hk
from haiku import PRNGSequence
import jax
import jax.numpy as jnp
import numpy as np
import optax


class rlax:  # scaffolding: stand-in for rlax.truncated_generalized_advantage_estimation (not installed)
    @staticmethod
    def truncated_generalized_advantage_estimation(r_t, discount_t, lambda_, values):
        def body(acc, xs):
            r, d, v, v_next = xs
            delta = r + d * v_next - v
            acc = delta + d * lambda_ * acc
            return acc, acc
        _, adv = jax.lax.scan(body, 0.0, (r_t, discount_t, values[:-1], values[1:]), reverse=True)
        return adv


# APP/src/util.py
class RolloutBuffer:
    def __init__(self):
        self.state = []
        self.action = []
        self.log_prob = []
        self.reward = []
        self.done = []
        self.next_state = []

    def append(self, state, action, log_prob, reward, done, next_state):
        self.state.append(state)
        self.action.append(action)
        self.log_prob.append(log_prob)
        self.reward.append(reward)
        self.done.append(done)
        self.next_state.append(next_state)

    def get(self):
        return [self.state, self.action, self.log_prob, self.reward, self.done, self.next_state]

    def clear(self):
        self.__init__()


# APP/src/ppo_.py (distrax sampling, the PPO loss/epoch scan and wandb logging cut)
class PPO_():
    name = "PPO"

    def __init__(self, seed, fn_policy, lr_policy, discount, gae_param, buffer_size, obs_dim):
        self.seed = seed
        np.random.seed(self.seed)
        self.rng = PRNGSequence(self.seed)
        self.policy = hk.without_apply_rng(hk.transform(fn_policy))
        self.params_policy = self.policy.init(
                next(self.rng),
                np.random.normal(size=(20, obs_dim))  # scaffolding: (20, 84, 84, 3) images in the source
            )
        self.discount = discount
        self.gae_param = gae_param
        self.buffer_size = buffer_size
        opt_init, self.opt_policy = optax.adam(lr_policy)
        self.opt_state_policy = opt_init(self.params_policy)
        self.buffer = RolloutBuffer()
        self.max_abs_reward = jnp.inf

    # Update function
    def update(self, wandb_run):
        # get all data
        outputs = self.buffer.get()
        #
        actor_first_output = []
        for output in outputs:
            output = jnp.array(output)
            output = jnp.swapaxes(output, 0, 1)
            actor_first_output.append(output)
        # unpack data
        A_states, A_actions, A_log_pi_olds, A_rewards, A_dones, A_next_states \
            = actor_first_output
        A_discounts = A_dones*self.discount

        # calculate values after swapping axes
        def get_play_values(params, obs):
            o = jnp.swapaxes(obs, 0, 1)
            behavior_values = [
                    self._get_value(self.params_policy, os) for os in o
                ]
            behavior_values = jnp.array(behavior_values)
            behavior_values = jnp.swapaxes(behavior_values, 0, 1)
            behavior_values = jnp.squeeze(behavior_values)
            return behavior_values

        A_values = get_play_values(self.params_policy, A_states)
        # getting GAEs and targets
        agent_wise_gae = jax.jit(jax.vmap(self.gae_advantages, in_axes=0))
        A_gaes, A_targets = agent_wise_gae(
            A_rewards,
            A_discounts,
            A_values,
        )
        self.buffer.clear()
        return A_gaes, A_targets  # scaffolding: the minibatch reshaping and lax.scan PPO epochs are cut

    @partial(jax.jit, static_argnums=0)
    def _get_value(
        self,
        params_policy: hk.Params,
        state: np.ndarray,
    ) -> jnp.ndarray:
        _, value, _ = self.policy.apply(params_policy, state)
        return value

    # generalised advantage estimation
    @partial(jax.jit, static_argnums=0)
    def gae_advantages(
            self,
            rewards: jnp.array,
            discounts: jnp.array,
            values: jnp.array
    ) -> Tuple[jnp.ndarray, jnp.array]:
        """Uses truncated GAE to compute advantages."""
        # Apply reward clipping.
        rewards = jnp.clip(
                rewards,
                -self.max_abs_reward,
                self.max_abs_reward
            )
        advantages = rlax.truncated_generalized_advantage_estimation(
                rewards[:-1],
                discounts[:-1],
                self.gae_param,
                values
            )
        advantages = jax.lax.stop_gradient(advantages)
        # Exclude the bootstrap value
        target_values = values[:-1] + advantages
        target_values = jax.lax.stop_gradient(target_values)
        return advantages, target_values


def fn_policy(x):  # scaffolding: stand-in for the tensor-network policy (returns mean, value, log_std)
    h = jax.nn.relu(hk.Linear(16)(x))
    return jnp.tanh(hk.Linear(2)(h)), hk.Linear(1)(h), hk.get_parameter("log_std", (2,), init=jnp.zeros)


# APP/src/util.py trainer.train(): update() runs every buffer_size steps
algo = PPO_(0, fn_policy, 3e-4, 0.99, 0.95, buffer_size=8, obs_dim=5)
rng = np.random.default_rng(0)  # scaffolding: random 3-agent environment
n_updates = 4
for step in range(1, n_updates * algo.buffer_size + 1):
    state = rng.normal(size=(3, 5)).astype(np.float32)
    algo.buffer.append(state, rng.normal(size=(3, 2)), rng.normal(size=3), rng.normal(size=3), np.zeros(3), state)
    if step % algo.buffer_size == 0:
        algo.update(None)
_report({"jit(gae_advantages)"}, n_updates)  # scaffolding
