# source: https://github.com/google/dopamine/commit/71ee2edc4136e06bf552a00b0b44de78b2f04a9f
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The commit's fix: only cumulative_gamma (a Python float) is static and the support array is traced, so three training steps share one compile.

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
from typing import NamedTuple

import jax
import jax.numpy as jnp


class RainbowOutput(NamedTuple):  # scaffolding: dopamine.jax.networks output type
  q_values: jnp.ndarray
  logits: jnp.ndarray
  probabilities: jnp.ndarray


@jax.tree_util.register_pytree_node_class
class Model:
  """scaffolding: stand-in for a flax.nn.Model of RainbowNetwork (a linear C51 head)."""

  def __init__(self, params, support):
    self.params = params
    self.support = support

  def __call__(self, x):
    logits = jnp.reshape(x @ self.params, (-1, self.support.shape[0]))
    probabilities = jax.nn.softmax(logits)
    q_values = jnp.sum(self.support * probabilities, axis=1)
    return RainbowOutput(q_values, logits, probabilities)

  def tree_flatten(self):
    return (self.params, self.support), None

  @classmethod
  def tree_unflatten(cls, aux, children):
    return cls(*children)


@jax.tree_util.register_pytree_node_class
class Optimizer:
  """scaffolding: stand-in for flax.optim.Optimizer (plain SGD)."""

  def __init__(self, target, lr=0.01):
    self.target = target
    self.lr = lr

  def apply_gradient(self, grad):
    new_params = self.target.params - self.lr * grad.params
    return Optimizer(Model(new_params, self.target.support), self.lr)

  def tree_flatten(self):
    return (self.target,), self.lr

  @classmethod
  def tree_unflatten(cls, aux, children):
    return cls(children[0], aux)


def softmax_cross_entropy_loss_with_logits(labels, logits):
  return -jnp.sum(labels * jax.nn.log_softmax(logits))


@functools.partial(jax.jit, static_argnums=(8))
def train(target_network, optimizer, states, actions, next_states, rewards,
          terminals, support, cumulative_gamma):
  """Run a training step."""
  def loss_fn(model, target, mean_loss=True):
    logits = jax.vmap(model)(states).logits
    logits = jnp.squeeze(logits)
    # Fetch the logits for its selected action. We use vmap to perform this
    # indexing across the batch.
    chosen_action_logits = jax.vmap(lambda x, y: x[y])(logits, actions)
    loss = jax.vmap(softmax_cross_entropy_loss_with_logits)(
        target,
        chosen_action_logits)
    if mean_loss:
      loss = jnp.mean(loss)
    return loss
  grad_fn = jax.value_and_grad(loss_fn)
  target = target_distribution(target_network,
                               next_states,
                               rewards,
                               terminals,
                               support,
                               cumulative_gamma)
  mean_loss, grad = grad_fn(optimizer.target, target)
  # Get the loss without taking its mean.
  loss = loss_fn(optimizer.target, target, mean_loss=False)
  optimizer = optimizer.apply_gradient(grad)
  return optimizer, loss, mean_loss


@functools.partial(jax.vmap, in_axes=(None, 0, 0, 0, None, None))
def target_distribution(target_network, next_states, rewards, terminals,
                        support, cumulative_gamma):
  """Builds the C51 target distribution as per Bellemare et al. (2017)."""
  is_terminal_multiplier = 1. - terminals.astype(jnp.float32)
  # Incorporate terminal state to discount factor.
  gamma_with_terminal = cumulative_gamma * is_terminal_multiplier
  target_support = rewards + gamma_with_terminal * support
  next_state_target_outputs = target_network(next_states)
  q_values = jnp.squeeze(next_state_target_outputs.q_values)
  next_qt_argmax = jnp.argmax(q_values)
  probabilities = jnp.squeeze(next_state_target_outputs.probabilities)
  next_probabilities = probabilities[next_qt_argmax]
  return jax.lax.stop_gradient(
      project_distribution(target_support, next_probabilities, support))


def project_distribution(supports, weights, target_support):
  """Projects a batch of (support, weights) onto target_support."""
  v_min, v_max = target_support[0], target_support[-1]
  # `N` in Eq7.
  num_dims = target_support.shape[0]
  # delta_z = `\Delta z` in Eq7.
  delta_z = (v_max - v_min) / (num_dims - 1)
  # clipped_support = `[\hat{T}_{z_j}]^{V_max}_{V_min}` in Eq7.
  clipped_support = jnp.clip(supports, v_min, v_max)
  # numerator = `|clipped_support - z_i|` in Eq7.
  numerator = jnp.abs(clipped_support - target_support[:, None])
  quotient = 1 - (numerator / delta_z)
  # clipped_quotient = `[1 - numerator / (\Delta z)]_0^1` in Eq7.
  clipped_quotient = jnp.clip(quotient, 0, 1)
  # inner_prod = `\sum_{j=0}^{N-1} clipped_quotient * p_j(x', \pi(x'))` in Eq7.
  inner_prod = clipped_quotient * weights
  return jnp.squeeze(jnp.sum(inner_prod, -1))


# scaffolding: the agent's _train_step, three updates on random replay batches
num_actions, num_atoms, obs_dim, batch = 2, 51, 4, 32
vmin, vmax = -10., 10.
_support = jnp.linspace(vmin, vmax, num_atoms)
key = jax.random.PRNGKey(0)
online = Model(jax.random.normal(key, (obs_dim, num_actions * num_atoms)) * 0.1, _support)
target_network = online
optimizer = Optimizer(online)
cumulative_gamma = 0.99
calls = 0
try:
  for step in range(3):
    key, k1, k2, k3, k4 = jax.random.split(key, 5)
    replay_elements = {
        'state': jax.random.normal(k1, (batch, obs_dim)),
        'action': jax.random.randint(k2, (batch,), 0, num_actions),
        'next_state': jax.random.normal(k3, (batch, obs_dim)),
        'reward': jax.random.normal(k4, (batch,)),
        'terminal': jnp.zeros((batch,), jnp.uint8),
    }
    optimizer, loss, mean_loss = train(
        target_network,
        optimizer,
        replay_elements['state'],
        replay_elements['action'],
        replay_elements['next_state'],
        replay_elements['reward'],
        replay_elements['terminal'],
        _support,
        cumulative_gamma)
    calls += 1
  _report({"jit(train)"}, calls)
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")
