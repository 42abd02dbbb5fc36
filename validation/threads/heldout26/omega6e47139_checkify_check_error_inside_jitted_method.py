# source: https://github.com/hr0nix/omega/commit/6e471390785d462149c0e28967aadc6563b75a7f
# expect: trace-time-error at line 95; shape-churn at line 245
# runtime: ERROR ValueError
# why: before the commit the jitted method is wrapped by method_throws_on_checkify_error, which calls checkify.check_error inside the jit trace; with index checks on (--checkify-all) tracing fails, and the per-day list of memories to update varies in length.
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


_GLOBAL_CHECKIFY_ERRORS = None


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
def override_checkify_checks(errors):
    global _GLOBAL_CHECKIFY_ERRORS
    old_errors = _GLOBAL_CHECKIFY_ERRORS
    _GLOBAL_CHECKIFY_ERRORS = errors
    yield
    _GLOBAL_CHECKIFY_ERRORS = old_errors


@contextmanager
def checkify_all(enabled=True):
    if enabled:
        logging.info('Force enabling all checkify checks')
        # Do not enable nan_checks because distrax violates them.
        # TODO: remove this line after distrax is fixed (see https://github.com/deepmind/distrax/issues/187)
        all_checks = checkify.user_checks | checkify.index_checks | checkify.div_checks
        with override_checkify_checks(all_checks):
            yield
    else:
        yield


def throws_on_checkify_error(func, checkify_errors=checkify.user_checks):
    """
    Enable checkify checks for a function and throw if there were any errors.
    """
    checkify_errors = _GLOBAL_CHECKIFY_ERRORS or checkify_errors
    checked_func = checkify.checkify(func, errors=checkify_errors)

    def result_func(*args, **kwargs):
        err, result = checked_func(*args, **kwargs)
        checkify.check_error(err)
        return result

    return result_func


def method_throws_on_checkify_error(func, checkify_errors=checkify.user_checks):
    """
    Enable checkify checks for a class method and throw if there were any errors.
    TODO: remove this function after throws_on_checkify_error starts working for class methods,
    TODO: see https://github.com/google/jax/issues/11904
    """
    def result_func(*args, **kwargs):
        self, *args_no_self = args

        @partial(throws_on_checkify_error, checkify_errors=checkify_errors)
        def inner_func_no_self(*inner_args, **inner_kwargs):
            return func(self, *inner_args, **inner_kwargs)

        return inner_func_no_self(*args_no_self, **kwargs)

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
    @partial(jax.jit, static_argnums=0)
    @method_throws_on_checkify_error
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
    with checkify_all(True):  # scaffolding: tools/agent.py runs training under `with checkify_all(args.checkify_all):`
        for present in ([0, 1, 2], [0, 2], [1], [0, 2]):  # scaffolding: which next-day trajectories are still in the buffer at each train step
            buffer = _ReplayBuffer([_Item(id=Tid(env_index=e, step=1), trajectory={'memory_before': {'memory': jnp.zeros((2, 4, 8))}}) for e in present])  # scaffolding
            agent._replay_buffer = buffer  # scaffolding: the agent's buffer after this day's additions/evictions
            stats = agent._update_next_trajectory_memory(replayed_items, training_batch)  # scaffolding
            calls += 1  # scaffolding
    print(stats)  # scaffolding
    _report({"jit(result_func)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
