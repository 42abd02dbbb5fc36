# source: https://github.com/google-deepmind/distrax/issues/291
# expect: trace-time-error at line 47
# runtime: ERROR TracerArrayConversionError
# why: Indexing the Categorical with an index array built under jit sends the traced index into numpy arrays from np.indices, which tries to convert the tracer to a numpy array and raises; the same call without jit works.
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
from typing import Any, Optional, Tuple, Union

import jax
import jax.numpy as jnp
import numpy as np
import types

Array = jnp.ndarray


# scaffolding: distrax is not installed. to_batch_shape_index is distrax/_src/distributions/
# distribution.py verbatim; Categorical keeps the constructor fields, batch_shape, logits,
# entropy and __getitem__ of distrax/_src/distributions/categorical.py.
def to_batch_shape_index(
    batch_shape: Tuple[int, ...],
    index,
) -> Tuple[jnp.ndarray, ...]:
  """Utility function that transforms the index to respect the batch shape."""
  try:
    new_index = [x[index] for x in np.indices(batch_shape)]
    return tuple(new_index)
  except IndexError as e:
    raise IndexError(f'Batch shape `{batch_shape}` not compatible with index '
                     f'`{index}`.') from e


class Categorical:
  def __init__(self,
               logits: Optional[Array] = None,
               probs: Optional[Array] = None,
               dtype: Union[jnp.dtype, type[Any]] = int):
    self._logits = None if logits is None else jax.nn.log_softmax(logits, axis=-1)  # scaffolding: distrax's math.normalize
    self._probs = None if probs is None else probs
    self._dtype = dtype

  @property
  def batch_shape(self) -> Tuple[int, ...]:  # scaffolding
    p = self._logits if self._logits is not None else self._probs
    return p.shape[:-1]

  @property
  def logits(self) -> Array:
    """The logits for each event."""
    if self._logits is not None:
      return self._logits
    return jnp.log(self._probs)

  @property
  def probs(self) -> Array:
    """The probabilities for each event."""
    if self._probs is not None:
      return self._probs
    return jax.nn.softmax(self._logits, axis=-1)

  def entropy(self) -> Array:
    """See `Distribution.entropy`."""
    if self._logits is None:
      log_probs = jnp.log(self._probs)
    else:
      log_probs = jax.nn.log_softmax(self._logits)
    return -jnp.sum(jnp.exp(log_probs) * log_probs, axis=-1)  # scaffolding: math.mul_exp

  def __getitem__(self, index) -> 'Categorical':
    """See `Distribution.__getitem__`."""
    index = to_batch_shape_index(self.batch_shape, index)
    if self._logits is not None:
      return Categorical(logits=self.logits[index], dtype=self._dtype)
    return Categorical(probs=self.probs[index], dtype=self._dtype)


distrax = types.SimpleNamespace(Categorical=Categorical)  # scaffolding
from jax import jit


def foo(logits):
  d = distrax.Categorical(logits=logits)
  mask = jnp.arange(logits.shape[0])
  return d[mask].entropy()

logits = jnp.zeros((3, 3, 3))
foo(logits)  # fine
try:  # scaffolding
  jit(foo)(logits)  # raises
  _report({"jit(foo)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")
