# source: https://github.com/google-deepmind/open_spiel/commit/7fb6cc96ada25d523202452a50d17fe0e6abb6f2
# expect: none
# runtime: COMPILES 2 CALLS 3
# why: After the commit sample is one module-level jitted staticmethod that reads the buffer size from the state, and _train_step is jitted once in __init__ and called from a Python loop, so each compiles once.
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
  is_full: chex.Array

  def __len__(self) -> int:
    return jnp.where(self.is_full, self.capacity, self.add_calls)
  
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
        capacity=capacity, 
        experience=experience, 
        add_calls=jnp.array(0), 
        is_full=jnp.array(False, dtype=jnp.bool)
      )

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
      is_full = state.is_full | (state.add_calls >= state.capacity)
      write_idx = jnp.where(is_full, idx, state.add_calls)
      should_update = write_idx < state.capacity

      def update_leaf(buffer_leaf, exp_leaf):
        new_val = jnp.where(should_update, exp_leaf, buffer_leaf[write_idx])
        return buffer_leaf.at[write_idx].set(new_val)

      new_experience = jax.tree.map(update_leaf, state.experience, experience)

      return ReservoirBufferState(
        capacity=state.capacity, 
        experience=new_experience, 
        add_calls=state.add_calls+1,
        is_full=is_full
      )

    @staticmethod
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
      max_size = jnp.where(state.is_full, state.capacity, state.add_calls)
      indices = jax.random.randint(rng, shape=(num_samples,), minval=0, maxval=max_size)
      return jax.tree.map(lambda x: x[indices], state.experience)


class DeepCFRSolver:  # scaffolding: cut down to what _learn_advantage_network uses
  def __init__(self, info_dim=6, num_actions=3, batch_size=8, train_steps=4, capacity=64):
    self._advantage_networks = [nn.Linear(info_dim, num_actions, rngs=nn.Rngs(0))]
    self._advantage_opt = [nn.Optimizer(self._advantage_networks[0], optax.adam(1e-3), wrt=nn.Param)]
    self._batch_size_advantage = batch_size
    self._advantage_network_train_steps = train_steps
    self._rng = jax.random.key(0)
    exp = AdvantageMemory(jnp.zeros(info_dim), jnp.zeros(()), jnp.zeros(num_actions), jnp.ones(num_actions))
    self._advantage_memories = [ReservoirBuffer.init(capacity, exp)]
    self._advantage_graphdefs = [nn.graphdef((self._advantage_networks[0], self._advantage_opt[0]))]  # scaffolding
    self._jittable_adv_update = self._make_train_step(self._get_jittable_adv_update())

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
    ) -> Callable:
      """Utility method to avoid boilerplate"""
      
      @partial(jax.jit)
      def _train_step(graphdef, state, batch) -> tuple:

        # merge at the beginning of the function
        model, optimiser = nn.merge(graphdef, state)
        
        loss = update_fn(
          model, 
          optimiser,
          batch
        )
        
        state = nn.state((model, optimiser))
        return (state, loss)  
      
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
    state = nn.state((self._advantage_networks[player], self._advantage_opt[player]))
    buffer_state = self._advantage_memories[player]
    batch_size = self._batch_size_advantage if self._batch_size_advantage else len(buffer_state)

    if self._batch_size_advantage is not None:
      if self._batch_size_advantage > len(buffer_state):
        # Not enough samples to train on
        return None
    
    rng = self._next_rng_key()

    for _ in range(self._advantage_network_train_steps):
      rng, _rng = jax.random.split(rng)
      batch = ReservoirBuffer.sample(_rng, buffer_state, batch_size)
      state, main_loss = self._jittable_adv_update(self._advantage_graphdefs[player], state, batch)
        
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
