# source: https://github.com/google-deepmind/penzai/issues/117
# expect: unhashable-static at line 108
# runtime: ERROR ValueError
# why: A slice bound that is a concrete jax.Array (indexer.index = jnp.array(3)) is stored in the pytree metadata of _SliceThunk and handed to the jitted getitem helper; the first outer_fn() works, the second raises because arrays cannot be hashed or compared as static metadata.

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
import dataclasses
import functools
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np


# --- from penzai/core/named_axes.py before d44ea6c (the fix of issue #117) ---
# scaffolding: penzai's `struct.pytree_dataclass` with `pytree_node: False`
# fields is replaced by jax.tree_util.register_dataclass with meta_fields,
# and the `@nmap` layer (name-vectorisation) is dropped; NamedArrays become
# plain arrays.
@dataclasses.dataclass
class _DynamicThunk:
  value: Any

  def unwrap(self):
    return self.value


jax.tree_util.register_dataclass(_DynamicThunk, data_fields=["value"], meta_fields=[])  # scaffolding


@dataclasses.dataclass
class _SliceThunk:
  start: Any = dataclasses.field(metadata={"pytree_node": False})
  stop: Any = dataclasses.field(metadata={"pytree_node": False})
  step: Any = dataclasses.field(metadata={"pytree_node": False})

  def unwrap(self):
    return slice(self.start, self.stop, self.step)


jax.tree_util.register_dataclass(  # scaffolding
    _SliceThunk, data_fields=[], meta_fields=["start", "stop", "step"])


@functools.partial(
    jax.jit,
    static_argnames=[
        "indices_are_sorted",
        "unique_indices",
        "mode",
        "fill_value",
    ],
)
def _jitted_nmapped_getitem(
    array: jax.Array,
    index_thunks: tuple,
    *,
    indices_are_sorted=False,
    unique_indices=False,
    mode=None,
    fill_value=None,
):
  """JIT-compiled helper for getitem."""
  indexer = tuple(thunk.unwrap() for thunk in index_thunks)
  return array.at[indexer].get(
      indices_are_sorted=indices_are_sorted,
      unique_indices=unique_indices,
      mode=mode,
      fill_value=fill_value,
  )


def named_getitem(array, indexer, **kwargs):  # scaffolding: body of _IndexUpdateRef.get
      if not isinstance(indexer, tuple):
        indexer = (indexer,)
      index_thunks = []
      for c in indexer:
        if isinstance(c, jax.Array | np.ndarray | int):
          index_thunks.append(_DynamicThunk(c))
        elif isinstance(c, slice):
          index_thunks.append(_SliceThunk(c.start, c.stop, c.step))
        else:
          raise NotImplementedError  # scaffolding: _StaticThunk branch dropped

      return _jitted_nmapped_getitem(array, tuple(index_thunks), **kwargs)


# --- the reporter's code (issue #117), x[{"foo": pz.slice[:...]}] -> named_getitem ---
class Indexer:  # scaffolding: stands in for the reporter's pz.Struct (closed over, never traced)
    def __init__(self, index):
        self.index = index


def outer_fn():
    indexer = Indexer(jnp.array(3))

    def inner_fn(x):
        return named_getitem(x, slice(None, indexer.index))

    return jax.jit(inner_fn)


try:  # scaffolding
    test_fn = outer_fn()
    test_fn(jnp.ones(10))
    print("Call 1 succeeded")
    test_fn = outer_fn()
    test_fn(jnp.ones(10))
    print("Call 2 succeeded")
    _report({"jit(inner_fn)", "jit(_jitted_nmapped_getitem)"}, 2)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
