# source: https://github.com/google/CommonLoopUtils/commit/9147399887a0d2d78b90e2ff9da1348c157162a9
# expect: trace-time-error at line 83
# runtime: ERROR TracerIntegerConversionError
# why: Average.from_model_output computes the expand_dims axes with jnp.arange, which under jit is a traced array, so tuple(...) yields tracers that expand_dims cannot use as static axes and a jitted eval step with a per-example mask raises while tracing.

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
import functools  # scaffolding
from typing import Any, Optional

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


@jax.jit  # scaffolding: a jitted eval step using the metric
def eval_step(values, mask):
  return Average.from_model_output(values, mask=mask)


rng = np.random.RandomState(0)  # scaffolding
metric = Average.empty()
try:  # scaffolding
  for _ in range(4):
    values = rng.randn(8, 5).astype(np.float32)
    mask = rng.rand(8) > 0.2
    metric = metric.merge(eval_step(values, mask))
  print(metric.compute())
  _report({"jit(eval_step)"}, 4)
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")
