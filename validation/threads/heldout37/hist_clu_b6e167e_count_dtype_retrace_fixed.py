# source: https://github.com/google/CommonLoopUtils/commit/b6e167e13347c18bfe35317c6fb41d938b768e43
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: The commit's fix: from_model_output counts with int32 ones, matching Average.empty(), so the merged metric keeps its dtypes and the jitted merge step compiles once for four batches.

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
from typing import Any, Optional  # scaffolding

import flax
import jax
import jax.numpy as jnp
import numpy as np


class Metric:  # scaffolding: stand-in for clu.metrics.Metric
  pass


def _assert_same_shape(a, b):  # scaffolding
  if a.shape != b.shape:
    raise ValueError(f"Expected same shape: {a.shape} != {b.shape}")


class utils:  # scaffolding: stand-in for clu.internal.utils
  @staticmethod
  def check_param(value, *, ndim=None, dtype=jnp.float32):
    if ndim is not None and value.ndim != ndim:
      raise ValueError(f"Expected ndim={ndim}, got ndim={value.ndim}")
    if dtype is not None and value.dtype != dtype:
      raise ValueError(f"Expected dtype={dtype}, got dtype={value.dtype}")


@flax.struct.dataclass
class Average(Metric):
  """Computes the average of a scalar or a batch of tensors."""

  total: jnp.array
  count: jnp.array

  @classmethod
  def empty(cls) -> Metric:
    return cls(total=jnp.array(0, jnp.float32), count=jnp.array(0, jnp.int32))

  @classmethod
  def from_model_output(cls,
                        values: jnp.array,
                        mask: Optional[jnp.array] = None,
                        **_) -> Metric:
    if values.ndim == 0:
      values = values[None]
    if mask is None:
      mask = jnp.ones_like(values)
    # Leading dimensions of mask and values must match.
    if mask.shape[0] != values.shape[0]:
      raise ValueError(
          f"Argument `mask` must have the same leading dimension as `values`. "
          f"Received mask of dimension {mask.shape} "
          f"and values of dimension {values.shape}.")
    # Broadcast mask to the same number of dimensions as values.
    if mask.ndim < values.ndim:
      mask = jnp.expand_dims(
          mask, axis=tuple(jnp.arange(mask.ndim, values.ndim)))
    mask = mask.astype(bool)
    utils.check_param(mask, dtype=bool, ndim=values.ndim)
    return cls(
        total=jnp.where(mask, values, jnp.zeros_like(values)).sum(),
        count=jnp.where(mask, jnp.ones_like(values, dtype=jnp.int32),
                        jnp.zeros_like(values, dtype=jnp.int32)).sum(),
    )

  def merge(self, other: "Average") -> "Average":
    _assert_same_shape(self.total, other.total)
    return type(self)(
        total=self.total + other.total,
        count=self.count + other.count,
    )

  def compute(self) -> Any:
    return self.total / self.count


@jax.jit
def merge_average(model_output, average):
  update = Average.from_model_output(**model_output)
  return average.merge(update)


rng = np.random.RandomState(0)  # scaffolding: four batches of model output
model_outputs = [dict(values=rng.randn(8).astype(np.float32), mask=rng.rand(8) > 0.2)
                 for _ in range(4)]
average = Average.empty()
for model_output in model_outputs:
  average = merge_average(model_output, average)
print(average.compute())
_report({"jit(merge_average)"}, len(model_outputs))
