# source: https://github.com/google-deepmind/open_spiel/commit/7fb6cc96ada25d523202452a50d17fe0e6abb6f2
# expect: jit-in-loop-or-body at line 256
# runtime: COMPILES 3 CALLS 3
# why: Each _learn_advantage_network call builds a new jitted sampler (closing over the current buffer size) and a new _train_step, then runs them in an eager lax.fori_loop, so the whole training loop is traced and compiled again on every CFR iteration.
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

from typing import Iterable, NamedTuple, Callable
from functools import partial

import jax
import optax
import chex
import flax.nnx as nn
import jax.numpy as jnp
import numpy as np


class AdvantageMemory(NamedTuple):
  """Advantage network memory buffer
  """
  info_state: chex.Array
  iteration: chex.Array
  advantage: chex.Array
  legal_mask: chex.Array


class ReservoirBufferState(NamedTuple):

  experience: chex.ArrayTree
  capacity: chex.Numeric
  add_calls: chex.Array

  def __len__(self) -> int:
    return min(self.add_calls, self.capacity)
  

def get_tree_shape_prefix(tree: chex.ArrayTree, n_axes: int = 1) -> chex.Shape:
  """Get the shape of the leading axes (up to n_axes) of a pytree. This assumes all
    leaves have a common leading axes size (e.g. a common batch size).
  """
  flat_tree, tree_def = jax.tree_util.tree_flatten(tree)
  leaf = flat_tree[0]
  leading_axis_shape = leaf.shape[0:n_axes]
  chex.assert_tree_shape_prefix(tree, leading_axis_shape)
  return leading_axis_shape

class ReservoirBuffer:
    """Allows uniform sampling over a stream of data.
      See https://en.wikipedia.org/wiki/Reservoir_sampling for more details.
    """   
    
    @staticmethod
    @partial(jax.jit, static_argnames=("capacity",))
    def init(capacity: chex.Numeric, experience: chex.ArrayTree) -> ReservoirBufferState:
      # Set experience value to be empty.
      experience = jax.tree.map(jnp.empty_like, experience)
      # Broadcast to [add_batch_size, ...]
      experience = jax.tree.map(
        lambda x: jnp.broadcast_to(
            x[jnp.newaxis, ...], (capacity, *x.shape)
        ),
        experience,
      )
      return ReservoirBufferState(
        capacity=capacity, experience=experience, add_calls=jnp.array(0))

    @staticmethod    
    @partial(jax.jit, donate_argnums=(0,))
    def append(
      state: ReservoirBufferState, 
      experience: chex.ArrayTree, 
      rng: chex.PRNGKey
    ) -> ReservoirBufferState:
      """Potentially adds `experience` to the reservoir buffer.

      Args:
        state: `ReservoirBufferState`, current state of the buffer
        experience: data to be added to the reservoir buffer.
        rng: `chex.PRNGKey`, a random seed

      Returns:
        An updated `ReservoirBufferState` 
      """
      
      # Note: count + 1 because the current item is the (count+1)-th item
      idx = jax.random.randint(rng, (), 0, state.add_calls + 1)
      
      # 2. Logic: 
      # If buffer is not full, we always add at 'count'.
      # If buffer is full, we replace at 'idx' ONLY IF idx < capacity.
      is_full = state.add_calls >= state.capacity
      write_idx = jnp.where(is_full, idx, state.add_calls)
      should_update = write_idx < state.capacity

      def update_leaf(buffer_leaf, exp_leaf):
        new_val = jnp.where(should_update, exp_leaf, buffer_leaf[write_idx])
        return buffer_leaf.at[write_idx].set(new_val)

      new_experience = jax.tree.map(update_leaf, state.experience, experience)

      return ReservoirBufferState(
        capacity=state.capacity, experience=new_experience, add_calls=state.add_calls+1)

    @staticmethod
    def get_batch_sampler(batch_size: int | None, max_size: int) -> Callable:
      """Choose if we batch or just shuffle the data
      Args:
        num_samples: `int`, number of samples to draw, could be None if the whole buffer is used
        max_size: `int`, current size of the buffer, could be less than its capacity
      """
      @partial(jax.jit, static_argnames=("num_samples"))
      def sample(rng: chex.PRNGKey, state: ReservoirBufferState, num_samples: int):
        """Returns `num_samples` uniformly sampled from the buffer.

        Args:
          rng: `chex.PRNGKey`, a random state
          state: `ReservoirBufferState`, a buffer state
          num_samples: `int`, number of samples to draw.

        Returns:
          An iterable over `num_samples` random elements of the buffer.

        Raises:
          AssertionError: If there are less than `num_samples` elements in the buffer
        """
        capacity = get_tree_shape_prefix(state.experience)[0]
        chex.assert_equal(num_samples < capacity, True)

        indices = jax.random.choice(
          rng, jnp.arange(max_size), shape=(num_samples,), replace=False)
        return jax.tree.map(lambda x: x[indices], state.experience)

      @partial(jax.jit, static_argnames=("num_samples"))
      def shuffle_data(rng: chex.PRNGKey, state: ReservoirBufferState, num_samples: int):
        """Returns shuffled buffer along the batch axis.

        Args:
          rng: `chex.PRNGKey`, a random state
          state: `ReservoirBufferState`, a buffer state
          num_samples: `int`, number of samples to draw (UNUSED). 
          max_size: `int`, current size of the buffer, could be less than its capacity

        Returns:
          The iterable buffer.
        """
        return jax.tree.map(
          lambda arr: jax.random.permutation(rng, arr[:max_size], axis=0), state.experience
        )
      
      if batch_size is not None:
        if batch_size < max_size:
          return sample
      return shuffle_data


class DeepCFRSolver:  # scaffolding: cut down to what _learn_advantage_network uses
  def __init__(self, info_dim=6, num_actions=3, batch_size=8, train_steps=4, capacity=64):
    self._advantage_networks = [nn.Linear(info_dim, num_actions, rngs=nn.Rngs(0))]
    self._advantage_opt = [nn.Optimizer(self._advantage_networks[0], optax.adam(1e-3), wrt=nn.Param)]
    self._batch_size_advantage = batch_size
    self._advantage_network_train_steps = train_steps
    self._rng = jax.random.key(0)
    exp = AdvantageMemory(jnp.zeros(info_dim), jnp.zeros(()), jnp.zeros(num_actions), jnp.ones(num_actions))
    self._advantage_memories = [ReservoirBuffer.init(capacity, exp)]

    self._jittable_adv_update = self._get_jittable_adv_update()

  def _next_rng_key(self):
    self._rng, k = jax.random.split(self._rng)
    return k

  def _get_jittable_adv_update(self):
    def _adv_update(model, optimiser, batch):
      def loss_fn(model):
        preds = model(batch.info_state) * batch.legal_mask
        return jnp.mean((preds - batch.advantage) ** 2)
      loss, grads = nn.value_and_grad(loss_fn)(model)
      optimiser.update(model, grads)
      return loss
    return _adv_update

  def _make_train_step(
      self, 
      update_fn: Callable, 
      batch_sampler: Callable, 
      batch_size: int
    ) -> Callable:
      """Utility method to avoid boilerplate"""
      
      def _train_step(it: chex.Array, carry: nn.Carry) -> nn.Carry:
        graphdef, state, buffer_state, rng, _ = carry

        # merge at the beginning of the function
        model, optimiser = nn.merge(graphdef, state)
        rng, _rng = jax.random.split(rng)

        batch = batch_sampler(rng, buffer_state, batch_size)

        loss = update_fn(
          model, 
          optimiser,
          batch
        )
        
        state = nn.state((model, optimiser))
        return (graphdef, state, buffer_state, _rng, loss)  
      
      return _train_step

  def _learn_advantage_network(self, player: int) -> float:
    """Compute the loss on sampled transitions and perform a Q-network update.

    If there are not enough elements in the buffer, no loss is computed and
    `None` is returned instead.

    Args:
      player: (int) player index.

    Returns:
      The average loss over the advantage network of the last batch.
    """

    self._advantage_networks[player].train()

    # Training loops are inspired by 
    # https://flax.readthedocs.io/en/stable/guides/performance.html#functional-training-loop
    graphdef, state = nn.split((self._advantage_networks[player], self._advantage_opt[player]))
    buffer_state = self._advantage_memories[player]
    sampler_fn = ReservoirBuffer.get_batch_sampler(self._batch_size_advantage, len(buffer_state))
    update_fn = self._make_train_step(self._jittable_adv_update, sampler_fn, self._batch_size_advantage)

    if self._batch_size_advantage is not None:
      if self._batch_size_advantage > len(buffer_state):
        # Not enough samples to train on
        return None
    
    (_, state, _, _, main_loss) = jax.lax.fori_loop(
      0, self._advantage_network_train_steps,
      update_fn,
      (graphdef, state, buffer_state, self._next_rng_key(), jnp.array(0))
    )
        
    nn.update((self._advantage_networks[player], self._advantage_opt[player]), state)

    return main_loss


# scaffolding: three CFR iterations, each adds traversal samples and retrains the advantage network
solver = DeepCFRSolver()
rng = jax.random.key(1)
calls = 0
for iteration in range(3):
  for _ in range(16):
    rng, k1, k2 = jax.random.split(rng, 3)
    exp = AdvantageMemory(jax.random.normal(k1, (6,)), jnp.array(float(iteration)), jax.random.normal(k2, (3,)), jnp.ones(3))
    solver._advantage_memories[0] = ReservoirBuffer.append(solver._advantage_memories[0], exp, k1)
  loss = solver._learn_advantage_network(0)
  calls += 1
_report({"jit(scan)", "jit(sample)", "jit(shuffle_data)", "jit(_train_step)"}, calls)
