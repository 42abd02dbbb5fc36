# source: https://github.com/FranzKnut/jax_rtrl/commit/f246ddf51689a4569862525bb52fb0699720d7b7
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: vault_generator calls jax.jit(tree_stack, static_argnames=['concatenate']) inside its sampling loop, but tree_stack is the same module-level function each time, so the re-wrapped jit hits the existing cache and compiles once for all samples.
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
from chex import PRNGKey
import jax

from typing import Any
import numpy as np
from jax import numpy as jnp
from jax import random as jrandom
from flax import struct  # scaffolding


def tree_stack(trees, axis=0, concatenate=False):
    """Take a list of trees and stack every corresponding leaf.

    For example, given two trees ((a, b), c) and ((a', b'), c'), returns
    ((stack(a, a'), stack(b, b')), stack(c, c')).
    Useful for turning a list of objects into something you can feed to a
    vmapped function. Taken from https://gist.github.com/willwhitney/dd89cac6a5b771ccff18b06b33372c75
    """
    leaves, treedef = jax.tree.flatten(trees[0])
    leaves_list = [leaves]
    for tree in trees[1:]:
        leaves, _ = jax.tree.flatten(tree)
        leaves_list.append(leaves)

    result_leaves = []
    leaves_list = list(zip(*leaves_list))
    for leaf_id, leaf in enumerate(leaves_list):
        _op = jnp.concatenate if concatenate else jnp.stack
        leaf = [jnp.atleast_1d(leaf_item) for leaf_item in leaf]
        result_leaves.append(_op(leaf, axis=axis))
    return treedef.unflatten(result_leaves)


@struct.dataclass
class BufferState:  # scaffolding: stand-in for flashbax's vault buffer state
    experience: dict
    current_index: int = 0


class Vault:  # scaffolding: stand-in for flashbax.vault.Vault (reads a time slice by percentiles)
    def __init__(self, n_steps=400):
        k = jrandom.PRNGKey(0)
        self.vault_index = n_steps
        self._obs = np.asarray(jrandom.normal(k, (1, n_steps, 3)))
        self._act = np.asarray(jrandom.normal(k, (1, n_steps, 1)))

    def read(self, percentiles):
        lo = int(percentiles[0] * self.vault_index / 100)
        hi = int(np.ceil(percentiles[1] * self.vault_index / 100)) + 1
        return BufferState(experience={"obs": jnp.asarray(self._obs[:, lo:hi]),
                                       "action": jnp.asarray(self._act[:, lo:hi])})


def read_vault_data(vault, start_id: int, num_steps: int = 1):
    """Read a chunk of data from the vault.

    :param start_id: Which start_id to read from (0-indexed)
    :param chunk_size: How much percent of the data should be read
    :return: The data chunk
    """
    start_percent = start_id * 100 / vault.vault_index
    end_percent = start_percent + num_steps * 100 / vault.vault_index
    assert start_percent >= 0, "Requested data chunk is negative."
    assert start_percent < end_percent, "start_percent must be < end_percent."

    # Making sure to do all adjustments of the data in CPU or else we risk out of memory Errors!
    with jax.default_device(jax.devices("cpu")[0]):
        _buff_state = vault.read(percentiles=(start_percent, end_percent))
        data = _buff_state.experience
        data = jax.tree.map(jnp.nan_to_num, data)
        data = jax.tree.map(lambda d: d[:, :num_steps], data)
        # data = jax.tree.map(partial(jnp.swapaxes, axis1=0, axis2=1), data)
        # Discard speed control from action

    return _buff_state.replace(experience=data)


def vault_generator(
    key: PRNGKey,
    vault: Any,
    batch_size: int,
    seq_len: int,
    num_samples: int = 1,
    eval_size: int = 0,
):
    for i in range(num_samples):
        key_sample, key = jrandom.split(key)
        batch_ids = jrandom.randint(
            key_sample,
            batch_size,
            0,
            vault.vault_index - seq_len - eval_size,
        )
        # HACK: Read a bit too much to avoid too small sequences
        batch_ids = [max(b - 0.1, 0) for b in batch_ids]
        jit_tree_stack = jax.jit(tree_stack, static_argnames=["concatenate"])
        sample = jit_tree_stack(
            [read_vault_data(vault, start_id=c, num_steps=seq_len) for c in batch_ids],
            concatenate=True,
        ).experience
        yield sample


n_calls = 0  # scaffolding
for sample in vault_generator(jrandom.PRNGKey(1), Vault(), batch_size=(4,), seq_len=20, num_samples=5):  # scaffolding
    n_calls += 1
_report({"jit(tree_stack)"}, n_calls)
