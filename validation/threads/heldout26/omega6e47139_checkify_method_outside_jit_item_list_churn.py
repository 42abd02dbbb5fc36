# source: https://github.com/hr0nix/omega/commit/6e471390785d462149c0e28967aadc6563b75a7f
# expect: shape-churn at line 240
# runtime: COMPILES 3 CALLS 4
# why: after the commit check_error runs outside jit (throws_on_checkify_error(jit(checkify_method(f)))), but the lists memories_to_update/update_source_ids change length with how many next-day trajectories are still buffered, so 4 calls compile 3 times.
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
import types  # scaffolding: SimpleNamespace stand-ins for modules that are not installed or were cut
import time
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np

from absl import logging
from functools import partial

from jax.experimental import checkify

from contextlib import contextmanager


_FORCE_CHECKIFY_CHECKS = None


@contextmanager
def disable_jit(should_disable=True):
    if should_disable:
        logging.info('JIT disabled')
        with jax.disable_jit():
            yield
    else:
        yield


@contextmanager
def disable_jit_if_no_gpu():
    should_disable = all(d.device_kind == 'cpu' for d in jax.local_devices())
    with disable_jit(should_disable):
        yield


@contextmanager
def force_checkify_checks(errors):
    global _FORCE_CHECKIFY_CHECKS
    old_errors = _FORCE_CHECKIFY_CHECKS
    _FORCE_CHECKIFY_CHECKS = errors
    yield
    _FORCE_CHECKIFY_CHECKS = old_errors


def checkify_func(func, errors=None):
    """
    Enable checkify checks for a function. If errors are not specified,
    globally forced checks will be enabled. If no globally forced checks are set, only user checks will be enabled.
    """
    errors = errors or _FORCE_CHECKIFY_CHECKS or checkify.user_checks
    return checkify.checkify(func, errors=errors)


def checkify_method(func, errors=None):
    """
    Analogue of checkify_func, but for class methods.
    TODO: remove this function after checkify_func starts working for class methods,
    TODO: see https://github.com/google/jax/issues/11904
    """
    def result_func(*args, **kwargs):
        self, *args_no_self = args

        @partial(checkify_func, errors=errors)
        def inner_func_no_self(*inner_args, **inner_kwargs):
            return func(self, *inner_args, **inner_kwargs)

        return inner_func_no_self(*args_no_self, **kwargs)

    return result_func


def throws_on_checkify_error(func):
    """
    Throws if a checkified function returns an error. If used with jit, the order of transformations
    should be throws_on_checkify_error(jit(checkify_func(f))).
    """
    def result_func(*args, **kwargs):
        err, result = func(*args, **kwargs)
        checkify.check_error(err)
        return result

    return result_func


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


def array_mean(pytrees, result_backend=None):
    add_op = _select_op(pytrees, result_backend, np.add, jnp.add)
    return jax.tree_util.tree_map(lambda *t: functools.reduce(add_op, t) / len(t), *pytrees)


def is_numpy(pytree):
    return all(isinstance(l, np.ndarray) for l in jax.tree_util.tree_leaves(pytree))


def is_jax(pytree):
    return all(isinstance(l, jnp.ndarray) for l in jax.tree_util.tree_leaves(pytree))


pytree = types.SimpleNamespace(update=update, array_mean=array_mean)  # scaffolding: the omega.utils.pytree module


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

    def __init__(self, *args, replay_buffer, config=None, **kwargs):  # scaffolding: __init__ cut to the replay buffer (model, train state, MCTS left out)
        self._replay_buffer = replay_buffer  # scaffolding

    def _get_updated_memory_state_after_last_ts_batch_jit(self, trajectory_batch):  # scaffolding: stand-in (the real one runs the memory update over the batch)
        return trajectory_batch['memory_after'] * 0.5  # scaffolding

    @timeit
    @throws_on_checkify_error
    @partial(jax.jit, static_argnums=0)
    @checkify_method
    def _update_initial_trajectory_memory_jit(self, memories_to_update, update_source_ids, update_source):
        def updater(memory_to_update, update_source_id):
            update = update_source[update_source_id]
            memory_abs_diff = jnp.mean(jnp.abs(memory_to_update[0] - update))
            updated_memory = memory_to_update.at[0].set(update)
            return updated_memory, memory_abs_diff
        updated = jax.tree_util.tree_map(updater, memories_to_update, update_source_ids)
        updated_memories, memory_abs_diffs = jax.tree_util.tree_transpose(
            inner_treedef=jax.tree_util.tree_structure([_ for _ in range(2)]),
            outer_treedef=jax.tree_util.tree_structure(memories_to_update),
            pytree_to_transpose=updated
        )
        return updated_memories, pytree.array_mean(memory_abs_diffs)

    @timeit
    def _update_next_trajectory_memory(self, replayed_items, training_batch):
        """
        Given that we have an updated memory for each trajectory in the batch,
        we can update initial memories of the trajectories that temporally follow the batch
        (provided that they still are present in the replay buffer).
        """
        updated_memory_state_after_last_ts_batch = self._get_updated_memory_state_after_last_ts_batch_jit(
            training_batch)

        items_to_update = []
        memories_to_update = []
        update_source_ids = []
        for batch_index, trajectory_item in enumerate(replayed_items):
            next_trajectory_id = self.TrajectoryId(
                env_index=trajectory_item.id.env_index, step=trajectory_item.id.step + 1)
            next_trajectory_item = self._replay_buffer.find_trajectory(next_trajectory_id)
            if next_trajectory_item is None:
                # Either this is the freshest trajectory, or the next trajectory
                # has been evicted from the buffer (this can happen
                # with some replay buffer types, i.e. clustering replay)
                continue

            items_to_update.append(next_trajectory_item)
            memories_to_update.append(next_trajectory_item.trajectory['memory_before']['memory'])
            update_source_ids.append(batch_index)

        stats = {}
        if len(memories_to_update) > 0:
            updated_memories, avg_memory_update_abs_diff = self._update_initial_trajectory_memory_jit(
                memories_to_update, update_source_ids, updated_memory_state_after_last_ts_batch)

            for item, updated_memory in zip(items_to_update, updated_memories):
                item.trajectory['memory_before']['memory'] = updated_memory

            stats = pytree.update(stats, {
                'avg_memory_update_abs_diff': avg_memory_update_abs_diff
            })

        return stats


_Item = types.SimpleNamespace  # scaffolding


class _ReplayBuffer:  # scaffolding: stand-in replay buffer; trajectories of some envs were evicted
    def __init__(self, items):  # scaffolding
        self._items = {it.id: it for it in items}  # scaffolding

    def find_trajectory(self, trajectory_id):  # scaffolding
        return self._items.get(trajectory_id)  # scaffolding


Tid = NethackMuZeroAgent.TrajectoryId  # scaffolding
replayed_items = [_Item(id=Tid(env_index=e, step=0)) for e in range(3)]  # scaffolding: the 3 trajectories of the training batch (day 0)
training_batch = {'memory_after': jnp.ones((3, 4, 8))}  # scaffolding: batch of 3, memory of 4 units x 8 dims
calls = 0  # scaffolding
agent = NethackMuZeroAgent(replay_buffer=None)  # scaffolding
try:  # scaffolding
    with force_checkify_checks(checkify.user_checks | checkify.index_checks | checkify.div_checks):  # scaffolding: tools/agent.py with --checkify-all after the commit
        for present in ([0, 1, 2], [0, 2], [1], [0, 2]):  # scaffolding: which next-day trajectories are still in the buffer at each train step
            buffer = _ReplayBuffer([_Item(id=Tid(env_index=e, step=1), trajectory={'memory_before': {'memory': jnp.zeros((2, 4, 8))}}) for e in present])  # scaffolding
            agent._replay_buffer = buffer  # scaffolding: the agent's buffer after this day's additions/evictions
            stats = agent._update_next_trajectory_memory(replayed_items, training_batch)  # scaffolding
            calls += 1  # scaffolding
    print(stats)  # scaffolding
    _report({"jit(result_func)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
