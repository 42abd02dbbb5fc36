# source: https://github.com/mlaux1/rl-blox/commit/6eedde08513f54d5c95c8d230a97e9aea3fb6729
# expect: stale-closure at line 76
# runtime: COMPILES 1 CALLS 3
# why: update_ppo is wrapped in plain jax.jit, which treats the nnx modules and optimizers as inputs and drops the in-place optimizer updates made inside, so the networks never change (the run prints critic updated: False).

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


import jax
import jax.numpy as jnp
import optax  # scaffolding
from flax import nnx


class SoftmaxPolicy(nnx.Module):  # scaffolding: stands for rl_blox's policy head (log_probability)
    def __init__(self, rngs):
        self.net = nnx.Linear(4, 2, rngs=rngs)

    def log_probability(self, observation, action):
        logp = jax.nn.log_softmax(self.net(observation))
        return jnp.take_along_axis(logp, action[:, None], axis=-1)[:, 0]


def entropy(actor, observations):  # scaffolding: the real one builds tfp distributions
    p = jax.nn.softmax(actor.net(observations))
    return -(p * jnp.log(p)).sum(-1).mean()


def compute_gae(rewards, values, next_values, terminated, gamma=0.99):  # scaffolding: rl_blox.blox.gae, one-step advantages
    returns = rewards + gamma * next_values * (1 - terminated)
    return returns - values, returns


# rl_blox/algorithm/ppo.py before the commit
def ppo_loss(
    actor,
    critic: nnx.Module,
    old_logps: jnp.ndarray,
    observations: jnp.ndarray,
    actions: jnp.ndarray,
    advantages: jnp.ndarray,
    returns: jnp.ndarray,
    clip: float = 0.2,
) -> jnp.ndarray:
    logps = actor.log_probability(observations, actions)
    ratios = jnp.exp(logps - old_logps)
    surrogate1 = ratios * advantages
    surrogate2 = jnp.clip(ratios, 1 - clip, 1 + clip) * advantages
    policy_loss = -jnp.mean(jnp.minimum(surrogate1, surrogate2))

    values = critic(observations)
    value_loss = jnp.mean((returns - values) ** 2)

    return policy_loss + 0.5 * value_loss - 0.01 * entropy(actor, observations)


@jax.jit
def update_ppo(
    actor,
    critic: nnx.Module,
    optimizer_actor: nnx.Optimizer,
    optimizer_critic: nnx.Optimizer,
    observation: jnp.ndarray,
    action: jnp.ndarray,
    reward: jnp.ndarray,
    terminated: jnp.ndarray,
    next_value: jnp.ndarray,
    epochs: int = 1
) -> jnp.ndarray:
    """Updates the PPO agent"""
    advs, returns = compute_gae(
        reward, critic(observation).flatten(), next_value, terminated
    )
    logp = actor.log_probability(observation, action)
    loss_grad_fn = nnx.value_and_grad(ppo_loss, argnums=(0, 1))

    def train_step(i, vals):
        actor, critic, optimizer_actor, optimizer_critic, _ = vals
        (loss_val), (grad_actor, grad_critic) = loss_grad_fn(
            actor, critic, logp, observation, action, advs, returns
        )
        optimizer_actor.update(actor, grad_actor)
        optimizer_critic.update(critic, grad_critic)
        return actor, critic, optimizer_actor, optimizer_critic, loss_val

    carry = (actor, critic, optimizer_actor, optimizer_critic, 0.0)
    (
        actor,
        critic,
        optimizer_actor,
        optimizer_critic,
        loss_val
    ) = jax.lax.fori_loop(0, epochs, train_step, carry)

    return loss_val


actor = SoftmaxPolicy(nnx.Rngs(0))  # scaffolding
critic = nnx.Linear(4, 1, rngs=nnx.Rngs(1))  # scaffolding
optimizer_actor = nnx.Optimizer(actor, optax.adam(1e-2), wrt=nnx.Param)  # scaffolding
optimizer_critic = nnx.Optimizer(critic, optax.adam(1e-2), wrt=nnx.Param)  # scaffolding
w0 = critic.kernel.value.copy()  # scaffolding
key = jax.random.PRNGKey(0)  # scaffolding
for iteration in range(3):  # scaffolding: three PPO iterations of train_ppo on a synthetic batch
    obs = jax.random.normal(jax.random.fold_in(key, iteration), (16, 4))  # scaffolding
    action, reward = jnp.zeros(16, jnp.int32), jnp.ones(16)  # scaffolding
    terminated, next_value = jnp.zeros(16), jnp.zeros(16)  # scaffolding
    loss_val = update_ppo(  # rl_blox/algorithm/ppo.py train_ppo
        actor, critic, optimizer_actor, optimizer_critic, obs, action, reward, terminated, next_value, epochs=4
    )
print(f"critic updated: {bool((critic.kernel.value != w0).any())}")  # scaffolding
_report({"jit(update_ppo)"}, 3)  # scaffolding
