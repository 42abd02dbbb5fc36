# source: https://github.com/hr0nix/omega/commit/88bdbcd972eec7de01f4f90de70725a343532ea5
# expect: jit-in-loop-or-body at line 157
# runtime: COMPILES 4 CALLS 4
# why: before the commit _update_next_trajectory_memory defines @jax.jit get_updated_memory_state_after_last_ts_batch inside the method, so each train step builds a new jitted function and compiles it again (4 steps, 4 compiles).
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


import functools
import time
import types  # scaffolding: SimpleNamespace stand-ins for modules that are not installed or were cut
from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
import flax.struct

jax.tree_map = jax.tree_util.tree_map  # scaffolding: jax.tree_map was removed from jax; the 2022 code uses it


def _select_op(pytree, result_backend, numpy_op, jax_op):
    if result_backend == 'numpy':
        return numpy_op
    elif result_backend == 'jax':
        return jax_op
    elif result_backend is not None:
        raise ValueError(f'Unknown backend: {result_backend}')

    if is_numpy(pytree):
        return numpy_op
    elif is_jax(pytree):
        return jax_op
    else:
        raise ValueError(f'Given pytree has a mix of JAX and numpy tensors, specify result_backend explicitly')


def copy_structure(pytree):
    return jax.tree_util.tree_map(lambda x: x, pytree)


def update(pytree, *updates):
    if not isinstance(pytree, dict):
        raise ValueError('Top-level node must be a dict!')

    result = copy_structure(pytree)
    for update in updates:
        result.update(update)
    return result


def expand_dims(pytree, axis, result_backend=None):
    expand_dims_op = _select_op(pytree, result_backend, np.expand_dims, jnp.expand_dims)
    return jax.tree_map(lambda t: expand_dims_op(t, axis=axis), pytree)


def array_mean(pytrees, result_backend=None):
    add_op = _select_op(pytrees, result_backend, np.add, jnp.add)
    return jax.tree_map(lambda *t: functools.reduce(add_op, t) / len(t), *pytrees)


def timestamp_dim_slice(batch, slice_idx):
    return jax.tree_map(lambda t: t[:, slice_idx, ...], batch)


def is_numpy(pytree):
    return all(isinstance(l, np.ndarray) for l in jax.tree_util.tree_leaves(pytree))


def is_jax(pytree):
    return all(isinstance(l, jnp.ndarray) for l in jax.tree_util.tree_leaves(pytree))


pytree = types.SimpleNamespace(update=update, expand_dims=expand_dims, array_mean=array_mean, timestamp_dim_slice=timestamp_dim_slice)  # scaffolding: the omega.utils.pytree module


_ENABLED = False


def timeit(method):
    def timed(*args, **kw):
        method_name = method.__name__

        if _ENABLED:
            print(f'{method_name} started')

        ts = time.time()
        result = method(*args, **kw)
        te = time.time()

        if _ENABLED:
            print(f'{method_name} took {(te - ts) * 1000} ms')

        return result

    return timed


class NethackMuZeroAgent:  # scaffolding: base class JaxTrainableAgentBase left out (the real declaration is NethackMuZeroAgent(JaxTrainableAgentBase))
    @dataclass(eq=True, frozen=True)
    class TrajectoryId(object):
        env_index: int
        step: int

    def __init__(self, *args, replay_buffer, train_state, config=None, **kwargs):  # scaffolding: __init__ cut to the replay buffer and train state (model, MCTS, optimizer left out)
        self._replay_buffer = replay_buffer  # scaffolding
        self._train_state = train_state  # scaffolding

    @timeit
    def update_memory_batch(self, prev_memory, new_memory_state, actions, done):
        return self._update_memory_batch_jit(self._train_state, new_memory_state, actions, done)

    @timeit
    @partial(jax.jit, static_argnums=0)
    def _update_memory_batch_jit(self, train_state, new_memory_state, actions, done):
        initial_memory_state = train_state.initial_memory_state_fn(train_state.params)
        initial_memory_state = pytree.expand_dims(initial_memory_state, axis=0)  # Add batch dim
        batch_size = new_memory_state.shape[0]
        done_memory_shaped = jnp.reshape(done, (batch_size, 1, 1))
        # Reset memory where a new episode has been started
        new_memory_state = (
            new_memory_state * (1 - done_memory_shaped) +
            initial_memory_state * done_memory_shaped
        )
        return {
            'memory': new_memory_state,
            'prev_actions': actions,
            'prev_done': done,
        }

    @timeit
    def _update_next_trajectory_memory(self, replayed_items, training_batch):
        """
        Given that we have an updated memory for each trajectory in the batch,
        we can update initial memories of the trajectories that temporally follow the batch
        (provided that they still are in the replay buffer).
        """
        @jax.jit
        def get_updated_memory_state_after_last_ts_batch(training_batch):
            # Make sure terminal states are taken into account when updating memory
            updated_memory_after_last_ts_batch = self.update_memory_batch(
                pytree.timestamp_dim_slice(training_batch['memory_before'], slice_idx=-1),
                pytree.timestamp_dim_slice(training_batch['mcts_reanalyze']['memory_state_after'], slice_idx=-1),
                pytree.timestamp_dim_slice(training_batch['actions'], slice_idx=-1),
                pytree.timestamp_dim_slice(training_batch['done'], slice_idx=-1),
            )
            return updated_memory_after_last_ts_batch['memory']

        updated_memory_state_after_last_ts_batch = get_updated_memory_state_after_last_ts_batch(training_batch)

        memory_abs_diff_per_trajectory = []
        for batch_index, trajectory_item in enumerate(replayed_items):
            next_trajectory_id = self.TrajectoryId(
                env_index=trajectory_item.id.env_index, step=trajectory_item.id.step + 1)
            next_trajectory_item = self._replay_buffer.find_trajectory(next_trajectory_id)
            if next_trajectory_item is None:
                # Either this is the freshest trajectory, or the next trajectory
                # has been evicted (this can happen with some replay buffer types, i.e. clustering replay).
                continue

            next_trajectory_memory_before = next_trajectory_item.trajectory['memory_before']['memory']
            memory_abs_diff = jnp.mean(jnp.abs(
                next_trajectory_memory_before[0] - updated_memory_state_after_last_ts_batch[batch_index]))
            memory_abs_diff_per_trajectory.append(memory_abs_diff)
            next_trajectory_item.trajectory['memory_before']['memory'] = \
                next_trajectory_item.trajectory['memory_before']['memory'].at[0].set(
                    updated_memory_state_after_last_ts_batch[batch_index])

        stats = {}
        if len(memory_abs_diff_per_trajectory) > 0:
            stats = pytree.update(stats, {
                'avg_memory_update_abs_diff': pytree.array_mean(memory_abs_diff_per_trajectory)
            })
        return stats


_Item = types.SimpleNamespace  # scaffolding


class _ReplayBuffer:  # scaffolding: stand-in replay buffer holding the next-day trajectories
    def __init__(self, items):  # scaffolding
        self._items = {it.id: it for it in items}  # scaffolding

    def find_trajectory(self, trajectory_id):  # scaffolding
        return self._items.get(trajectory_id)  # scaffolding


params = {'memory_init': jnp.zeros((4, 8))}  # scaffolding
@flax.struct.dataclass  # scaffolding: the parts of the agent's flax TrainState used here
class _TrainState:  # scaffolding
    params: dict  # scaffolding
    initial_memory_state_fn: object = flax.struct.field(pytree_node=False)  # scaffolding


def _initial_memory_state_fn(p):  # scaffolding
    return p['memory_init']  # scaffolding


train_state = _TrainState(params=params, initial_memory_state_fn=_initial_memory_state_fn)  # scaffolding
Tid = NethackMuZeroAgent.TrajectoryId  # scaffolding
replayed_items = [_Item(id=Tid(env_index=e, step=0)) for e in range(3)]  # scaffolding: the 3 trajectories of the training batch
buffer = _ReplayBuffer([_Item(id=Tid(env_index=e, step=1), trajectory={'memory_before': {'memory': jnp.zeros((2, 4, 8))}}) for e in range(3)])  # scaffolding
agent = NethackMuZeroAgent(replay_buffer=buffer, train_state=train_state)  # scaffolding
training_batch = {  # scaffolding: batch of 3 trajectories x 5 timestamps, memory of 4 units x 8 dims
    'memory_before': jnp.ones((3, 5, 4, 8)),  # scaffolding
    'mcts_reanalyze': {'memory_state_after': jnp.ones((3, 5, 4, 8))},  # scaffolding
    'actions': jnp.zeros((3, 5), dtype=jnp.int32),  # scaffolding
    'done': jnp.zeros((3, 5), dtype=jnp.float32),  # scaffolding
}  # scaffolding
for train_step in range(4):  # scaffolding: four train steps, each ending with the memory update of the next trajectories
    stats = agent._update_next_trajectory_memory(replayed_items, training_batch)  # scaffolding
print(stats)  # scaffolding
_report({"jit(get_updated_memory_state_after_last_ts_batch)"}, 4)  # scaffolding
